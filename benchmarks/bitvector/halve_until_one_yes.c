/* Twin of halve_until_one_no.c that rejects x = 0: for x >= 2, x / 2 >= 1,
   so x stays >= 1, strictly decreases while x != 1 and reaches 1 after at
   most 63 iterations. Terminates for every input. */
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  if (x == 0) return 0;
  int steps = 0;
  while (x != 1) {
    x /= 2;
    steps++;
  }
  return steps;
}
