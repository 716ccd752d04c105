/* Safe twin of oob_write_stack_unsafe.c: the bound check admits n in 0..7
   only, so the letters go to line[0..n-1] and the terminator to line[n] with
   n <= 7, inside the 8-byte stack array; line[0] is written (by the loop or as
   the terminator when n = 0) before it is read. Terminating and memory safe. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  char line[8];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 7) return 0;
  for (int i = 0; i < n; i++) line[i] = 'x';
  line[n] = '\0';
  return line[0];
}
