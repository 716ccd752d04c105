/* x += 2 on a signed int until x is 0. Negative even x reach 0; x = 0 ends
   at once. Every positive x and every odd x eventually computes
   INT_MAX - 1 + 2 or INT_MAX + 2: signed overflow, undefined behaviour
   (C11 6.5p5). So no run is infinite without undefined behaviour (an odd x
   only loops forever if the addition wraps, which C does not promise), and
   some runs have undefined behaviour: neither YES nor NO is right; the
   answer is UB (memory-safety violated / MAYBE).
   Input reaching the overflow: x = 1 (after 2^30 - 1 additions).
   witness-input: 1 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x != 0) x += 2;
  return 0;
}
