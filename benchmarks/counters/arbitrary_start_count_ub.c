/* The counter starts at an input value: c = INT_MAX and n = 1 make the first
   c++ overflow (undefined behaviour). witness-input: 1 2147483647 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  while (n > 0) {
    n--;
    c++;
  }
  return c;
}
