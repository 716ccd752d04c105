/* Sums n, n-1, ..., 1 with an unsigned counter and the condition i > 0:
   inside the loop i >= 1, so i-- never wraps; i decreases by 1 per iteration:
   at most n iterations. The sum is unsigned (wraps, defined).
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int s = 0;
  for (unsigned int i = n; i > 0; i--) s += i;
  return (int)(s & 1);
}
