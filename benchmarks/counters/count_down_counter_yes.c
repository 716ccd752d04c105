/* The counter goes down: d = -(iterations) >= -n0 >= -INT_MAX > INT_MIN, so
   d-- never overflows; n decreases by 1 while positive. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int d = 0;
  while (n > 0) {
    n--;
    d--;
  }
  return d;
}
