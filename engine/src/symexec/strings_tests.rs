//! Tests of the string and buffer invariants (`symexec::buffer_relations`, issue 11 part 3):
//! each candidate shape with a program that needs it, and the same program with the buffer
//! one byte too small, which must stay unproved (the error state is kept, never dropped).

use super::tests::prove;
use super::MemorySafety;
use crate::verdict::{IntSemantics, Termination};

fn analyse(src: &str, sem: IntSemantics) -> super::tests::Proved {
    let m = crate::frontend::load_source(src, crate::driver::InputKind::C).expect("compiles");
    prove(&m, sem, 60)
}

fn assert_yes(src: &str, sem: IntSemantics) {
    let a = analyse(src, sem);
    assert_eq!(a.memory_safety, MemorySafety::Proved, "{src}");
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}\n{src}", a.termination);
}

fn assert_unproved_write(src: &str, sem: IntSemantics) {
    let a = analyse(src, sem);
    let MemorySafety::Unknown { reason } = &a.memory_safety else { panic!("the write past the end must not be proved safe: {:?}\n{src}", a.memory_safety) };
    assert!(reason.contains("store"), "the write is the problem: {reason}");
}

/// strcpy through two walking pointers; `CMP` relates the destination's size `m` to the
/// source's `n` (room: `d − s ≤ end_d − end_s`).
const COPY: &str = r#"
extern int __VERIFIER_nondet_int(void);
static void copy(char *d, const char *s) { while ((*d++ = *s++) != 0) ; }
int main(void) {
  int n = __VERIFIER_nondet_int(), m = __VERIFIER_nondet_int();
  if (n < 1 || m < 1 || CMP) return 0;
  char *src = __builtin_alloca(n), *dst = __builtin_alloca(m);
  src[n - 1] = 0;
  copy(dst, src);
  return 0;
}
"#;

#[test]
fn copy_into_a_block_at_least_as_large_is_safe() {
    assert_yes(&COPY.replace("CMP", "m < n"), IntSemantics::Math);
    assert_yes(&COPY.replace("CMP", "m < n"), IntSemantics::C);
}

#[test]
fn copy_into_a_block_one_byte_short_is_not_proved() {
    assert_unproved_write(&COPY.replace("CMP", "m < n - 1"), IntSemantics::Math);
}

/// memset as a do-while over a count (`d + k ≤ end + 1`); `EXTRA` bytes beyond the block.
const FILL: &str = r#"
extern int __VERIFIER_nondet_int(void);
static void fill(unsigned char *d, unsigned long k) { do *d++ = 7; while (--k != 0); }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  unsigned char *b = __builtin_alloca(n);
  fill(b, (unsigned long)n + EXTRA);
  return 0;
}
"#;

#[test]
fn counted_fill_of_the_whole_block_is_safe() {
    assert_yes(&FILL.replace("EXTRA", "0"), IntSemantics::Math);
}

#[test]
fn counted_fill_one_past_the_block_is_not_proved() {
    assert_unproved_write(&FILL.replace("EXTRA", "1"), IntSemantics::Math);
}

/// strcat: the destination's string ends at `k − 1`, before its block's end (`d ≤ c` for the
/// terminator cell `c`), then the source is copied behind it (room).
const APPEND: &str = r#"
extern int __VERIFIER_nondet_int(void);
static void append(char *d, const char *s) {
  while (*d != 0) d++;
  while ((*d++ = *s++) != 0) ;
}
int main(void) {
  int n = __VERIFIER_nondet_int(), k = __VERIFIER_nondet_int(), size = __VERIFIER_nondet_int();
  if (n < 1 || k < 1 || k > size || size < k - 1 + n + SHORT) return 0;
  char *src = __builtin_alloca(n), *dst = __builtin_alloca(size);
  src[n - 1] = 0;
  dst[k - 1] = 0;
  append(dst, src);
  return 0;
}
"#;

#[test]
fn append_behind_a_terminator_before_the_end_is_safe() {
    assert_yes(&APPEND.replace("SHORT", "0"), IntSemantics::Math);
}

#[test]
fn append_into_a_block_one_byte_short_is_not_proved() {
    assert_unproved_write(&APPEND.replace("SHORT", "-1"), IntSemantics::Math);
}

/// Writing over the bytes of a string keeps its terminator: a written cell holds a nonzero
/// byte (the loop's condition), so it is not the terminator (`invalidate` sees the cells as
/// they are before the write).
#[test]
fn overwriting_nonzero_bytes_keeps_the_terminator() {
    let src = r#"
extern int __VERIFIER_nondet_int(void);
static void overwrite(char *s, char to) { for (char *p = s; *p != 0; p++) *p = to; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  char *s = __builtin_alloca(n);
  s[n - 1] = 0;
  overwrite(s, (char)__VERIFIER_nondet_int());
  return 0;
}
"#;
    assert_yes(src, IntSemantics::Math);
}
