/* Subtractive GCD on unsigned values without a zero check. For a = 0 and
   b = 1: a != b, a > b is false, so b -= a leaves b = 1 and nothing changes:
   the state repeats, non-terminating.
   Witness: a = 0, b = 1.
   witness-input: 0 1 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned int b = __VERIFIER_nondet_uint();
  while (a != b) {
    if (a > b) a -= b;
    else b -= a;
  }
  return (int)(a & 1);
}
