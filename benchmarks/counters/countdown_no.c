/* Every n >= 5 counts down to 5 and stays there (n-- is skipped at 5), so the
   loop never ends; the counter c is reset to 0 once it exceeds 10, so it never
   overflows. witness-input: 5 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = 0;
  while (n > 0) {
    if (n != 5) n--;
    c++;
    if (c > 10) c = 0;
  }
  return c;
}
