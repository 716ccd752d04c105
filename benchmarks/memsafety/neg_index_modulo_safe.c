/* Safe twin of neg_index_modulo_unsafe.c: the previous index is computed as
   (pos + 7) % 8, which for 0 <= pos <= 1000 is in 0..7 (no negative operand,
   no overflow), inside the 8-int stack array. Terminating and memory safe. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int ring[8];
  for (int i = 0; i < 8; i++) ring[i] = i * i;
  int pos = __VERIFIER_nondet_int();
  if (pos < 0 || pos > 1000) return 0;
  int prev = ring[(pos + 7) % 8];
  return prev;
}
