/* walk(k, n) returns when k reaches n; k only takes the values 0, 1, 2 in turn
   ((k + 1) % 3 with k in [0, 2]), n never changes. From walk(0, n) with n outside
   {0, 1, 2} (e.g. 5) k cycles forever and every call makes another: no call returns.
   k + 1 <= 3, so nothing overflows. Non-terminating (infinite recursion).
   witness-input: 5 */
extern int __VERIFIER_nondet_int(void);

int walk(int k, int n) {
  if (k == n) return k;
  return walk((k + 1) % 3, n);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  return walk(0, n);
}
