//! Unit tests of `lists_rust`'s merge helper: merge candidates that the merged state would
//! drop (a list's length against an address) are not checked.

use super::facts::Atom;
use super::lists_rust::{skipped_candidate, LengthAddress};
use super::lists_tests::{inv, with_cells};
use crate::logic::{LinExpr, Rel, Var};

fn v(n: &str) -> Var {
    Var::new(n)
}

#[test]
fn candidates_relating_a_length_to_an_address_are_skipped() {
    let mut s = with_cells(&[("p", "null")]);
    s.lists.push(inv("h", "len", ("f", "l"), "n", None));
    let relates = LengthAddress::of(&s);
    let le = |x: &str, y: &str| Atom::cmp(&LinExpr::var(&v(x)), Rel::Le, &LinExpr::var(&v(y))).unwrap();
    assert!(skipped_candidate(relates.as_ref(), &le("len", "p_end")), "a block's end");
    assert!(skipped_candidate(relates.as_ref(), &le("len", "h")), "the list's start");
    assert!(!skipped_candidate(relates.as_ref(), &le("len", "i")), "an integer local is no address");
    assert!(!skipped_candidate(relates.as_ref(), &le("i", "p_end")), "no length");
    // without invariants nothing is dropped, so nothing is skipped
    let plain = with_cells(&[("p", "null")]);
    assert!(LengthAddress::of(&plain).is_none());
    assert!(!skipped_candidate(None, &le("len", "p_end")));
}
