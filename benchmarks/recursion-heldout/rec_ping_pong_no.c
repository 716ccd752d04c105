/* ping(x) returns at x == 0 and otherwise calls pong(x), which calls ping(x) back with the
   same value: for x != 0 the two functions call each other forever and no call returns.
   Nothing is computed, so nothing overflows. Non-terminating for every x != 0 (infinite
   mutual recursion).
   witness-input: 1 */
extern int __VERIFIER_nondet_int(void);

int pong(int x);

int ping(int x) {
  if (x == 0) return 0;
  return pong(x);
}

int pong(int x) {
  return ping(x);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  return ping(x);
}
