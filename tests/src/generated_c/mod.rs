//! Random small C programs with loops for the differential check (`cargo xtask gen-diff`,
//! `cargo xtask diff-check`, issue 12) and the front end's fuzz target: bounded and unbounded
//! integer loops, nested loops, signed and unsigned arithmetic, an array, a pointer,
//! nondeterministic inputs (`__VERIFIER_nondet_*`, fed by `tests/support/nondet_feed.c` when
//! executed) and calls of a helper. Since session 9 also: wrapping 8-bit arithmetic (an
//! `unsigned char` that loops modulo 256, e.g. `k < 300` never ends), a 64-bit accumulator,
//! loops that walk the array through a pointer, and a callee that takes a pointer and a length
//! and writes through it (in or out of bounds). Nothing is kept from being undefined or
//! non-terminating: the generator makes both kinds, and every answer is checked by execution.
//!
//! Every loop body starts with `TC_STEP();`, a macro that is empty unless the program is built
//! with `-D`[`LOOP_STEPS_DEFINE`] (the differential check's native builds): then it counts the
//! iteration in a global of the runtime stub, which ends the run with the step-bound exit code
//! at `TC_STEP_BOUND` iterations. "Does not end within N loop iterations" is then a fixed,
//! load-independent bound instead of seconds of wall time. termcheck analyses the program
//! without the define, where the macro expands to `((void)0)` and no code.

pub mod choices;

pub use choices::{Choices, FromBytes, Seeded};
use std::fmt::Write as _;

/// The integer variables of `main` (the first three signed, `u` unsigned).
const INTS: [&str; 3] = ["a", "b", "c"];
/// Length of the array `arr`.
const ARR_LEN: i64 = 6;
/// Statements in `main`'s body (at most) and nesting depth of blocks.
const MAX_TOP: u64 = 5;
const MAX_DEPTH: u32 = 2;

/// The preprocessor symbol that turns `TC_STEP()` into a loop-iteration counter.
pub const LOOP_STEPS_DEFINE: &str = "TC_LOOP_STEPS";

/// The program's preamble: the `__VERIFIER_nondet_*` declarations and `TC_STEP()`.
const PREAMBLE: &str = "extern int __VERIFIER_nondet_int(void);\nextern unsigned int __VERIFIER_nondet_uint(void);\n\
#ifdef TC_LOOP_STEPS\n\
extern unsigned long long tc_loop_steps, tc_loop_bound;\n\
extern void tc_loop_bound_reached(void);\n\
#define TC_STEP() do { if (++tc_loop_steps >= tc_loop_bound) tc_loop_bound_reached(); } while (0)\n\
#else\n\
#define TC_STEP() ((void)0)\n\
#endif\n\n";

/// One program: the generator's state while writing it.
struct Gen<'c, C: Choices> {
    c: &'c mut C,
    out: String,
    /// Loop counters in scope (readable, never assigned outside their `for`).
    counters: Vec<String>,
    loops: u32,
    in_loop: bool,
}

/// The C text of the program made from `choices`.
pub fn program<C: Choices>(choices: &mut C) -> String {
    let mut g = Gen { c: choices, out: String::new(), counters: Vec::new(), loops: 0, in_loop: false };
    g.out.push_str(PREAMBLE);
    g.helper();
    g.pointer_helper();
    g.out.push_str("int main(void) {\n");
    for v in INTS {
        let init = if g.c.chance(70) { "__VERIFIER_nondet_int()".to_string() } else { g.c.range(-5, 20).to_string() };
        let _ = writeln!(g.out, "    int {v} = {init};");
    }
    g.out.push_str("    unsigned int u = __VERIFIER_nondet_uint();\n");
    let fill = if g.c.chance(50) { "0" } else { "__VERIFIER_nondet_int()" };
    let _ = writeln!(g.out, "    int arr[{ARR_LEN}];\n    for (int k = 0; k < {ARR_LEN}; k++) {{ TC_STEP(); arr[k] = {fill}; }}");
    g.out.push_str("    int *p = &a;\n");
    let narrow = if g.c.chance(60) { "(unsigned char)__VERIFIER_nondet_uint()".to_string() } else { g.c.range(0, 255).to_string() };
    let _ = writeln!(g.out, "    unsigned char w = {narrow};\n    long long acc = 0;");
    let n = 1 + g.c.below(MAX_TOP);
    for _ in 0..n {
        g.statement(1, 1);
    }
    g.out.push_str("    return a + b + (int)(acc & 1) + (w == 7);\n}\n");
    g.out
}

impl<C: Choices> Gen<'_, C> {
    fn line(&mut self, indent: u32, text: &str) {
        for _ in 0..indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// `int h(int x, int y)`: straight-line arithmetic, or a loop on its parameter.
    fn helper(&mut self) {
        self.out.push_str("static int h(int x, int y) {\n");
        match self.c.below(3) {
            0 => {
                let k = self.c.range(1, 3);
                let _ = writeln!(self.out, "    int r = 0;\n    while (x > 0) {{\n        TC_STEP();\n        x = x - {k};\n        r = r + y;\n    }}\n    return r;");
            }
            1 => self.out.push_str("    if (x < y) return y - x;\n    return x % 7;\n"),
            _ => {
                let k = self.c.range(1, 4);
                let _ = writeln!(self.out, "    for (int i = 0; i < {k}; i++) {{\n        TC_STEP();\n        y = y + x;\n    }}\n    return y;");
            }
        }
        self.out.push_str("}\n\n");
    }

    /// `void bump(int *q, int n)`: writes `n` cells from `q` on, by index or by moving `q`
    /// (callers pass lengths past the array's end too: a sanitizer-confirmed `violated`).
    fn pointer_helper(&mut self) {
        self.out.push_str("static void bump(int *q, int n) {\n");
        if self.c.chance(50) {
            let k = self.c.range(1, 2);
            let _ = writeln!(self.out, "    for (int j = 0; j < n; j++) {{\n        TC_STEP();\n        q[j] = q[j] + {k};\n    }}");
        } else {
            let _ = writeln!(self.out, "    while (n > 0) {{\n        TC_STEP();\n        *q = *q + n;\n        q++;\n        n--;\n    }}");
        }
        self.out.push_str("}\n\n");
    }

    fn var(&mut self) -> String {
        if !self.counters.is_empty() && self.c.chance(15) {
            let i = self.c.below(self.counters.len() as u64) as usize;
            return self.counters[i].clone();
        }
        INTS[self.c.below(INTS.len() as u64) as usize].to_string()
    }

    fn index(&mut self) -> String {
        match self.c.below(4) {
            0 if !self.counters.is_empty() => {
                let i = self.c.below(self.counters.len() as u64) as usize;
                self.counters[i].clone()
            }
            1 => {
                let v = self.var();
                format!("({v} % {ARR_LEN})")
            }
            2 => format!("(u % {ARR_LEN}u)"),
            _ => self.c.range(0, ARR_LEN - 1).to_string(),
        }
    }

    fn atom(&mut self, depth: u32) -> String {
        match self.c.below(10) {
            0..=3 => self.var(),
            4 | 5 => self.c.range(-3, 10).to_string(),
            6 => "__VERIFIER_nondet_int()".to_string(),
            7 => {
                let i = self.index();
                format!("arr[{i}]")
            }
            8 => "*p".to_string(),
            _ if depth < 2 => {
                let (x, y) = (self.atom(depth + 1), self.atom(depth + 1));
                format!("h({x}, {y})")
            }
            _ => "(int)(u % 100u)".to_string(),
        }
    }

    fn expr(&mut self) -> String {
        let x = self.atom(0);
        if self.c.chance(35) {
            return x;
        }
        let y = self.atom(0);
        let op = ["+", "-", "*", "/", "%", "&", "|", "^"][self.c.below(8) as usize];
        match op {
            "/" | "%" if self.c.chance(70) => format!("{x} {op} {}", self.c.range(1, 5)),
            _ => format!("{x} {op} {y}"),
        }
    }

    fn cond(&mut self) -> String {
        let simple = |g: &mut Self| match g.c.below(6) {
            0 => {
                let v = g.var();
                format!("{v} > {}", g.c.range(-2, 5))
            }
            1 => {
                let (x, y) = (g.var(), g.var());
                format!("{x} < {y}")
            }
            2 => {
                let v = g.var();
                format!("{v} != {}", g.c.range(-1, 10))
            }
            3 => format!("u > {}u", g.c.range(0, 4)),
            4 => "__VERIFIER_nondet_int()".to_string(),
            _ => {
                let e = g.expr();
                format!("{e} >= 0")
            }
        };
        let first = simple(self);
        if self.c.chance(25) {
            let second = simple(self);
            let op = if self.c.chance(50) { "&&" } else { "||" };
            format!("{first} {op} {second}")
        } else {
            first
        }
    }

    /// A loop-body update that often, not always, moves toward the exit.
    fn update(&mut self, indent: u32) {
        let v = self.var();
        let text = match self.c.below(7) {
            0..=2 => format!("{v} = {v} - {};", self.c.range(1, 3)),
            3 => format!("{v} = {v} / 2;"),
            4 => format!("u = u - {}u;", self.c.range(1, 2)),
            5 => format!("{v} = {v} + {};", self.c.range(-1, 2)),
            _ => {
                let e = self.expr();
                format!("{v} = {e};")
            }
        };
        if !self.counters.contains(&v) || text.starts_with('u') {
            self.line(indent, &text);
        }
    }

    fn block(&mut self, indent: u32, depth: u32) {
        let n = 1 + self.c.below(2);
        for _ in 0..n {
            self.statement(indent, depth + 1);
        }
    }

    fn statement(&mut self, indent: u32, depth: u32) {
        let nested = depth <= MAX_DEPTH;
        match self.c.below(14) {
            0 | 1 => {
                let v = self.var();
                if !self.counters.contains(&v) {
                    let e = self.expr();
                    self.line(indent, &format!("{v} = {e};"));
                }
            }
            2 => {
                let (i, e) = (self.index(), self.expr());
                self.line(indent, &format!("arr[{i}] = {e};"));
            }
            3 => {
                let target = if self.c.chance(50) {
                    format!("&{}", INTS[self.c.below(3) as usize])
                } else {
                    let i = self.index();
                    format!("&arr[{i}]")
                };
                self.line(indent, &format!("p = {target};"));
                let e = self.expr();
                self.line(indent, &format!("*p = {e};"));
            }
            4 if nested => {
                let c = self.cond();
                self.line(indent, &format!("if ({c}) {{"));
                self.block(indent + 1, depth);
                if self.c.chance(40) {
                    self.line(indent, "} else {");
                    self.block(indent + 1, depth);
                }
                self.line(indent, "}");
            }
            5 | 6 if nested && self.loops < 4 => {
                self.loops += 1;
                let i = format!("i{}", self.loops);
                let bound = if self.c.chance(60) { self.c.range(0, 8).to_string() } else { self.var() };
                self.line(indent, &format!("for (int {i} = 0; {i} < {bound}; {i}++) {{"));
                self.line(indent + 1, "TC_STEP();");
                self.counters.push(i);
                let was = std::mem::replace(&mut self.in_loop, true);
                self.block(indent + 1, depth);
                self.in_loop = was;
                self.counters.pop();
                self.line(indent, "}");
            }
            7..=9 if nested && self.loops < 4 => {
                self.loops += 1;
                let c = self.cond();
                self.line(indent, &format!("while ({c}) {{"));
                self.line(indent + 1, "TC_STEP();");
                let was = std::mem::replace(&mut self.in_loop, true);
                if self.c.chance(50) {
                    self.block(indent + 1, depth);
                }
                self.update(indent + 1);
                if self.c.chance(30) {
                    self.update(indent + 1);
                }
                self.in_loop = was;
                self.line(indent, "}");
            }
            11 => {
                let (target, len) = match self.c.below(3) {
                    0 => ("arr".to_string(), self.c.range(0, ARR_LEN + 1).to_string()),
                    1 => {
                        let i = self.index();
                        (format!("&arr[{i}]"), self.c.range(0, 3).to_string())
                    }
                    _ => ("p".to_string(), if self.c.chance(50) { "1".to_string() } else { self.var() }),
                };
                self.line(indent, &format!("bump({target}, {len});"));
            }
            12 if nested && self.loops < 4 => {
                // A walk over the array through a pointer (its end compared as a pointer).
                self.loops += 1;
                let end = if self.c.chance(80) { ARR_LEN } else { self.c.range(1, ARR_LEN) };
                self.line(indent, &format!("for (int *q = arr; q < arr + {end}; q++) {{"));
                self.line(indent + 1, "TC_STEP();");
                let e = self.expr();
                let text = if self.c.chance(50) { format!("*q = {e};") } else { "acc = acc + *q;".to_string() };
                self.line(indent + 1, &text);
                self.line(indent, "}");
            }
            13 if nested && self.loops < 4 => {
                // Wrapping 8-bit arithmetic: ends only if the bound is reachable modulo 256.
                self.loops += 1;
                let was = std::mem::replace(&mut self.in_loop, true);
                if self.c.chance(50) {
                    let bound = if self.c.chance(70) { self.c.range(0, 300).to_string() } else { "w".to_string() };
                    self.line(indent, &format!("for (unsigned char k = 0; k < {bound}; k++) {{"));
                    self.line(indent + 1, "TC_STEP();");
                    self.line(indent + 1, "acc = acc + k;");
                } else {
                    let (target, step) = (self.c.range(0, 255), self.c.range(1, 8));
                    self.line(indent, &format!("while (w != {target}) {{"));
                    self.line(indent + 1, "TC_STEP();");
                    self.line(indent + 1, &format!("w = w + {step};"));
                    self.line(indent + 1, "acc = acc + w;");
                }
                if self.c.chance(30) {
                    self.block(indent + 1, depth);
                }
                self.in_loop = was;
                self.line(indent, "}");
            }
            _ if self.in_loop => self.line(indent, "if (__VERIFIER_nondet_int()) break;"),
            _ => {
                let v = self.var();
                if !self.counters.contains(&v) {
                    let (x, y) = (self.atom(0), self.atom(0));
                    self.line(indent, &format!("{v} = h({x}, {y});"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_always_gives_the_same_program() {
        assert_eq!(program(&mut Seeded::new(42)), program(&mut Seeded::new(42)));
        assert_ne!(program(&mut Seeded::new(1)), program(&mut Seeded::new(2)));
    }

    #[test]
    fn programs_have_loops_inputs_and_a_main() {
        let texts: Vec<String> = (0..50).map(|s| program(&mut Seeded::new(s))).collect();
        assert!(texts.iter().all(|t| t.contains("int main(void)") && t.contains("__VERIFIER_nondet_uint()")));
        assert!(texts.iter().any(|t| t.contains("while (")));
        assert!(texts.iter().any(|t| t.contains("for (int i1")));
        assert!(texts.iter().any(|t| t.contains("h(")));
    }

    #[test]
    fn programs_have_wrapping_bytes_pointer_walks_and_pointer_calls() {
        let texts: Vec<String> = (0..200).map(|s| program(&mut Seeded::new(s))).collect();
        assert!(texts.iter().any(|t| t.contains("for (unsigned char k = 0; k < ")));
        assert!(texts.iter().any(|t| t.contains("while (w != ")));
        assert!(texts.iter().any(|t| t.contains("for (int *q = arr; q < arr + ")));
        assert!(texts.iter().any(|t| t.contains("    bump(arr, ")));
        assert!(texts.iter().any(|t| t.contains("    bump(p, ")));
        assert!(texts.iter().all(|t| t.contains("static void bump(int *q, int n)") && t.contains("long long acc = 0;")));
    }

    #[test]
    fn every_loop_body_starts_by_counting_the_iteration() {
        for seed in 0..50 {
            let text = program(&mut Seeded::new(seed));
            let lines: Vec<&str> = text.lines().collect();
            for (n, line) in lines.iter().enumerate() {
                let head = line.trim_start();
                if (head.starts_with("for (") || head.starts_with("while (")) && head.ends_with('{') {
                    assert_eq!(lines[n + 1].trim(), "TC_STEP();", "seed {seed}, line {}: {text}", n + 1);
                } else if head.starts_with("for (") {
                    assert!(head.contains("{ TC_STEP();"), "seed {seed}: {line}");
                }
            }
        }
    }

    #[test]
    fn every_byte_string_is_a_program() {
        for bytes in [&[][..], &[0xff; 3][..], &[1, 2, 3, 4, 5, 6, 7, 8, 9][..]] {
            assert!(program(&mut FromBytes::new(bytes)).ends_with("}\n"));
        }
    }
}
