/* A triangle of (r, j) pairs with unsigned char counters. Outer: r < rows
   <= 255, so r <= 254 inside and r++ never wraps; rows - r decreases. Inner:
   j starts at r and runs while j < n <= 255, so j++ never wraps and n - j
   decreases. total is unsigned (wraps, defined).
   Terminates for every input. */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char rows = __VERIFIER_nondet_uchar();
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned int total = 0;
  for (unsigned char r = 0; r < rows; r++)
    for (unsigned char j = r; j < n; j++) total += j;
  return (int)(total & 1);
}
