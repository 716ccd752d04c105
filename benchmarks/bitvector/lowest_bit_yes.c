/* Twin of lowest_bit_no.c with the guard x != 0: then x has a set bit at some
   position k <= 31, and m = 2^0, 2^1, ... reaches 2^k after k <= 31 shifts,
   before m could become 0; the loop stops there. Unsigned arithmetic only.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  if (x == 0) return 0;
  unsigned int m = 1;
  while ((x & m) == 0) m <<= 1;
  return (int)(m & 1);
}
