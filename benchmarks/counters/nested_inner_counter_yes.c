/* Inner loop: j from 0 to 100, counter k reset per outer iteration, so k
   <= 100; outer loop: n (at most 100000) decreases by 1 while positive.
   Terminates without overflow. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 100000) return 0;
  int total = 0;
  while (n > 0) {
    int k = 0;
    for (int j = 0; j < 100; j++) k++;
    total = k;
    n--;
  }
  return total;
}
