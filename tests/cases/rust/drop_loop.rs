// A type whose drop runs a loop; dropped at the end of the function and, if the loop in
// between panics, during unwinding (cleanup code through invoke/landingpad/resume).
pub struct Counter {
    pub left: u32,
}

impl Drop for Counter {
    fn drop(&mut self) {
        while self.left > 0 {
            self.left -= 1;
        }
    }
}

#[no_mangle]
pub fn drop_loop(n: u32) -> u32 {
    let c = Counter { left: n };
    let mut k = 0u32;
    while k < 10 {
        k += 1;
    }
    k + c.left / 2
}
