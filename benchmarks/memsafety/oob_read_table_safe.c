/* Safe twin of oob_read_table_unsafe.c: m is checked to be in 1..12 and the
   table is read at m - 1, an index in 0..11 inside the 12-entry stack array.
   No loop. Terminating and memory safe for every input. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int m = __VERIFIER_nondet_int();
  if (m < 1 || m > 12) return 0;
  return days[m - 1];
}
