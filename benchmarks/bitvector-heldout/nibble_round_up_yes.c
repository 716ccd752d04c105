/* Rounds x up to a multiple of 16 by incrementing while the low nibble is
   not zero. Each x++ increases the low nibble by one; it reaches 0 (with a
   carry into bit 4, or a wrap of x from 0xFFFFFFFF to 0, both defined for
   unsigned) after at most 15 iterations.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x & 0xFu) x++;
  return (int)(x >> 28);
}
