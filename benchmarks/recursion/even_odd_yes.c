/* Mutual recursion: even(n) and odd(n) call each other with n - 1 until n == 0; main only
   calls them for 0 <= n <= 10000, so n stays in [0, 10000] and every call chain has
   n + 1 calls. Terminating, no undefined behaviour. */
extern int __VERIFIER_nondet_int(void);

int odd(int n);
int even(int n) { if (n == 0) return 1; return odd(n - 1); }
int odd(int n) { if (n == 0) return 0; return even(n - 1); }

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 10000) return 0;
  return even(n);
}
