/* Steps j through the even numbers looking for x. j starts at 0 and j += 2
   keeps j even, also across the wrap (2^32 is even). For odd x, j != x always
   holds; j cycles through the 2^31 even values, so the state repeats:
   non-terminating. Unsigned arithmetic only.
   Witness: x = 1.
   witness-input: 1 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int steps = 0;
  for (unsigned int j = 0; j != x; j += 2) steps++;
  return (int)(steps & 1);
}
