/* Recursive strlen over the caller's 16-byte stack buffer whose last byte is 0: the call on
   s + 1 happens only when *s != 0, i.e. before the terminator, so every read is inside the
   buffer and the distance to the terminator decreases. Terminating and memory safe. */
extern int __VERIFIER_nondet_int(void);

int len(const char *s) {
  if (*s == 0) return 0;
  return 1 + len(s + 1);
}

int main(void) {
  char buf[16];
  for (int i = 0; i < 15; i++) buf[i] = (char)__VERIFIER_nondet_int();
  buf[15] = 0;
  return len(buf);
}
