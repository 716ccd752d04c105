/* Integer square root by testing i * i <= n. The product is unsigned and
   wraps modulo 2^32. For n = UINT_MAX every unsigned value is <= n, so the
   condition holds for every i; i++ wraps too (defined), so i cycles with
   period 2^32: non-terminating.
   Witness: n = 4294967295.
   witness-input: 4294967295 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 1;
  while (i * i <= n) i++;
  return (int)(i & 1);
}
