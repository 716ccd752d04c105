/* The example: n drops by 2 while positive, so the loop runs at most
   ceil(n0/2) <= 2^30 times; c counts the iterations from 0, so c <= 2^30 and
   c++ never overflows; n -= 2 runs only for n > 0, so n >= -1 and never wraps.
   Terminates for every input without undefined behaviour. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = 0;
  while (n > 0) {
    n -= 2;
    c++;
  }
  return c;
}
