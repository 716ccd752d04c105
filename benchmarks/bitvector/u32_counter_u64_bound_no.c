/* A 32-bit counter compared against a 64-bit bound: i is converted to
   unsigned long long for i < n, so i <= 2^32 - 1 and for n >= 2^32 the
   condition always holds; i++ wraps from UINT_MAX to 0 (defined). i cycles:
   non-terminating.
   Witness: n = 4294967296.
   witness-input: 4294967296 */
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long n = __VERIFIER_nondet_ulonglong();
  unsigned int sum = 0;
  for (unsigned int i = 0; i < n; i++) sum += i;
  return (int)(sum & 1);
}
