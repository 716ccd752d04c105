/* Takeuchi's function with arguments in [0, 10]. It terminates for all integer arguments
   (Knuth, "Textbook examples of recursion", 1991; first proved mechanically by Moore, 1979).
   Every value it returns is one of its arguments' values or one less, and arguments only
   decrease by 1 from values in [0, 10], so all values stay far from overflow. Terminating. */
extern int __VERIFIER_nondet_int(void);

int tak(int x, int y, int z) {
  if (x <= y) return y;
  return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int z = __VERIFIER_nondet_int();
  if (x < 0 || y < 0 || z < 0 || x > 10 || y > 10 || z > 10) return 0;
  return tak(x, y, z);
}
