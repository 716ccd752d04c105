/* is_even(n) for n >= 0 recurses on n - 2 down to 0 or 1 (terminating). The loop decreases
   x by 2 only when x is even; an odd x (e.g. 3) never changes, so the loop runs forever for
   every odd x in (0, 1000]. Non-terminating.
   witness-input: 3 */
extern int __VERIFIER_nondet_int(void);

int is_even(int n) {
  if (n == 0) return 1;
  if (n == 1) return 0;
  return is_even(n - 2);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1000) return 0;
  while (x > 0) {
    if (is_even(x)) x = x - 2;
  }
  return 0;
}
