/* find(a, i) looks for a negative entry of the caller's 4-element array, moving i around
   the ring 0, 1, 2, 3, 0, ... ((i + 1) % 4 with i in [0, 3]); a never changes. When every
   entry is >= 0 (main clamps the inputs to [0, 9]) no call returns: each makes another with
   the same array and the next index. All reads are inside a[0..3]. Non-terminating
   (infinite recursion).
   witness-input: 1 2 3 4 */
extern int __VERIFIER_nondet_int(void);

int find(const int *a, int i) {
  if (a[i] < 0) return i;
  return find(a, (i + 1) % 4);
}

int main(void) {
  int a[4];
  for (int k = 0; k < 4; k++) {
    int v = __VERIFIER_nondet_int();
    if (v < 0) v = 0;
    if (v > 9) v = 9;
    a[k] = v;
  }
  return find(a, 0);
}
