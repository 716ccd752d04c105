/* Doubly recursive Fibonacci for 0 <= n <= 20: both recursive calls get a strictly smaller
   non-negative argument (n - 1, n - 2 with n >= 2), so the call tree is finite. The largest
   value is fib(20) = 6765, so no sum overflows. Terminating (no memory used). */
extern int __VERIFIER_nondet_int(void);

int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 20) return 0;
  return fib(n) > 100;
}
