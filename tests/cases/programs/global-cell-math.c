/* Under `--int-semantics math`: a global counter doubles while it is positive, and a
 * second global records the parity of the steps; both live in memory, read and written in
 * the loop at fixed addresses. */
extern int __VERIFIER_nondet_int(void);

int x;
int odd;

int main(void) {
  x = __VERIFIER_nondet_int();
  while (x > 0) {
    x = 2 * x;
    odd = 1 - odd;
  }
  return odd;
}
