//! From the finished graph to an integer transition system (Def. 6), chained: the locations
//! are the root and the targets of generalization back edges (every cycle of the graph passes
//! through one); each graph path between two such nodes becomes one transition whose guard is
//! the conjunction of the facts of the nodes on the path (⟨a⟩ of the source included, so the
//! invariants proved by the graph are available to the ranking-function search) and whose
//! update maps the target's variables through the generalization's μ.
//!
//! Variables of a location are the symbolic variables of its state, mapped to positional ITS
//! variables `@0, @1, …`; all other variables of a path are temporaries. Only KB facts and
//! allocation bounds enter guards (not the disjointness disjunctions or PT disequalities):
//! a weaker guard over-approximates the runs, which is the sound direction.

use super::facts::{Atom, Fact};
use super::generalize::{apply, Mu};
use super::graph::{Edge, End, Graph};
use crate::its::{Its, LocId, Transition};
use crate::logic::{Formula, LinExpr, Rel, Term, Var};
use std::collections::{BTreeMap, BTreeSet};

/// The ITS and, per location, the symbolic variable behind each positional variable.
pub struct BuiltIts {
    pub its: Its,
    /// Graph node of each location.
    pub loc_nodes: Vec<usize>,
    /// Symbolic variables of each location, by position.
    pub loc_vars: Vec<Vec<Var>>,
}

pub fn position_var(i: usize) -> Var {
    Var::new(format!("@{i}"))
}

fn node_facts(g: &Graph, n: usize, arrival: bool) -> Vec<Fact> {
    let node = &g.nodes[n];
    let mut f = if arrival { node.arrival_kb.clone() } else { node.state.kb.clone() };
    for a in &node.state.allocs {
        if let Some(x) = Atom::cmp(&LinExpr::var(&a.start), Rel::Le, &LinExpr::var(&a.end)) {
            f.push(Fact::Atom(x));
        }
        f.push(Fact::Atom(Atom::var_const(&a.start, Rel::Ge, 1)));
    }
    f
}

struct Walk<'g> {
    g: &'g Graph,
    cut: BTreeSet<usize>,
    /// (source location node, target node, facts, μ for the target's variables)
    found: Vec<(usize, usize, Vec<Fact>, Mu)>,
    limit: usize,
}

impl Walk<'_> {
    fn walk(&mut self, start: usize, n: usize, facts: &mut Vec<Fact>, depth: usize) -> Result<(), String> {
        if self.found.len() > self.limit {
            return Err(format!("the ITS would have more than {} transitions", self.limit));
        }
        if depth > 100_000 {
            return Err("graph path too long for the ITS".into());
        }
        for e in self.g.nodes[n].out.clone() {
            match e {
                Edge::Eval(c) | Edge::Merge(c, _) => {
                    let node = &self.g.nodes[c];
                    if !node.alive || !matches!(node.end, End::Open) {
                        continue;
                    }
                    let mark = facts.len();
                    if let Edge::Merge(_, mu) = &e {
                        for (v, w) in mu {
                            if let Some(a) = Atom::cmp(&LinExpr::var(v), Rel::Eq, &LinExpr::var(w)) {
                                facts.push(Fact::Atom(a));
                            }
                        }
                        facts.extend(node_facts(self.g, c, false));
                    } else {
                        facts.extend(node_facts(self.g, c, true));
                    }
                    if self.cut.contains(&c) {
                        self.found.push((start, c, facts.clone(), Mu::new()));
                    } else {
                        self.walk(start, c, facts, depth + 1)?;
                    }
                    facts.truncate(mark);
                }
                Edge::Back(h, mu) => {
                    if self.g.nodes[h].alive {
                        self.found.push((start, h, facts.clone(), mu));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Builds the chained ITS; `Ok(None)` if the graph has no cycle.
pub fn build_its(g: &Graph, name_of: &dyn Fn(usize) -> String, limit: usize) -> Result<Option<BuiltIts>, String> {
    build_its_within(g, g.root, None, name_of, limit)
}

/// The nodes whose runs start at the entry `e`: its subtree, closed under the targets of
/// back edges (an entry of a deeper callee built for another call) and their subtrees; `None`
/// if that reaches a node above `e` (the runs from `e` would not be described by `e`'s
/// subgraph alone).
pub fn entry_subgraph(g: &Graph, e: usize) -> Option<BTreeSet<usize>> {
    let mut members = BTreeSet::new();
    let mut todo = vec![e];
    while let Some(n) = todo.pop() {
        if !g.nodes[n].alive || !members.insert(n) {
            continue;
        }
        for edge in &g.nodes[n].out {
            match edge {
                Edge::Eval(c) | Edge::Merge(c, _) | Edge::Back(c, _) => todo.push(*c),
            }
        }
    }
    let mut p = g.nodes[e].parent;
    while let Some(x) = p {
        if members.contains(&x) {
            return None;
        }
        p = g.nodes[x].parent;
    }
    Some(members)
}

/// The chained ITS of the runs from the entry `e` alone (`members` from [`entry_subgraph`]):
/// its start location is `e`, whose state's facts are the only assumption on its variables,
/// so a proof of it holds for every state `e` represents — not only for those a caller
/// reaches. `Ok(None)` if these runs have no cycle.
pub fn build_entry_its(g: &Graph, e: usize, members: &BTreeSet<usize>, name_of: &dyn Fn(usize) -> String, limit: usize) -> Result<Option<BuiltIts>, String> {
    build_its_within(g, e, Some(members), name_of, limit)
}

fn build_its_within(g: &Graph, root: usize, members: Option<&BTreeSet<usize>>, name_of: &dyn Fn(usize) -> String, limit: usize) -> Result<Option<BuiltIts>, String> {
    let mut cut = BTreeSet::new();
    for (i, n) in g.nodes.iter().enumerate() {
        if !n.alive || members.is_some_and(|m| !m.contains(&i)) {
            continue;
        }
        for e in &n.out {
            if let Edge::Back(h, _) = e {
                cut.insert(*h);
            }
        }
    }
    if cut.is_empty() {
        return Ok(None);
    }
    let mut w = Walk { g, cut: cut.clone(), found: vec![], limit };
    let starts: Vec<usize> = std::iter::once(root).chain(cut.iter().copied().filter(|c| *c != root)).collect();
    for &s in &starts {
        let mut facts = node_facts(g, s, false);
        w.walk(s, s, &mut facts, 0)?;
    }
    let mut its = Its::default();
    let mut loc_of: BTreeMap<usize, LocId> = BTreeMap::new();
    let mut loc_nodes = vec![];
    let mut loc_vars = vec![];
    for &s in &starts {
        let l = its.location(&format!("{}#{}", name_of(s), s));
        loc_of.insert(s, l);
        loc_nodes.push(s);
        loc_vars.push(g.nodes[s].state.all_vars().into_iter().collect::<Vec<Var>>());
    }
    let k = loc_vars.iter().map(|v| v.len()).max().unwrap_or(0);
    its.vars = (0..k).map(position_var).collect();
    its.start = loc_of.get(&root).copied();
    for (src, dst, facts, mu) in w.found {
        let (Some(&from), Some(&to)) = (loc_of.get(&src), loc_of.get(&dst)) else { continue };
        let src_vars = &loc_vars[from.0 as usize];
        let ren: BTreeMap<Var, Var> = src_vars.iter().enumerate().map(|(i, v)| (v.clone(), position_var(i))).collect();
        let r = |v: &Var| ren.get(v).cloned().unwrap_or_else(|| v.clone());
        let mut seen = BTreeSet::new();
        let guard = Formula::and(facts.iter().filter(|f| seen.insert((*f).clone())).map(|f| f.rename(&r).to_formula()));
        let dst_vars = &loc_vars[to.0 as usize];
        let update = (0..k)
            .map(|j| match dst_vars.get(j) {
                Some(v) => Term::var(&r(&apply(&mu, v))),
                None => Term::var(&Var::new(format!("free@{j}"))),
            })
            .collect();
        its.transitions.push(Transition { from, to, guard, update, origin: Some(format!("graph path n{src} → n{dst}")) });
    }
    Ok(Some(BuiltIts { its, loc_nodes, loc_vars }))
}
