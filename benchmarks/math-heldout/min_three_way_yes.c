/* Terminates: every iteration lowers min(a, b) by at least 1 (the smaller one drops, the
   other is replaced by a value above the new minimum or the loop ends), and the loop needs
   min(a, b) > 0. Under math semantics the inputs are unbounded but min(a, b) is not. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  while (a > 0 && b > 0) {
    if (a < b) {
      b = a - 1 + __VERIFIER_nondet_int() % 2;
      a = a - 1;
    } else if (b < a) {
      a = b - 1;
    } else {
      a = a - 1;
      b = b - 1;
    }
  }
  return 0;
}
