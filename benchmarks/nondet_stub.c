/* Test stub for the __VERIFIER_* functions, used only by validate.sh (never by termcheck).
   Values come first from the environment variable NONDET (a list of integers separated by
   spaces or commas, consumed in call order), then from a pseudo-random generator seeded by
   NONDET_SEED that prefers boundary values (0, +-1, INT_MIN, INT_MAX, UINT_MAX, 2^31, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>

static const char *next_listed;
static int list_started;
static unsigned long long rng_state;

static unsigned long long rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static unsigned long long next_value(void) {
  if (!list_started) {
    list_started = 1;
    next_listed = getenv("NONDET");
    const char *seed = getenv("NONDET_SEED");
    rng_state = 0x9E3779B97F4A7C15ull ^ (seed ? strtoull(seed, NULL, 10) * 0xD1B54A32D192ED03ull : 0);
    if (rng_state == 0) rng_state = 1;
  }
  while (next_listed && (*next_listed == ' ' || *next_listed == ',')) next_listed++;
  if (next_listed && *next_listed) {
    char *end;
    unsigned long long v = (*next_listed == '-') ? (unsigned long long)strtoll(next_listed, &end, 0)
                                                  : strtoull(next_listed, &end, 0);
    if (end == next_listed) { fprintf(stderr, "nondet_stub: bad NONDET\n"); exit(2); }
    next_listed = end;
    return v;
  }
  static const unsigned long long boundary[] = {
      0, 1, 2, 3, (unsigned long long)-1, (unsigned long long)-2, 7, 8, 9, 10, 15, 16, 100,
      127, 128, 255, 256, 32767, 32768, 65535, 65536, 0x7fffffffull, 0x80000000ull,
      0x7ffffffeull, 0x80000001ull, 0xffffffffull, 0xfffffffeull, 0x100000000ull,
      (unsigned long long)(long long)INT_MIN, (unsigned long long)(long long)(INT_MIN + 1),
      0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull};
  unsigned long long r = rng();
  switch (r % 4) {
  case 0: case 1: return boundary[(r >> 8) % (sizeof boundary / sizeof boundary[0])];
  case 2: return (unsigned long long)((long long)((r >> 8) % 41) - 10); /* -10..30 */
  default: return rng();
  }
}

int __VERIFIER_nondet_int(void) { return (int)next_value(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)next_value(); }
char __VERIFIER_nondet_char(void) { return (char)next_value(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)next_value(); }
short __VERIFIER_nondet_short(void) { return (short)next_value(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)next_value(); }
long __VERIFIER_nondet_long(void) { return (long)next_value(); }
unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)next_value(); }
long long __VERIFIER_nondet_longlong(void) { return (long long)next_value(); }
unsigned long long __VERIFIER_nondet_ulonglong(void) { return next_value(); }
_Bool __VERIFIER_nondet_bool(void) { return (_Bool)(next_value() & 1); }
void __VERIFIER_assume(int cond) { if (!cond) exit(0); }
