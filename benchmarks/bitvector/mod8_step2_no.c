/* Adds 2 until x % 8 == 7. Adding 2 modulo 2^32 keeps x even (2^32 is even),
   and an even x has x % 8 in {0, 2, 4, 6}, never 7. So for even x the loop
   never ends (x cycles through the even values): non-terminating.
   Witness: x = 0.
   witness-input: 0 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x % 8 != 7) x += 2;
  return (int)(x & 1);
}
