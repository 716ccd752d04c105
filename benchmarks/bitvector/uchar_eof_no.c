/* The classic EOF bug: reading characters into an unsigned char and
   comparing with -1. c is promoted to int and lies in 0..255, so c != -1
   always holds, whatever value is read (also when the input is -1, which
   becomes 255): every run is non-terminating. count is unsigned (wraps,
   defined), so the infinite run has no undefined behaviour.
   Witness: every input sequence, e.g. -1, -1, -1, ...
   witness-input: -1 -1 -1 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  unsigned char c;
  unsigned int count = 0;
  while ((c = (unsigned char)__VERIFIER_nondet_int()) != -1) count++;
  return (int)(count & 1);
}
