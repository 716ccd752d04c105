/* Ackermann's function for 0 <= m <= 3, 0 <= n <= 5: every call decreases (m, n)
   lexicographically (ack(m-1, ...) decreases m; ack(m, n-1) keeps m and decreases n), so
   the recursion terminates. Values stay below ack(3, 5) = 253: no overflow.
   Terminating, no undefined behaviour. */
extern int __VERIFIER_nondet_int(void);

int ack(int m, int n) {
  if (m <= 0) return n + 1;
  if (n <= 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

int main(void) {
  int m = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  if (m < 0 || m > 3 || n < 0 || n > 5) return 0;
  return ack(m, n) > 253;
}
