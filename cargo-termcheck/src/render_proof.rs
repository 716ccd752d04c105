//! The human text of a termination proof: one block per source loop (`loop FILE:LINE:COL in
//! FUNCTION:`), its ranking functions (and invariants) as C-like text over source names; the
//! internal form (ITS locations, graph paths, prover terms) is left to the JSON output.

use crate::linear_text::linear_text;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use termcheck_engine::verdict::{ComponentProof, RankingPhase, SourceLoop, TerminationProof};

/// The function of an internal location name `FUNCTION:BLOCK#NODE`.
fn function_of(location: &str) -> &str {
    location.rsplit_once(':').map_or(location, |(f, _)| f)
}

/// The source name of location `i` of `c`.
/// Integer transition systems have no source loops (`loops` empty): their locations are
/// the input's own names.
fn location_text(c: &ComponentProof, i: usize) -> String {
    if c.loops.is_empty() {
        return c.locations[i].clone();
    }
    match c.loops.get(i).and_then(Option::as_ref) {
        Some(l) => l.text(),
        None => {
            let location = &c.locations[i];
            let block = location.rsplit_once(':').map_or("", |(_, b)| b);
            if block.starts_with("entry#") || block.starts_with("start#") {
                format!("recursion through {}", function_of(location))
            } else {
                format!("a cycle through {} outside loop statements", function_of(location))
            }
        }
    }
}

/// Sort key of a component: its first source loop (components outside loops last).
fn order_key(c: &ComponentProof) -> (bool, Option<SourceLoop>) {
    let first = c.loops.iter().flatten().min().cloned();
    (first.is_none(), first)
}

/// The heading of a component: the distinct source loops of its locations.
fn heading(c: &ComponentProof) -> String {
    let mut names: Vec<String> = Vec::new();
    for n in (0..c.locations.len()).map(|i| location_text(c, i)) {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let its = c.loops.is_empty();
    match names.as_slice() {
        [one] if its => format!("location {one}"),
        many if its => format!("locations {}", many.join(", ")),
        [one] if c.loops.first().is_some_and(Option::is_some) => format!("loop {one}"),
        [one] => one.clone(),
        many => format!("loops {}", many.join(", ")),
    }
}

/// The functions of `phase` per location, as text, in location order.
fn phase_functions(phase: &RankingPhase) -> Vec<(String, Vec<String>)> {
    let mut per: Vec<(String, Vec<String>)> = Vec::new();
    let texts = phase.functions.iter().map(|(l, f)| (l.clone(), linear_text(f))).chain(phase.expressions.iter().map(|e| (e.location.clone(), e.text.clone())));
    for (loc, text) in texts {
        match per.iter_mut().find(|(l, _)| *l == loc) {
            Some((_, v)) => v.push(text),
            None => per.push((loc, vec![text])),
        }
    }
    per
}

fn kind_text(phase: &RankingPhase) -> String {
    match phase.kind.as_str() {
        "bit-vector" if phase.depth > 1 => "bit-vector, lexicographic, compared unsigned".into(),
        "bit-vector" => "bit-vector, compared unsigned".into(),
        "multiphase" => format!("multiphase, {} functions, lexicographic", phase.depth),
        other => other.to_string(),
    }
}

/// Writes the proof's blocks: components grouped by their heading, in source order.
pub fn write_proof(out: &mut String, proof: &TerminationProof) {
    let mut order: Vec<&ComponentProof> = proof.components.iter().collect();
    order.sort_by_key(|c| order_key(c));
    let mut groups: Vec<(String, Vec<&ComponentProof>)> = Vec::new();
    for c in order {
        let h = heading(c);
        match groups.iter_mut().find(|(g, _)| *g == h) {
            Some((_, v)) => v.push(c),
            None => groups.push((h, vec![c])),
        }
    }
    for (h, comps) in groups {
        let _ = writeln!(out, "  {h}:");
        let phases: Vec<(&ComponentProof, &RankingPhase)> = comps.iter().flat_map(|c| c.phases.iter().map(move |p| (*c, p))).collect();
        let single = phases.len() == 1;
        for (k, (c, phase)) in phases.iter().enumerate() {
            let per = phase_functions(phase);
            let label = if single { format!("ranking function ({})", kind_text(phase)) } else { format!("phase {} ({})", k + 1, kind_text(phase)) };
            let names: BTreeMap<&str, String> = c.locations.iter().enumerate().map(|(i, l)| (l.as_str(), location_text(c, i))).collect();
            let many_locations = per.len() > 1;
            let parts: Vec<String> = per
                .iter()
                .map(|(loc, fs)| {
                    let f = if fs.len() == 1 { fs[0].clone() } else { format!("⟨{}⟩", fs.join(", ")) };
                    if many_locations {
                        format!("at {}: {f}", names.get(loc.as_str()).cloned().unwrap_or_else(|| loc.clone()))
                    } else {
                        f
                    }
                })
                .collect();
            let _ = writeln!(out, "    {label}: {}", if parts.is_empty() { "none".into() } else { parts.join("; ") });
        }
        for c in &comps {
            for inv in &c.invariants {
                let _ = writeln!(out, "    invariant: {}", inv.text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcheck_engine::logic::{LinExpr, Var};
    use termcheck_engine::verdict::SourceExpr;

    fn lin(v: &str) -> LinExpr {
        LinExpr::var(&Var::new(v))
    }
    fn src(line: u32) -> Option<SourceLoop> {
        Some(SourceLoop { file: "a.c".into(), line, column: 5, function: "main".into(), header: "while.cond".into() })
    }
    fn linear(loc: &str, f: LinExpr) -> RankingPhase {
        RankingPhase { functions: vec![(loc.into(), f)], kind: "linear".into(), depth: 1, removes: vec!["graph path n1 → n1".into()], expressions: vec![] }
    }

    #[test]
    fn components_of_one_loop_form_one_block_in_source_order() {
        let c = |loc: &str, line, v| ComponentProof { locations: vec![loc.into()], phases: vec![linear(loc, lin(v))], loops: vec![src(line)], invariants: vec![] };
        let proof = TerminationProof { components: vec![c("main:b#9", 9, "j"), c("main:a#3", 3, "i"), c("main:a#5", 3, "k")], notes: vec![] };
        let mut out = String::new();
        write_proof(&mut out, &proof);
        assert_eq!(
            out,
            "  loop a.c:3:5 in main:\n    phase 1 (linear): i\n    phase 2 (linear): k\n  loop a.c:9:5 in main:\n    ranking function (linear): j\n"
        );
        assert!(!out.contains('#') && !out.contains("graph path"), "{out}");
    }

    #[test]
    fn bit_vector_component_shows_expression_and_invariant() {
        let e = |t: &str| SourceExpr { location: "main:for.cond".into(), text: t.into(), internal: format!("{t}#1") };
        let phase = RankingPhase { functions: vec![], kind: "bit-vector".into(), depth: 1, removes: vec![], expressions: vec![e("~i")] };
        let c = ComponentProof { locations: vec!["main:for.cond".into()], phases: vec![phase], loops: vec![src(4)], invariants: vec![e("0 <= i")] };
        let mut out = String::new();
        write_proof(&mut out, &TerminationProof { components: vec![c], notes: vec![] });
        assert_eq!(out, "  loop a.c:4:5 in main:\n    ranking function (bit-vector, compared unsigned): ~i\n    invariant: 0 <= i\n");
    }

    #[test]
    fn its_locations_are_named_as_the_input_names_them() {
        let c = ComponentProof { locations: vec!["l1".into(), "l2".into()], phases: vec![linear("l1", lin("x")), linear("l2", lin("y"))], loops: vec![], invariants: vec![] };
        let mut out = String::new();
        write_proof(&mut out, &TerminationProof { components: vec![c], notes: vec![] });
        assert_eq!(out, "  locations l1, l2:\n    phase 1 (linear): x\n    phase 2 (linear): y\n");
    }

    #[test]
    fn locations_outside_loops_are_named_by_their_function() {
        let c = ComponentProof { locations: vec!["f:entry#2".into()], phases: vec![linear("f:entry#2", lin("n"))], loops: vec![None], invariants: vec![] };
        let mut out = String::new();
        write_proof(&mut out, &TerminationProof { components: vec![c], notes: vec![] });
        assert_eq!(out, "  recursion through f:\n    ranking function (linear): n\n");
    }
}
