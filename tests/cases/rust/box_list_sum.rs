// Builds a list of n `Option<Box<Node>>` cells, then walks it through a shared cursor
// (`while let Some(node) = cur { …; cur = &node.next }`) summing the values, then drops it.
// The walk follows the `next` fields of the n fresh allocations to the NULL niche (`None`):
// n steps. Terminating and memory safe (YES, memory safety proved).
// Today: YES, memory safety proved (session 13, branch rustbox: 13 s of CPU, 32 s wall at load
// 10: the drifting `i + len ≤ K` family widened, PT disequalities one cached query per pair).
// Limit 240 s: the tests run the debug binary, several times slower (the release binary
// needs 13 s of CPU). A NO, or a MAYBE on a quiet machine, must be looked at.
pub struct Node {
    pub val: u32,
    pub next: Option<Box<Node>>,
}

#[no_mangle]
pub fn box_list_sum(n: u32) -> u32 {
    let mut head: Option<Box<Node>> = None;
    let mut i = 0u32;
    while i < n {
        head = Some(Box::new(Node { val: i, next: head }));
        i += 1;
    }
    let mut sum = 0u32;
    let mut cur = &head;
    while let Some(node) = cur {
        sum = sum.wrapping_add(node.val);
        cur = &node.next;
    }
    sum
}
