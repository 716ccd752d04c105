/* A count-down loop with the condition i >= 0 on an unsigned i. That
   condition is always true: when i reaches 0, i-- wraps to UINT_MAX and the
   loop goes on. The condition never fails, so the loop never exits:
   non-terminating for every n (the state (i, s) ranges over a finite set, so
   the run is eventually periodic, a lasso).
   The sum s is unsigned (wraps, no undefined behaviour).
   Witness: n = 0.
   witness-input: 0 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int s = 0;
  for (unsigned int i = n; i >= 0; i--) s += i;
  return (int)(s & 1);
}
