/* Adds 3 until x is a multiple of 3. Without wrapping, x % 3 would never
   change and the loop would not end for x % 3 != 0 (mathematical integers
   say NO). Modulo 2^32 it ends: 2^32 % 3 == 1, so each wrap lowers x % 3 by
   one. UINT_MAX = 4294967295 is a multiple of 3. From x % 3 == 1, x climbs to
   4294967293 and + 3 wraps to 0: done. From x % 3 == 2, x climbs to 4294967294
   and + 3 wraps to 1, continuing as before. So at most two wraps, fewer than
   2^32 iterations. Unsigned arithmetic only. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x % 3 != 0) x += 3;
  return (int)(x & 1);
}
