// Builds a list of n `Option<Box<Node>>` cells, then counts them through a shared cursor
// (`while let Some(node) = cur { k += 1; cur = &node.next }`), then drops it. The count
// follows the `next` fields of the n fresh allocations to the NULL niche (`None`): n steps,
// and k ≤ n < 2³² never wraps. Terminating and memory safe (YES, memory safety proved).
// Today: YES, memory safety proved (session 13, branch rustbox: 13.5 s of CPU at load 10).
// Limit 240 s: the tests run the debug binary, several times slower.
pub struct Node {
    pub val: u32,
    pub next: Option<Box<Node>>,
}

#[no_mangle]
pub fn box_list_len(n: u32) -> u32 {
    let mut head: Option<Box<Node>> = None;
    let mut i = 0u32;
    while i < n {
        head = Some(Box::new(Node { val: i, next: head }));
        i += 1;
    }
    let mut k = 0u32;
    let mut cur = &head;
    while let Some(node) = cur {
        k += 1;
        cur = &node.next;
    }
    k
}
