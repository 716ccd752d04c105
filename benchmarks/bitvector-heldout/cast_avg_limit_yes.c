/* cast_sum_limit_no.c with the average instead of the sum: limit =
   (a + b) / 2 <= 255, so inside the loop i < limit <= 255, i++ does not wrap,
   and limit - i decreases by one per iteration.
   Terminates for every input. */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = __VERIFIER_nondet_uchar();
  int limit = (a + b) / 2;
  unsigned int count = 0;
  for (unsigned char i = 0; i < limit; i++) count++;
  return (int)(count & 1);
}
