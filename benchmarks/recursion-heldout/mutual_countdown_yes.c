/* Mutual recursion: ping(n) calls pong(n - 1), pong(n) calls ping(n - 2), each only while its
   argument is positive, so the argument strictly decreases along every call chain and stays
   >= -2 (no overflow). Terminating for every int n. */
extern int __VERIFIER_nondet_int(void);

int pong(int n);

int ping(int n) {
  if (n <= 0) return 0;
  return 1 + pong(n - 1);
}

int pong(int n) {
  if (n <= 0) return 1;
  return ping(n - 2);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 10000) n = 10000;
  return ping(n) > 5;
}
