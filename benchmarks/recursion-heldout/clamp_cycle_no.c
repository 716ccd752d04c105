/* clamp(n) recurses on n - 1 while n > 10, so it returns min(n, 10) (terminating: n
   decreases to 10). The loop sets y = clamp(y + 3): from y = 5 it goes 8, 10, 10, ... and
   stays at 10 >= 5 forever. y <= 1000 keeps y + 3 from overflowing. Non-terminating.
   witness-input: 5 */
extern int __VERIFIER_nondet_int(void);

int clamp(int n) {
  if (n > 10) return clamp(n - 1);
  return n;
}

int main(void) {
  int y = __VERIFIER_nondet_int();
  if (y > 1000) return 0;
  while (y >= 5) y = clamp(y + 3);
  return 0;
}
