//! Loops whose analysis outlasts a 1 s budget (tests/slow/README.md).

pub fn chase(mut x: i64, mut y: i64, mut z: i64) -> i64 {
    while x > 0 && y > 0 {
        let m = if x > y { y } else { x };
        if z % 2 == 0 {
            y = y.wrapping_add(x);
            x = m.wrapping_sub(1);
            z = y.wrapping_add(z);
        } else {
            x = y.wrapping_add(x);
            y = m.wrapping_sub(1);
            z = x.wrapping_add(z);
        }
    }
    z
}

pub fn collatz(mut n: u64) -> u64 {
    let mut steps = 0u64;
    while n > 1 {
        n = if n % 2 == 0 { n / 2 } else { n.wrapping_mul(3).wrapping_add(1) };
        steps = steps.wrapping_add(1);
    }
    steps
}

pub fn nested(a: u32, b: u32, c: u32) -> u32 {
    let mut s = 0u32;
    let mut i = 0u32;
    while i < a {
        let mut j = i;
        while j < b {
            let mut k = j;
            while k < c {
                s = s.wrapping_add(i ^ j ^ k);
                k = k.wrapping_add(1 + (s & 3));
            }
            j = j.wrapping_add(1 + (k & 1));
        }
        i = i.wrapping_add(1);
    }
    s
}
