//! Turning a transition relation over pre- and post-variables into a guard plus an update.
//!
//! Existentials in positive positions (under `and`/`or`) are pulled to the top and become
//! temporaries (their names are already fresh). A post-variable defined by an equality
//! `post = e` (directly, or solvable with coefficient ±1 in a linear equality) whose other
//! side mentions no post-variable gets `e` as its update; any other post-variable becomes a
//! fresh temporary and its constraints stay in the guard. This is an exact translation: the
//! set of (pre, post) pairs is unchanged.

use crate::logic::{Formula, LinExpr, Term, Var};
use std::collections::{BTreeSet, HashMap};

/// Splits `rel` into (guard, update per pre-variable). `tag` makes temporary names unique per rule.
pub fn split_relation(rel: Formula, pre: &[Var], post: &[Var], tag: &str) -> (Formula, Vec<Term>) {
    let rel = pull_exists(rel);
    let post_set: BTreeSet<Var> = post.iter().cloned().collect();
    let mut conjuncts = rel.conjuncts();
    let mut defs: HashMap<Var, Term> = HashMap::new();
    loop {
        let mut progress = false;
        let mut i = 0;
        while i < conjuncts.len() {
            if let Some((p, e)) = definition(&conjuncts[i], &post_set, &defs) {
                conjuncts.remove(i);
                let sub = |v: &Var| if *v == p { Some(e.clone()) } else { None };
                conjuncts = conjuncts.iter().map(|c| c.substitute(&sub)).collect();
                for d in defs.values_mut() {
                    *d = d.substitute(&sub);
                }
                defs.insert(p, e);
                progress = true;
            } else {
                i += 1;
            }
        }
        if !progress {
            break;
        }
    }
    let mut renaming: HashMap<Var, Term> = HashMap::new();
    for p in post {
        if !defs.contains_key(p) {
            renaming.insert(p.clone(), Term::Var(Var::new(format!("{}#{tag}", p.name()))));
        }
    }
    let guard = Formula::and(conjuncts.iter().map(|c| c.substitute(&|v| renaming.get(v).cloned())).collect::<Vec<_>>());
    let update = post
        .iter()
        .zip(pre)
        .map(|(p, _)| defs.get(p).cloned().or_else(|| renaming.get(p).cloned()).unwrap_or_else(|| Term::Var(p.clone())))
        .collect();
    (guard, update)
}

/// `post = e` with `e` free of undefined post-variables, if the conjunct has that shape.
fn definition(c: &Formula, post: &BTreeSet<Var>, defs: &HashMap<Var, Term>) -> Option<(Var, Term)> {
    let Formula::Cmp(crate::logic::Rel::Eq, a, b) = c else { return None };
    let free_of_post = |t: &Term| {
        let mut vs = BTreeSet::new();
        t.collect_vars(&mut vs);
        vs.iter().all(|v| !post.contains(v))
    };
    for (x, y) in [(a, b), (b, a)] {
        if let Term::Var(p) = x {
            if post.contains(p) && !defs.contains_key(p) && free_of_post(y) {
                return Some((p.clone(), y.clone()));
            }
        }
    }
    // Linear equality a - b = 0 with some post-variable of coefficient ±1 and no other post-variable.
    let lin = LinExpr::from_term(&Term::sub(a.clone(), b.clone()))?;
    let posts: Vec<&Var> = lin.coeffs.keys().filter(|v| post.contains(*v)).collect();
    if posts.len() != 1 {
        return None;
    }
    let p = posts[0].clone();
    let c = lin.coeff(&p);
    if c != 1 && c != -1 {
        return None;
    }
    // c·p + rest = 0  ⇒  p = -rest / c = -c·rest (c = ±1).
    let mut rest = lin.clone();
    rest.coeffs.remove(&p);
    Some((p, rest.scale(-c)?.to_term()))
}

/// Moves existential quantifiers out of `and`/`or` (their bound names are fresh, so no capture).
fn pull_exists(f: Formula) -> Formula {
    match f {
        Formula::Exists(_, body) => pull_exists(*body),
        Formula::And(fs) => Formula::and(fs.into_iter().map(pull_exists).collect::<Vec<_>>()),
        Formula::Or(fs) => Formula::or(fs.into_iter().map(pull_exists).collect::<Vec<_>>()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str) -> Var {
        Var::new(n)
    }

    #[test]
    fn equalities_become_updates_and_others_temporaries() {
        let (x, xp, y, yp) = (v("x"), v("xP"), v("y"), v("yP"));
        // x' + 1 = x  ∧  y' > y
        let rel = Formula::and([
            Formula::eq(Term::add(Term::var(&xp), Term::Const(1)), Term::var(&x)),
            Formula::gt(Term::var(&yp), Term::var(&y)),
        ]);
        let (guard, update) = split_relation(rel, &[x.clone(), y.clone()], &[xp, yp], "r0");
        assert_eq!(update[0].as_linear(), LinExpr::from_term(&Term::sub(Term::var(&x), Term::Const(1))));
        assert_eq!(update[1], Term::Var(v("yP#r0")));
        assert!(guard.vars().contains(&v("yP#r0")));
    }
}
