/* Binary search for the boundary t in [lo, hi) that forgets the + 1 in
   lo = mid. mid = lo + (hi - lo) / 2 has no overflow (hi >= lo inside the
   loop). With n = 2 and t = 5: lo = 0, hi = 2, mid = 1 < 5, so lo = 1; then
   mid = 1 + (2 - 1) / 2 = 1 again, lo stays 1 and hi stays 2 forever: the
   state repeats, non-terminating. Unsigned arithmetic only.
   Witness: n = 2, t = 5.
   witness-input: 2 5 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int t = __VERIFIER_nondet_uint();
  unsigned int lo = 0, hi = n;
  while (lo < hi) {
    unsigned int mid = lo + (hi - lo) / 2;
    if (mid < t) lo = mid;
    else hi = mid;
  }
  return (int)(lo & 1);
}
