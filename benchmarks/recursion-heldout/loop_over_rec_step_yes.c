/* The loop in main advances i by step(i), which returns 1 + (number of times k can be halved
   while > 0) >= 1 for every k >= 0 (the recursion on k / 2 strictly decreases k >= 1 to 0).
   So i strictly increases by at least 1 while i < n <= 10000, and i + step(i) <= 10000 + 15
   cannot overflow. Terminating. */
extern int __VERIFIER_nondet_int(void);

int step(int k) {
  if (k <= 0) return 1;
  return 1 + step(k / 2);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 10000) n = 10000;
  int i = 0;
  while (i < n) i = i + step(i);
  return i;
}
