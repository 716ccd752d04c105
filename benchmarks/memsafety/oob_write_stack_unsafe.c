/* Fills n characters of a local line buffer of 8 bytes and terminates the
   string at line[n]. The bound check admits n = 8, and then line[8] = '\0'
   writes one byte past the stack array: memory unsafe. The fill loop is
   bounded by n <= 8.
   Witness: n = 8.
   witness-input: 8 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  char line[8];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 8) return 0;
  for (int i = 0; i < n; i++) line[i] = 'x';
  line[n] = '\0';
  return line[0];
}
