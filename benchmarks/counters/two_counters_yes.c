/* Two counters, both incremented once per iteration of a loop that runs at
   most n0 times (n0 <= INT_MAX): each stays below n0, neither overflows. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int a = 0, b = 0;
  while (n > 0) {
    n--;
    a++;
    b++;
  }
  return a - b;
}
