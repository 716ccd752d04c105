/* Doubles a signed int until it is 0. With wrapping arithmetic every x
   reaches 0 after at most 32 doublings, but in C any nonzero x overflows
   first (|x| doubles until 2 * x leaves the int range; for x = INT_MIN the
   first doubling overflows): undefined behaviour (C11 6.5p5). x = 0 ends at
   once. Some runs have undefined behaviour, so YES is wrong; no run is
   infinite: the answer is UB.
   Input reaching the overflow: x = 1 (2 * 2^30 overflows).
   witness-input: 1 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x != 0) x *= 2;
  return 0;
}
