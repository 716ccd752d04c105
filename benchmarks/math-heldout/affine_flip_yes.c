/* Terminates: x = 5 - 2x. From x >= 1 the next value is 3 (x = 1), 1 (x = 2) or <= -1
   (x >= 3); 3 -> -1, 1 -> 3 -> -1: at most 3 iterations. Over the rationals x = 5/3 is a
   fixed point inside the guard, so no linear ranking function exists. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x >= 1) {
    x = 5 - 2 * x;
  }
  return 0;
}
