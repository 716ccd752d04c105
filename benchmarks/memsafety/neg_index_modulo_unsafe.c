/* Reads the previous entry of a ring buffer of 8 ints at index (pos - 1) % 8.
   In C, % truncates toward zero, so for pos = 0 the index is -1 % 8 = -1 and
   ring[-1] is read before the start of the stack array: memory unsafe.
   (For pos = 8, 16, ... the index is 7, which is fine.) No loop on input.
   Witness: pos = 0.
   witness-input: 0 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int ring[8];
  for (int i = 0; i < 8; i++) ring[i] = i * i;
  int pos = __VERIFIER_nondet_int();
  if (pos < 0 || pos > 1000) return 0;
  int prev = ring[(pos - 1) % 8];
  return prev;
}
