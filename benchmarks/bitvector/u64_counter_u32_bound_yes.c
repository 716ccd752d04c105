/* A 64-bit counter with i <= n for a 32-bit n: inside the loop i <= n <=
   2^32 - 1, so i + 1 <= 2^32 never wraps in 64 bits; the loop ends when
   i = n + 1, after n + 1 <= 2^32 iterations (compare u32_le_max_no.c, where
   the 32-bit counter wraps). Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int sum = 0;
  for (unsigned long long i = 0; i <= n; i++) sum += (unsigned int)i;
  return (int)(sum & 1);
}
