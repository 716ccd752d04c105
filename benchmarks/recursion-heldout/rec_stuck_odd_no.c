/* steps(x) recurses on x - 2 while x is even and positive (down to 0: terminating), but on x
   itself when x is odd and positive: from an odd x > 0 every call makes the same call again
   and no call ever returns. x is clamped to at most 100 and never changes on the infinite
   path, so no arithmetic overflows (the only subtraction, x - 2, runs on even x > 0).
   Non-terminating (infinite recursion; on a real machine the stack overflows, see
   BENCHMARKS.md "Session 10").
   witness-input: 3 */
extern int __VERIFIER_nondet_int(void);

int steps(int x) {
  if (x <= 0) return 0;
  if (x % 2 == 0) return 1 + steps(x - 2);
  return steps(x);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 100) x = 100;
  return steps(x);
}
