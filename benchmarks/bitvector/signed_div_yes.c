/* Halves a signed int by division until it is 0. Signed division truncates
   toward zero (C11 6.5.5p6), so |x / 2| <= |x| / 2 and x is 0 after at most
   32 iterations (-1 / 2 == 0). Division by the constant 2 cannot overflow
   (only INT_MIN / -1 can). Compare signed_shift_no.c, where >> rounds toward
   minus infinity. Terminates for every input. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int steps = 0;
  while (x != 0) {
    x /= 2;
    steps++;
  }
  return steps;
}
