/* Counts j from 0 while j <= x. For x = UINT_MAX the condition j <= x holds for
   every unsigned value of j, and j++ wraps from UINT_MAX to 0 (defined for
   unsigned), so j cycles through all 2^32 values and the state (j, x) repeats
   after 2^32 iterations: non-terminating. No signed arithmetic at all.
   Witness: x = 4294967295.
   witness-input: 4294967295 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int count = 0;
  for (unsigned int j = 0; j <= x; j++) count++;
  return (int)(count & 1);
}
