/* A signed counter i = 0, 1, ... while i < n. Inside the loop i < n <=
   INT_MAX, so i + 1 <= INT_MAX: i++ never overflows; n - i decreases by 1 per
   iteration. The sum is unsigned (wraps, defined).
   Terminates for every input, without signed overflow. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned int s = 0;
  for (int i = 0; i < n; i++) s += (unsigned int)i;
  return (int)(s & 1);
}
