//! Unit tests for terms, formulas and linear normal forms.

use super::*;

#[test]
fn linear_normal_form_cancels_and_scales() {
    let x = Var::new("x");
    let t = Term::Add(vec![Term::scale(3, Term::var(&x)), Term::Neg(Box::new(Term::var(&x))), Term::Const(4)]);
    let l = t.as_linear().expect("linear");
    assert_eq!(l.coeff(&x), 2);
    assert_eq!(l.constant, 4);
    let y = Var::new("y");
    assert!(Term::mul(Term::var(&x), Term::var(&y)).as_linear().is_none());
}

#[test]
fn and_or_simplify_units() {
    let a = Formula::lt(Term::Const(1), Term::Const(2));
    assert_eq!(Formula::and([Formula::True, a.clone()]), a);
    assert_eq!(Formula::or([Formula::True, a.clone()]), Formula::True);
    assert_eq!(Formula::and([Formula::False, a]), Formula::False);
}

#[test]
fn substitution_respects_binders() {
    let x = Var::new("x");
    let f = Formula::Exists(vec![x.clone()], Box::new(Formula::eq(Term::var(&x), Term::Const(1))));
    let g = f.substitute(&|_| Some(Term::Const(7)));
    assert_eq!(f, g);
    assert!(g.vars().is_empty());
}
