/* Terminates: while x > 0 it only decreases (to 0, which exits); while x < 0, either x
   rises towards 0 or y falls and x is reset to anything. So y falls at most y times, and
   between two falls x moves monotonically towards 0 (or into the region x > 0, which it
   never leaves and where x falls). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x != 0 && y > 0) {
    if (x > 0) {
      x = x - 1;
    } else if (__VERIFIER_nondet_int()) {
      x = x + 1;
    } else {
      y = y - 1;
      x = __VERIFIER_nondet_int();
    }
  }
  return 0;
}
