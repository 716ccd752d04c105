/* With input 0 the flag never changes and the loop never ends; the counter
   wraps back to 0 at 1000, so it never overflows. witness-input: 0 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int f = __VERIFIER_nondet_int();
  int c = 0;
  while (f == 0) {
    c++;
    if (c == 1000) c = 0;
  }
  return c;
}
