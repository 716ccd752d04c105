//! `cargo xtask gen-modular --functions N --out FILE.c [--seed S] [--edit-leaf]`: a generated
//! C module for the modular analysis and report cache benchmark (BENCHMARKS.md): countdown
//! leaves, call chains, diamonds, small mutually recursive `even/odd` groups over a decreasing
//! unsigned argument, callers of those groups that index a local array with the group's
//! result (0 or 1: proved in bounds only through the group's stored summary, so these calls
//! import a recursive callee's summary), loops over arrays passed by pointer (and callers
//! passing local arrays), and a `main`. Deterministic for a seed. `--edit-leaf` changes one
//! constant in the leaf `f0` (same line and columns), so a re-run must re-analyse exactly `f0`
//! and its callers; one of them, `f5`, also calls the untouched even/odd group `f3`/`f4`, so
//! it imports that group's summary from the summary cache on disk.

use std::fmt::Write as _;

/// Deterministic pseudo-random numbers (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Longest call chain below any function (keeps each root's inlined body small).
const MAX_DEPTH: usize = 3;

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// `unsigned f(unsigned)`, not recursive: callable from chains and diamonds.
    Scalar,
    /// `unsigned f(const unsigned *, unsigned)`.
    Array,
    /// A member of a mutually recursive group.
    Recursive,
}

pub fn generate(functions: usize, seed: u64, edit_leaf: bool) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut shapes: Vec<Shape> = Vec::new();
    let mut depth: Vec<usize> = Vec::new();
    let mut bodies: Vec<String> = Vec::new();
    let mut kinds = [0usize; 7];
    // The even members of the even/odd groups so far.
    let mut evens: Vec<usize> = Vec::new();
    let pick_scalar = |rng: &mut Rng, shapes: &[Shape], depth: &[usize], below: usize| -> Option<usize> {
        for _ in 0..64 {
            let window = below.min(40) as u64;
            let j = below - 1 - rng.below(window) as usize;
            if shapes[j] == Shape::Scalar && depth[j] < MAX_DEPTH {
                return Some(j);
            }
        }
        None
    };
    while bodies.len() < functions.saturating_sub(1) {
        let i = bodies.len();
        let c = 1 + rng.below(9);
        // f1 and f2 form a chain above the leaf f0 (the leaf `--edit-leaf` changes), f3/f4 an
        // even/odd group and f5 a caller of both f2 and that group.
        let roll = match i {
            0 => 0,
            1 | 2 => 30,
            3 => 70,
            5 => 95,
            _ => rng.below(100),
        };
        let callee = match i {
            0 => None,
            1 | 2 => Some(i - 1),
            _ => pick_scalar(&mut rng, &shapes, &depth, i),
        };
        let array = (0..i).rev().take(60).find(|j| shapes[*j] == Shape::Array);
        let even = evens.iter().rev().take(4).nth(rng.below(4) as usize % evens.len().clamp(1, 4)).copied();
        match (roll, callee, array) {
            (0..=29, _, _) | (_, None, _) => {
                // Countdown leaf.
                let d = 1 + rng.below(3);
                let first = match (edit_leaf && i == 0, c) {
                    (false, _) => c,
                    (true, 9) => 8,
                    (true, _) => c + 1,
                };
                bodies.push(format!(
                    "unsigned f{i}(unsigned x) {{ unsigned s = {first}u; while (x > {d}u) {{ s += x; x -= {d}u; }} return s; }}"
                ));
                shapes.push(Shape::Scalar);
                depth.push(0);
                kinds[0] += 1;
            }
            (30..=54, Some(a), _) => {
                // Chain link.
                bodies.push(format!("unsigned f{i}(unsigned x) {{ return f{a}(x / 2u + {c}u) + {c}u; }}"));
                shapes.push(Shape::Scalar);
                depth.push(depth[a] + 1);
                kinds[1] += 1;
            }
            (55..=69, Some(bottom), _) if depth[bottom] + 2 <= MAX_DEPTH && i + 3 < functions - 1 => {
                // Diamond: left and right both call `bottom`, top calls both.
                let (l, r, t) = (i, i + 1, i + 2);
                bodies.push(format!("unsigned f{l}(unsigned x) {{ return f{bottom}(x & 255u) * {c}u; }}"));
                bodies.push(format!("unsigned f{r}(unsigned x) {{ return f{bottom}(x % 100u) ^ {c}u; }}"));
                bodies.push(format!("unsigned f{t}(unsigned x) {{ return f{l}(x) + f{r}(x + {c}u); }}"));
                shapes.extend([Shape::Scalar; 3]);
                depth.extend([depth[bottom] + 1, depth[bottom] + 1, depth[bottom] + 2]);
                kinds[2] += 1;
            }
            (70..=79, _, _) if i + 2 < functions - 1 => {
                // even/odd: mutual recursion on a decreasing unsigned argument, memory-free.
                let (e, o) = (i, i + 1);
                bodies.push(format!("unsigned f{e}(unsigned n) {{ if (n == 0u) return 1u; return f{o}(n - 1u); }}"));
                bodies.push(format!("unsigned f{o}(unsigned n) {{ if (n == 0u) return 0u; return f{e}(n - 1u); }}"));
                shapes.extend([Shape::Recursive; 2]);
                depth.extend([0, 0]);
                evens.push(e);
                kinds[3] += 1;
            }
            (95..=99, _, _) if even.is_some() => {
                // A caller of an even/odd group: the group's result (0 or 1) indexes a local
                // array of two, which only the group's summary proves in bounds (an arbitrary
                // result is not), so the call imports the recursive group's stored summary.
                // `f5` also calls `f2` (above the edited leaf).
                let e = even.unwrap_or(0);
                let other = if i == 5 { "f2(x)".to_string() } else { format!("x + {c}u") };
                bodies.push(format!("unsigned f{i}(unsigned x) {{ unsigned a[2]; a[0] = x; a[1] = {other}; return a[f{e}(x % 64u)]; }}"));
                shapes.push(Shape::Scalar);
                depth.push(if i == 5 { depth[2] + 1 } else { 1 });
                kinds[6] += 1;
            }
            (80..=89, _, _) => {
                // A loop over an array passed by pointer.
                bodies.push(format!(
                    "unsigned f{i}(const unsigned *a, unsigned n) {{ unsigned s = 0u; for (unsigned j = 0u; j < n; j++) s += a[j] * {c}u; return s; }}"
                ));
                shapes.push(Shape::Array);
                depth.push(0);
                kinds[4] += 1;
            }
            (_, _, Some(arr)) => {
                // A caller passing a local array to an array loop.
                let m = 4 + rng.below(5);
                bodies.push(format!(
                    "unsigned f{i}(unsigned x) {{ unsigned a[{m}]; for (unsigned j = 0u; j < {m}u; j++) a[j] = x + j; return f{arr}(a, {m}u); }}"
                ));
                shapes.push(Shape::Scalar);
                depth.push(1);
                kinds[5] += 1;
            }
            (_, Some(a), None) => {
                bodies.push(format!("unsigned f{i}(unsigned x) {{ return f{a}(x + {c}u); }}"));
                shapes.push(Shape::Scalar);
                depth.push(depth[a] + 1);
                kinds[1] += 1;
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* Generated by `cargo xtask gen-modular --functions {functions} --seed {seed}{}`: {} functions\n   (leaves {}, chain links {}, diamonds {}, even/odd groups {}, array loops {}, array callers {}, even/odd callers {}, main). */",
        if edit_leaf { " --edit-leaf" } else { "" },
        bodies.len() + 1,
        kinds[0],
        kinds[1],
        kinds[2],
        kinds[3],
        kinds[4],
        kinds[5],
        kinds[6]
    );
    for (i, shape) in shapes.iter().enumerate() {
        let params = if *shape == Shape::Array { "const unsigned *a, unsigned n" } else { "unsigned x" };
        let _ = writeln!(out, "unsigned f{i}({params});");
    }
    for body in &bodies {
        let _ = writeln!(out, "{body}");
    }
    // main calls the last few scalar functions (non-recursive) and one even/odd group.
    let mut calls: Vec<String> = (0..shapes.len()).rev().filter(|j| shapes[*j] == Shape::Scalar).take(4).map(|j| format!("f{j}({}u)", 3 + j % 5)).collect();
    if let Some(e) = shapes.iter().position(|s| *s == Shape::Recursive) {
        calls.push(format!("f{e}(10u)"));
    }
    let sum = if calls.is_empty() { "0u".to_string() } else { calls.join(" + ") };
    let _ = writeln!(out, "int main(void) {{ unsigned s = {sum}; return (int)(s & 1u); }}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_by_seed_and_sized() {
        let a = generate(300, 7, false);
        assert_eq!(a, generate(300, 7, false));
        assert_ne!(a, generate(300, 8, false));
        let defined = a.lines().filter(|l| l.ends_with('}')).count();
        assert_eq!(defined, 300);
        for needle in ["while (x >", "x / 2u +", "const unsigned *a", "unsigned a[", "return 1u; return f", "unsigned a[2]; a[0] = x; a[1] = x +", "int main(void)"] {
            assert!(a.contains(needle), "{needle}");
        }
    }

    #[test]
    fn edit_leaf_changes_only_f0_in_place() {
        let a = generate(200, 1, false);
        let b = generate(200, 1, true);
        let diff: Vec<(&str, &str)> = a.lines().zip(b.lines()).filter(|(x, y)| x != y).collect();
        assert_eq!(diff.len(), 2, "the header comment and f0: {diff:?}");
        assert!(diff[1].0.starts_with("unsigned f0(unsigned x) {"), "{diff:?}");
        assert_eq!(diff[1].0.len(), diff[1].1.len());
    }

    #[test]
    fn f5_calls_the_edited_chain_and_an_even_odd_group() {
        let a = generate(50, 3, false);
        assert!(a.contains("unsigned f3(unsigned n) { if (n == 0u) return 1u; return f4(n - 1u); }"), "{a}");
        assert!(a.contains("unsigned f5(unsigned x) { unsigned a[2]; a[0] = x; a[1] = f2(x); return a[f3(x % 64u)]; }"), "{a}");
    }
}
