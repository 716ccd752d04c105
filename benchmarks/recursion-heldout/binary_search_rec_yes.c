/* Recursive binary search over the caller's sorted 16-element stack array. Each call with
   lo <= hi reads a[mid] with lo <= mid <= hi inside [0, 15] and recurses on [lo, mid - 1] or
   [mid + 1, hi], so hi - lo strictly decreases until lo > hi. Terminating and memory safe;
   lo + (hi - lo) / 2 cannot overflow. */
extern int __VERIFIER_nondet_int(void);

int find(int *a, int lo, int hi, int key) {
  if (lo > hi) return -1;
  int mid = lo + (hi - lo) / 2;
  if (a[mid] == key) return mid;
  if (a[mid] < key) return find(a, mid + 1, hi, key);
  return find(a, lo, mid - 1, key);
}

int main(void) {
  int a[16];
  for (int i = 0; i < 16; i++) a[i] = 3 * i;
  int key = __VERIFIER_nondet_int();
  return find(a, 0, 15, key) >= 0;
}
