//! Tests of the upper bounds of `|` and `^` on non-negative operands
//! (`ints::or_xor_upper_bounds`) and of the merge keeping a bound only the later state states
//! (`generalize::bounds_of_b`, kept at the widening's thresholds): a checksum `s ^= v` over
//! values below 300 stays below 512, so `s + 1` cannot overflow; `s + 2147483137` can.

use super::{analyze, GraphOutcome};
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::verdict::IntSemantics;
use std::time::{Duration, Instant};

fn checksum(tail: &str) -> String {
    format!(
        r#"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {{
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 300) return 0;
  int *p = malloc(sizeof(int));
  if (!p) return 0;
  *p = 0;
  for (int i = 0; i < n; i++) {{
    int v = __VERIFIER_nondet_int();
    if (v < 0 || v > 299) v = 0;
    *p ^= v;
  }}
  int s = *p;
  free(p);
  return s + {tail};
}}
"#
    )
}

fn outcome(src: &str) -> GraphOutcome {
    let m = crate::frontend::load_source(src, crate::driver::InputKind::C).expect("compiles");
    let config = Config::new(IntSemantics::C, Duration::from_secs(60));
    let deadline = Instant::now() + Duration::from_secs(60);
    analyze(&m, &ModuleFacts::new(&m), m.function_by_name("main").unwrap(), &config, deadline).graph
}

#[test]
fn a_xor_checksum_of_small_values_keeps_its_power_of_two_bound_through_the_loop() {
    let g = outcome(&checksum("1"));
    assert!(matches!(g, GraphOutcome::Its(_)), "{g:?}");
}

#[test]
fn the_bound_is_no_tighter_than_the_bits_allow() {
    // 511 + 2147483137 overflows: the error state must stay reachable
    let g = outcome(&checksum("2147483137"));
    assert!(matches!(&g, GraphOutcome::Unknown(r) if r.contains("overflow")), "{g:?}");
}
