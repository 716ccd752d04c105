/* Twin of s8_limit_no.c: the limit is converted to unsigned char before the
   comparison, so c and (unsigned char)lim are both in 0..255 and c = 0, 1, ...
   reaches it after at most 255 iterations (c never needs to wrap).
   Terminates for every input. */
extern char __VERIFIER_nondet_char(void);

int main(void) {
  signed char lim = (signed char)__VERIFIER_nondet_char();
  unsigned int count = 0;
  for (unsigned char c = 0; c != (unsigned char)lim; c++) count++;
  return (int)(count & 1);
}
