/* Recursion on a global counter: tick() decrements g and recurses while g > 0; main sets g
   from the input, capped at 10000. g decreases on every call: terminating; g - 1 with g > 0
   cannot overflow. Terminating, no undefined behaviour. */
extern int __VERIFIER_nondet_int(void);

int g;

void tick(void) {
  if (g <= 0) return;
  g = g - 1;
  tick();
}

int main(void) {
  g = __VERIFIER_nondet_int();
  if (g > 10000) g = 10000;
  tick();
  return g;
}
