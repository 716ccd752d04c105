/* Multiplicative hashing until the value is 1. Multiplying by an odd
   constant modulo 2^64 keeps the number of trailing zero bits; in particular
   0 stays 0 forever, and 0 != 1.
   Witness: h = 0.
   witness-input: 0 */
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long h = __VERIFIER_nondet_ulonglong();
  while (h != 1) h *= 0x9E3779B97F4A7C15ull;
  return 0;
}
