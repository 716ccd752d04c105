/* u32_minus6_no.c made even first (i++ on an odd i; 0xFFFFFFFF + 1 wraps to
   0, defined). For an even i = 2m, i - 6k = 0 modulo 2^32 iff 3k = m modulo
   2^31, which has a solution k < 2^31 because 3 is invertible modulo 2^31:
   the countdown (wrapping below 0 on the way) reaches 0 after at most 2^31
   iterations.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int i = __VERIFIER_nondet_uint();
  if (i & 1u) i++;
  while (i != 0) i -= 6;
  return 0;
}
