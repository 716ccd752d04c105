/* Counts j upward from x until it becomes 0. This only ends because unsigned
   arithmetic wraps: after 2^32 - x increments j goes from UINT_MAX to 0
   (x = 0 skips the loop). Mathematical integers would never reach 0.
   Unsigned arithmetic only. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int count = 0;
  for (unsigned int j = x; j != 0; j++) count++;
  return (int)(count & 1);
}
