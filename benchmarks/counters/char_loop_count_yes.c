/* An unsigned char counts down: at most 255 iterations, c <= 255. */
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  int c = 0;
  while (n != 0) {
    n--;
    c++;
  }
  return c;
}
