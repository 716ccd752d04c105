/* Twin of binsearch_no.c with lo = mid + 1. Inside the loop lo < hi, so
   lo <= mid = lo + (hi - lo) / 2 < hi; mid + 1 <= hi <= UINT_MAX does not
   wrap. Either lo grows to mid + 1 > lo or hi shrinks to mid < hi, so hi - lo
   strictly decreases: at most 33 iterations (it at least halves).
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int t = __VERIFIER_nondet_uint();
  unsigned int lo = 0, hi = n;
  while (lo < hi) {
    unsigned int mid = lo + (hi - lo) / 2;
    if (mid < t) lo = mid + 1;
    else hi = mid;
  }
  return (int)(lo & 1);
}
