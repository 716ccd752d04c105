/* Twin of isqrt_overflow_no.c that tests i <= n / i instead of i * i <= n:
   no multiplication, and i >= 1 so no division by zero. i <= n / i implies
   i * i <= n < 2^32 (mathematically), so inside the loop i <= 65535 and i++
   does not wrap; the loop ends once i > sqrt(n), after at most 65536
   iterations. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 1;
  while (i <= n / i) i++;
  return (int)(i & 1);
}
