/* An unsigned char counter against the int sum of two bytes. The sum is in
   0..510; for a sum above 255, i < limit always holds (i <= 255) and i++
   wraps 255 -> 0 on the conversion back to unsigned char.
   Witness: a = 200, b = 100 (limit 300).
   witness-input: 200 100 */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = __VERIFIER_nondet_uchar();
  int limit = a + b;
  unsigned int count = 0;
  unsigned char i = 0;
  while (i < limit) {
    i++;
    count++;
  }
  return (int)(count & 1);
}
