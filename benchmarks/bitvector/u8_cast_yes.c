/* Increments x until its low byte is 0. Each x++ (modulo 2^32) increments the
   low byte (unsigned char)x by 1 modulo 2^8, also when x wraps from UINT_MAX
   to 0; so the low byte is 0 after at most 255 iterations.
   Unsigned arithmetic only. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while ((unsigned char)x != 0) x++;
  return (int)(x >> 8 & 1);
}
