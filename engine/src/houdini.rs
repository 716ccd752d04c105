//! Houdini: the largest subset of candidate conjuncts that is closed under a loop iteration,
//! shared by the recurrent-set searches over bit-vectors (`bitprecise::recurrent`) and over
//! mathematical integers (`nontermination::math_recurrent`).

/// What one closure query says about the current set of conjuncts.
pub enum Closure<M> {
    /// No state of the set leaves it in one iteration: the set is closed.
    Closed,
    /// A state of the set leaves the loop or hits undefined behaviour: no subset helps.
    Escapes,
    /// A state of the set whose successor falsifies some conjuncts (the solver's model).
    Counterexample(M),
    /// The solver did not answer, or the model could not be read.
    Unknown,
}

/// Drops the conjuncts a counterexample falsifies until the rest is closed, for at most
/// `rounds` queries. `check` asks the solver about a set; `holds_after` says whether a
/// conjunct holds after the counterexample's iteration (`None`: cannot be evaluated, give up).
/// `None` when the set escapes, nothing is dropped, the rounds run out or an answer is missing.
pub fn largest_closed_subset<C, M>(
    mut conjuncts: Vec<C>,
    rounds: usize,
    mut check: impl FnMut(&[C]) -> Closure<M>,
    mut holds_after: impl FnMut(&C, &M) -> Option<bool>,
) -> Option<Vec<C>> {
    for _ in 0..rounds {
        let model = match check(&conjuncts) {
            Closure::Closed => return Some(conjuncts),
            Closure::Counterexample(model) => model,
            Closure::Escapes | Closure::Unknown => return None,
        };
        let before = conjuncts.len();
        let mut kept = Vec::with_capacity(before);
        for c in conjuncts {
            if holds_after(&c, &model)? {
                kept.push(c);
            }
        }
        if kept.len() == before {
            return None;
        }
        conjuncts = kept;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_falsified_conjuncts_until_closed_and_gives_up_without_progress() {
        // Conjuncts are numbers; a set is "closed" once it holds no odd number, and the
        // counterexample falsifies exactly the odd ones.
        let check = |cs: &[i32]| if cs.iter().any(|c| c % 2 != 0) { Closure::Counterexample(()) } else { Closure::Closed };
        let even = |c: &i32, _: &()| Some(c % 2 == 0);
        assert_eq!(largest_closed_subset(vec![1, 2, 3, 4], 5, check, even), Some(vec![2, 4]));
        // A counterexample that falsifies nothing: no progress, no set.
        assert_eq!(largest_closed_subset(vec![1, 2], 5, check, |_: &i32, _: &()| Some(true)), None);
        assert_eq!(largest_closed_subset(vec![1], 5, |_: &[i32]| Closure::<()>::Escapes, even), None);
        assert_eq!(largest_closed_subset(vec![1, 3], 0, check, even), None, "no rounds left");
    }
}
