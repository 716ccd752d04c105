/* Halves a 64-bit x until it is 1. For x = 0 the loop runs forever:
   0 / 2 == 0, and the state never changes. Non-terminating.
   Witness: x = 0.
   witness-input: 0 */
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  int steps = 0;
  while (x != 1) {
    x /= 2;
    steps = (steps + 1) & 0xff;
  }
  return steps;
}
