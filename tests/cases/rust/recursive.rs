// Recursion through summaries: the call depth is n (YES, may panic on the subtraction).
#[no_mangle]
pub fn recursive(n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        1 + recursive(n - 1) / 2
    }
}
