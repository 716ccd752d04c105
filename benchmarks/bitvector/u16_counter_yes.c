/* Twin of u16_counter_no.c with a 16-bit bound: inside the loop i < n <= 65535,
   so i + 1 <= 65535 is representable and the counter never wraps; n - i
   decreases by 1: at most 65535 iterations. The arithmetic is done in int on
   values <= 65536 (no overflow); the sum is unsigned.
   Terminates for every input. */
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned short n = __VERIFIER_nondet_ushort();
  unsigned int sum = 0;
  for (unsigned short i = 0; i < n; i++) sum += i;
  return (int)(sum & 1);
}
