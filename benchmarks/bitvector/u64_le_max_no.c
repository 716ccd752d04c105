/* 64-bit version of u32_le_max_no.c: for x = 2^64 - 1 the condition j <= x
   holds for every unsigned long long j, and j++ wraps to 0 (defined), so the
   loop never exits: non-terminating (j cycles with period 2^64).
   Witness: x = 18446744073709551615.
   witness-input: 18446744073709551615 */
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  unsigned long long count = 0;
  for (unsigned long long j = 0; j <= x; j++) count++;
  return (int)(count & 1);
}
