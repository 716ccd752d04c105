// Never terminates for x = 0: `loop {}`-style non-termination (NO, replayed lasso).
#[no_mangle]
pub fn spin(x: u32) -> u32 {
    let mut y = x;
    while y == 0 {
        y = y * 2;
    }
    y
}
