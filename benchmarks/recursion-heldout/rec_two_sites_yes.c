/* settle(x) returns at x == 7, goes up by one below 7 and down by one above 7: |x - 7|
   decreases by one per call, so every call chain reaches 7 (main clamps x to [-1000, 1000]:
   at most 1007 calls deep). x + 1 runs only on x < 7 and x - 1 only on x > 7: no overflow.
   Terminating (the near-miss of rec_two_sites_no.c).
   */
extern int __VERIFIER_nondet_int(void);

int settle(int x) {
  if (x == 7) return 1;
  if (x < 7) return settle(x + 1);
  return settle(x - 1);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < -1000 || x > 1000) return 0;
  return settle(x);
}
