/* Walks i from 0 toward n in steps of `step`, with bounds that rule out
   overflow (0 <= i < n <= 1000 before the addition, step <= 10). A step of 0
   is allowed by the check, and then i stays 0 < n forever: non-terminating
   (the state repeats every iteration), with no undefined behaviour.
   Witness: n = 1, step = 0.
   witness-input: 1 0 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int step = __VERIFIER_nondet_int();
  if (n > 1000 || step < 0 || step > 10) return 0;
  int i = 0;
  while (i < n) i += step;
  return i;
}
