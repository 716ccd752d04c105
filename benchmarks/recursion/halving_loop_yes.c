/* The loop's termination depends on what the recursive callee returns: half(n) returns
   n / 2 (rounded down) for n >= 0 by recursion on n - 2, so for x > 1 the new x = half(x)
   is smaller than x and at least 1; the loop ends after log2(x) rounds (x is capped at
   100000 so that native test runs stay within the stack).
   Terminating, no undefined behaviour (1 + half(n - 2) <= n / 2). */
extern int __VERIFIER_nondet_int(void);

int half(int n) {
  if (n <= 1) return 0;
  return 1 + half(n - 2);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 100000) x = 100000;
  while (x > 1) x = half(x);
  return 0;
}
