//! A binary over the checksum library.

/// How often 1 doubles before it reaches `limit` (at most 30 times: no overflow).
fn doublings_below(limit: u32) -> u32 {
    let mut x = 1u32;
    let mut steps = 0u32;
    while x < limit && steps < 30 {
        x = x.wrapping_mul(2);
        steps = steps.wrapping_add(1);
    }
    steps
}

fn main() {
    let n = std::env::args().count() as u32;
    println!("{} {} {}", doublings_below(10 + n), checksum::checksum_below(n), checksum::gcd(n, 12));
}
