/* Towers of Hanoi move count: two recursive calls with n - 1 each, n <= 20, so the
   recursion tree is finite and moves(n) = 2^n - 1 <= 1048575 never overflows.
   Terminating, no undefined behaviour. */
extern int __VERIFIER_nondet_int(void);

int moves(int n) {
  if (n <= 0) return 0;
  return moves(n - 1) + 1 + moves(n - 1);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 20) n = 20;
  return moves(n) < 0;
}
