/* McCarthy's 91 function with nested recursion. For n > 100 it returns n - 10 at once; for
   n <= 100 it is known to return 91 after finitely many calls (induction on 101 - n, with the
   inner call's result between n + 1 and 91 for n <= 100, see Manna & McCarthy). n + 11 is
   computed only for n <= 100 (no overflow); n - 10 only for n > 100 (no overflow). Inputs
   restricted to [-1000, 1000] to keep the native run short. Terminating. */
extern int __VERIFIER_nondet_int(void);

int m91(int n) {
  if (n > 100) return n - 10;
  return m91(m91(n + 11));
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < -1000 || n > 1000) return 0;
  return m91(n) == 91;
}
