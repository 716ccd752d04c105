/* Like nested_u8_rows_yes.c, but the inner loop runs while j <= n. For
   n = 255 the inner condition always holds (j is an unsigned char, at most
   255), and j++ (computed in int, converted back modulo 2^8) goes 255 -> 0:
   the inner loop never ends once the outer loop is entered (rows >= 1).
   Witness: rows = 1, n = 255.
   witness-input: 1 255 */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char rows = __VERIFIER_nondet_uchar();
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned int total = 0;
  for (unsigned char r = 0; r < rows; r++)
    for (unsigned char j = 0; j <= n; j++) total += j;
  return (int)(total & 1);
}
