/* Adds step to total until total >= n, with no overflow check. For
   n = UINT_MAX and step = 2, total takes the even values 0, 2, ...,
   UINT_MAX - 1 (all < n), then wraps to 0 (unsigned, defined) and starts
   again; an even total never reaches the odd n, so the loop never ends
   (the state repeats with period 2^31): non-terminating.
   Witness: n = 4294967295, step = 2.
   witness-input: 4294967295 2 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int step = __VERIFIER_nondet_uint();
  if (step == 0) return 0;
  unsigned int total = 0;
  while (total < n) total += step;
  return (int)(total & 1);
}
