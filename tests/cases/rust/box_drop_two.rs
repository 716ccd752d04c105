// Two `Option<Box<Node>>` cells linked through `next` and dropped at the end: rustc's drop
// glue recurses through `drop_in_place` of `Option<Box<Node>>`, `Box<Node>` and `Node`; the
// front end replaces it by the loop that frees the cells one by one (frontend/rust_list_drop.rs),
// whose two iterations the analysis proves. Terminating and memory safe (YES, memory safety
// proved). About 6 s of CPU in release; the limit leaves room for the debug binary.
pub struct Node {
    pub val: u32,
    pub next: Option<Box<Node>>,
}

#[no_mangle]
pub fn box_drop_two(n: u32) -> u32 {
    let a = Some(Box::new(Node { val: n, next: None }));
    let b = Some(Box::new(Node { val: 1, next: a }));
    match b {
        Some(_) => 1,
        None => 0,
    }
}
