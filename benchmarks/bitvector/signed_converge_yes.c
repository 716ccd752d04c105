/* Moves x down and y up until they meet or cross. Inside the loop
   INT_MIN <= y < x <= INT_MAX, so x - 1 >= INT_MIN and y + 1 <= INT_MAX: no
   signed overflow. The mathematical difference x - y decreases by 2 per
   iteration and is positive while the loop runs (at most 2^31 iterations).
   Terminates for every input, without signed overflow. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x > y) {
    x--;
    y++;
  }
  return x == y;
}
