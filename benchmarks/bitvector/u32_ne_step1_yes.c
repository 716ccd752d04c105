/* Steps j = 0, 1, 2, ... until j == x. For every unsigned x the loop reaches
   j == x after exactly x <= 2^32 - 1 iterations, before j could wrap.
   Unsigned arithmetic only. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int steps = 0;
  for (unsigned int j = 0; j != x; j++) steps++;
  return (int)(steps & 1);
}
