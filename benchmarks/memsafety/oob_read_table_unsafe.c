/* Looks up the number of days of month m (1..12) in a local table of 12
   entries indexed from 0, but indexes with m instead of m - 1. For m = 12 it
   reads days[12], one past the end of the stack array: memory unsafe.
   (For m = 1..11 it reads a wrong but valid entry.) No loop at all.
   Witness: m = 12.
   witness-input: 12 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int m = __VERIFIER_nondet_int();
  if (m < 1 || m > 12) return 0;
  return days[m];
}
