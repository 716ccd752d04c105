/* i counts up from 0 to n (i < n <= INT_MAX, so i++ never overflows); the
   counter c equals i at every loop head, so c <= INT_MAX - 1 before c++. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = 0;
  for (int i = 0; i < n; i++) {
    c++;
  }
  return c;
}
