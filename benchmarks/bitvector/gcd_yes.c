/* Twin of gcd_no.c with a, b >= 1: the smaller value is subtracted from the
   strictly larger one, so no subtraction wraps and both stay >= 1; the
   mathematical sum a + b decreases by at least 1 per iteration, so the loop
   ends (at most 2^33 iterations). Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned int b = __VERIFIER_nondet_uint();
  if (a == 0 || b == 0) return 0;
  while (a != b) {
    if (a > b) a -= b;
    else b -= a;
  }
  return (int)(a & 1);
}
