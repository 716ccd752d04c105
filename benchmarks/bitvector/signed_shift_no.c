/* Shifts a signed int right until it is 0. Right shift of a negative signed
   value is implementation-defined (C11 6.5.7p5), not undefined; clang emits an
   arithmetic shift (ashr), which copies the sign bit. For x = -1,
   -1 >> 1 == -1, so x never changes and never becomes 0: non-terminating.
   No overflow, no undefined behaviour.
   Witness: x = -1.
   witness-input: -1 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x != 0) x >>= 1;
  return 0;
}
