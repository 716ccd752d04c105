/* Triples a positive int while it is below 100000. Inside the loop
   0 < x < 100000, so 3 * x < 300000 never overflows, and x at least triples:
   at most 11 iterations.
   Terminates for every input, without signed overflow. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x <= 0) return 0;
  while (x < 100000) x *= 3;
  return x & 1;
}
