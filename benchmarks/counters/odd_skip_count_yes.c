/* n >= 0 drops by 2 while n != 0 and n > -1000: an even n reaches 0, an odd
   one skips 0 and stops at -1001 (n - 2 >= -1001: no overflow). At most
   (n0 + 1001) / 2 < 2^30 + 501 iterations, so the counter c never overflows. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  int c = 0;
  while (n != 0 && n > -1000) {
    n -= 2;
    c++;
  }
  return c;
}
