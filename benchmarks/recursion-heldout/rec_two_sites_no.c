/* seek(x) returns at x == 7, goes up by one below 5 and down by one from 5 on. From any
   x <= 6 the argument climbs to 5 (or falls from 6 to 5), then alternates 4, 5, 4, 5, ...
   and never reaches 7: every call makes another (two call sites), none returns. x + 1 runs
   only on x < 5 and x - 1 only on 5 <= x <= 6 (on the infinite path), so nothing overflows.
   From x >= 7 the argument falls to 7 and returns (x - 1 on x >= 8 cannot overflow).
   Non-terminating for every x <= 6 (infinite recursion).
   witness-input: 0 */
extern int __VERIFIER_nondet_int(void);

int seek(int x) {
  if (x == 7) return 1;
  if (x < 5) return seek(x + 1);
  return seek(x - 1);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  return seek(x);
}
