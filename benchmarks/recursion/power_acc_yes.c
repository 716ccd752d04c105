/* Tail recursion with an accumulator: count(e, acc) adds 1 to acc e times; e decreases by
   1 per call and the recursion stops at e <= 0. With 0 <= e <= 1000 and acc starting at 0,
   acc <= 1000. Terminating, no undefined behaviour. */
extern int __VERIFIER_nondet_int(void);

int count(int e, int acc) {
  if (e <= 0) return acc;
  return count(e - 1, acc + 1);
}

int main(void) {
  int e = __VERIFIER_nondet_int();
  if (e > 1000) e = 1000;
  return count(e, 0) > 1000;
}
