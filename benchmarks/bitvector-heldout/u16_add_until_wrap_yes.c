/* Adds a nonzero 16-bit step to total until the next addition would wrap.
   total + step is computed in int; its conversion to unsigned short is
   >= total exactly when the int sum is below 65536 (step < 65536). While
   the loop runs, total grows by step >= 1 without wrapping, so it stays
   below 65536 and the loop ends after at most 65535 iterations.
   Terminates for every input. */
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned short step = __VERIFIER_nondet_ushort();
  if (step == 0) return 0;
  unsigned short total = 0;
  unsigned int count = 0;
  while ((unsigned short)(total + step) >= total) {
    total = (unsigned short)(total + step);
    count++;
  }
  return (int)(count & 1);
}
