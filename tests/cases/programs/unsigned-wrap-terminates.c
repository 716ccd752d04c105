/* Counts up to UINT_MAX and stops: terminating, after 2^32 - 1 iterations (YES by
   the bit-vector prover's ranking function ~j). No NO allowed. */
int main(void) {
  unsigned int j = 0;
  while (j != 0xffffffffu) j++;
  return 0;
}
