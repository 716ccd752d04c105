/* sum_to(n) = max(n, 0) by linear recursion on n - 1; n is capped at 1000, so the
   depth is at most 1000 and 1 + sum_to(n - 1) <= 1000 never overflows.
   Terminating and free of undefined behaviour for every input. */
extern int __VERIFIER_nondet_int(void);

int sum_to(int n) {
  if (n <= 0) return 0;
  return 1 + sum_to(n - 1);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 1000) n = 1000;
  return sum_to(n) > 1000;
}
