/* Runtime stub for executing termcheck's answers natively (tests/src/real_exec/).
   Linked into a C program under test; never seen by termcheck.

   Every __VERIFIER_nondet_T() returns the next value of the feed, converted to T as C
   converts an integer (modulo 2^width; clang wraps on conversion to a narrower signed type):
     TC_FEED_STEM   values consumed first, in call order
     TC_FEED_CYCLE  values repeated forever after the stem (may be empty)
     TC_FEED_AFTER  what follows stem (and an empty cycle): "stop" (default: the run ends with
                    exit code 73 and a message: the feed promised no further reads), or a fill:
                    "zero", "one", "min", "max" (of the type read), "random:SEED"
   A value is a decimal integer (any sign, up to 128 bits), optionally prefixed by the
   expected type: "uint=4294967295". A read of another type than announced ends the run
   with exit code 74.
   TC_STEP_BOUND  when the program is compiled with -fsanitize-coverage=trace-pc-guard, the
                  number of executed control-flow edges after which the run stops with exit
                  code 77 ("step bound reached"); absent or 0: no bound. For a program built
                  with -DTC_LOOP_STEPS (tests/src/generated_c: every loop body starts with
                  TC_STEP()), the number of loop iterations after which the run stops the same
                  way: a bound independent of the machine's load and of the optimisation level.
   Every stop prints one line starting with "nondet_feed:" on stderr. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_INPUTS_EXHAUSTED = 73, EXIT_TYPE_MISMATCH = 74, EXIT_BAD_FEED = 75, EXIT_STEP_BOUND = 77 };

typedef struct {
  const char *type; /* NULL: any type */
  unsigned long long bits;
} feed_value;

typedef struct {
  feed_value *values;
  size_t len;
} feed_list;

static int initialised;
static feed_list stem, cycle;
static size_t reads;
static const char *after = "stop";
static unsigned long long rng_state = 1;
static unsigned long long step_bound, steps;

static void stop(int code, const char *what) {
  fprintf(stderr, "nondet_feed: %s (after %zu reads, %llu steps)\n", what, reads, steps);
  fflush(stderr);
  _exit(code);
}

/* Parses "[-]digits" modulo 2^64 (two's complement for negative values). */
static unsigned long long parse_integer(const char *text, const char **end) {
  int negative = 0;
  if (*text == '-' || *text == '+') negative = (*text++ == '-');
  if (*text < '0' || *text > '9') stop(EXIT_BAD_FEED, "bad value in the feed");
  unsigned long long v = 0;
  while (*text >= '0' && *text <= '9') v = v * 10 + (unsigned long long)(*text++ - '0');
  *end = text;
  return negative ? 0ull - v : v;
}

static feed_list parse_list(const char *text) {
  feed_list list = {0, 0};
  if (!text) return list;
  size_t cap = 0;
  while (*text) {
    while (*text == ' ' || *text == ',' || *text == '\n' || *text == '\t') text++;
    if (!*text) break;
    feed_value value = {0, 0};
    const char *eq = text;
    while (*eq && *eq != '=' && *eq != ' ' && *eq != ',') eq++;
    if (*eq == '=') {
      size_t n = (size_t)(eq - text);
      char *type = malloc(n + 1);
      memcpy(type, text, n);
      type[n] = 0;
      value.type = type;
      text = eq + 1;
    }
    value.bits = parse_integer(text, &text);
    if (list.len == cap) {
      cap = cap ? 2 * cap : 8;
      list.values = realloc(list.values, cap * sizeof *list.values);
    }
    list.values[list.len++] = value;
  }
  return list;
}

/* The list in environment variable `name`, or (long lists, beyond the kernel's limit for one
   variable) in the file named by `name`_FILE. */
static const char *list_text(const char *name) {
  char key[64];
  snprintf(key, sizeof key, "%s_FILE", name);
  const char *path = getenv(key);
  if (!path || !*path) return getenv(name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len - 1 == 0) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf) buf[len] = 0;
  return buf;
}

static void initialise(void) {
  if (initialised) return;
  initialised = 1;
  stem = parse_list(list_text("TC_FEED_STEM"));
  cycle = parse_list(list_text("TC_FEED_CYCLE"));
  const char *a = getenv("TC_FEED_AFTER");
  if (a && *a) after = a;
  if (strncmp(after, "random:", 7) == 0) {
    rng_state = 0x9E3779B97F4A7C15ull ^ (strtoull(after + 7, NULL, 10) * 0xD1B54A32D192ED03ull);
    if (rng_state == 0) rng_state = 1;
  }
  const char *b = getenv("TC_STEP_BOUND");
  step_bound = b ? strtoull(b, NULL, 10) : 0;
}

static unsigned long long rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* min and max of the type read, as 64-bit patterns (converted to the type by the caller) */
static unsigned long long fill(unsigned long long min, unsigned long long max) {
  if (strcmp(after, "zero") == 0) return 0;
  if (strcmp(after, "one") == 0) return 1;
  if (strcmp(after, "min") == 0) return min;
  if (strcmp(after, "max") == 0) return max;
  if (strncmp(after, "random:", 7) == 0) {
    unsigned long long r = rng();
    switch (r % 6) {
    case 0: return min;
    case 1: return max;
    case 2: return (r >> 8) % 3;                        /* 0, 1, 2 */
    case 3: return max - (r >> 8) % 3;                  /* max, max-1, max-2 */
    case 4: return (unsigned long long)((long long)((r >> 8) % 41) - 10); /* -10..30 */
    default: return rng();
    }
  }
  stop(EXIT_INPUTS_EXHAUSTED, "inputs exhausted: the witness allows no further reads");
  return 0;
}

static unsigned long long next_value(const char *type, unsigned long long min, unsigned long long max) {
  initialise();
  const feed_value *v = 0;
  if (reads < stem.len) v = &stem.values[reads];
  else if (cycle.len) v = &cycle.values[(reads - stem.len) % cycle.len];
  reads++;
  if (!v) return fill(min, max);
  if (v->type && strcmp(v->type, type) != 0) {
    fprintf(stderr, "nondet_feed: read %zu is __VERIFIER_nondet_%s, the feed announced %s\n", reads, type, v->type);
    stop(EXIT_TYPE_MISMATCH, "input type mismatch");
  }
  return v->bits;
}

int __VERIFIER_nondet_int(void) { return (int)next_value("int", (unsigned long long)(long long)INT32_MIN, INT32_MAX); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)next_value("uint", 0, UINT32_MAX); }
unsigned __VERIFIER_nondet_unsigned(void) { return (unsigned)next_value("unsigned", 0, UINT32_MAX); }
char __VERIFIER_nondet_char(void) { return (char)next_value("char", (unsigned long long)(long long)INT8_MIN, INT8_MAX); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)next_value("uchar", 0, UINT8_MAX); }
short __VERIFIER_nondet_short(void) { return (short)next_value("short", (unsigned long long)(long long)INT16_MIN, INT16_MAX); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)next_value("ushort", 0, UINT16_MAX); }
long __VERIFIER_nondet_long(void) { return (long)next_value("long", (unsigned long long)INT64_MIN, INT64_MAX); }
unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)next_value("ulong", 0, UINT64_MAX); }
long long __VERIFIER_nondet_longlong(void) { return (long long)next_value("longlong", (unsigned long long)INT64_MIN, INT64_MAX); }
unsigned long long __VERIFIER_nondet_ulonglong(void) { return next_value("ulonglong", 0, UINT64_MAX); }
_Bool __VERIFIER_nondet_bool(void) { return (_Bool)(next_value("bool", 0, 1) & 1); }
void __VERIFIER_assume(int cond) {
  if (!cond) stop(0, "assumption false: the run ends");
}

/* Loop counting: TC_STEP() in a program built with -DTC_LOOP_STEPS increments tc_loop_steps
   and calls tc_loop_bound_reached() when it reaches tc_loop_bound (TC_STEP_BOUND, read before
   main; unset or 0: no bound). Globals rather than a call per iteration, so that -O2 keeps
   its speed. */
unsigned long long tc_loop_steps, tc_loop_bound = ~0ull;

__attribute__((constructor)) static void read_loop_bound(void) {
  const char *b = getenv("TC_STEP_BOUND");
  unsigned long long bound = b ? strtoull(b, NULL, 10) : 0;
  if (bound) tc_loop_bound = bound;
}

void tc_loop_bound_reached(void) {
  steps = tc_loop_steps;
  stop(EXIT_STEP_BOUND, "step bound reached");
}

/* Step counting through clang's -fsanitize-coverage=trace-pc-guard callbacks: every guard
   is set to 1 so that every executed edge calls back (guards are never reset to 0). */
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop_guard) {
  for (uint32_t *g = start; g < stop_guard; g++) *g = 1;
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
  (void)guard;
  if (!initialised) initialise();
  if (++steps == step_bound) {
    stop(EXIT_STEP_BOUND, "step bound reached");
  }
}
