// A singly linked list of Rust shape, built by consing n cells in a loop and dropped at the
// end: `Option<Box<Node>>` is one pointer (NULL is `None`, the end of the list), `Box::new`
// allocates through `__rust_alloc`, and the drop of the list is rustc's recursive drop glue
// (`drop_in_place` of `Option<Box<Node>>`, `Box<Node>` and `Node`), which the front end
// turns into the loop that frees the list cell by cell. Terminating and memory safe (YES,
// memory safety proved): n iterations, then one per cell.
// Today: YES, memory safety proved (session 13, branch rustbox: 7.5 s of CPU, 13 s wall at
// load 10; the build loop converges in two merges once the drifting `i + len ≤ K` family is
// widened). Before: MAYBE (session 9: not finished in 300 s). Limit 240 s: the tests run the
// debug binary (46 s at load 2–3, session 13). A NO, or a MAYBE on a quiet machine, must be looked at.
pub struct Node {
    pub val: u32,
    pub next: Option<Box<Node>>,
}

#[no_mangle]
pub fn box_list_build(n: u32) -> u32 {
    let mut head: Option<Box<Node>> = None;
    let mut i = 0u32;
    while i < n {
        head = Some(Box::new(Node { val: i, next: head }));
        i += 1;
    }
    match head {
        Some(_) => 1,
        None => 0,
    }
}
