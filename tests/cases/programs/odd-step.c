/* An odd x stays odd under x += 2 (mod 2^32) and never reaches 0: non-terminating for
   every odd input, with a state repeating only after 2^31 iterations. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x != 0) x += 2;
  return 0;
}
