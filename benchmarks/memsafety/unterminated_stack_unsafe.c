/* Writes n letters into a local array of 4 chars and terminates the word only
   if there is room (n < 4). For n = 4 the array holds "aaaa" with no '\0', and
   the strlen-like loop reads word[4], one past the stack array: memory unsafe.
   Witness: n = 4.
   witness-input: 4 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  char word[4];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  for (int i = 0; i < n; i++) word[i] = 'a';
  if (n < 4) word[n] = '\0';
  int len = 0;
  while (word[len] != '\0') len++;
  return len;
}
