/* Safe twin of unterminated_stack_unsafe.c: the array has 5 chars, so there
   is always room for the terminator word[n] with n <= 4; the strlen-like loop
   reads word[0..n], all inside the array and all written, and stops at n.
   Terminating and memory safe for every input. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  char word[5];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  for (int i = 0; i < n; i++) word[i] = 'a';
  word[n] = '\0';
  int len = 0;
  while (word[len] != '\0') len++;
  return len;
}
