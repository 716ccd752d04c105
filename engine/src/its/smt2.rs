//! Parser for the T2/TermCOMP `.smt2` ITS format (`cfg_init`, `cfg_trans2`, `init_main`, `next_main`).
//!
//! The transition relation of each `cfg_trans2` is a formula over pre-variables (first half
//! of `next_main`'s integer parameters), post-variables (second half) and existentially bound
//! variables. `relation::split_relation` turns it into a guard plus an update.

use super::relation::split_relation;
use super::sexpr::{read_all, Pos, Sexp, SyntaxError};
use super::{Its, Transition};
use crate::logic::{Formula, Rel, Term, Var};
use std::collections::HashMap;

/// Parses the text of a T2 `.smt2` ITS.
pub fn parse_smt2(text: &str) -> Result<Its, SyntaxError> {
    let forms = read_all(text)?;
    let mut its = Its::default();
    let mut defs: HashMap<String, &Sexp> = HashMap::new();
    for form in &forms {
        let Some(items) = form.list() else {
            return Err(err(form.pos(), "expected a command `( ... )`"));
        };
        match form.head() {
            Some("declare-const") => {
                let (Some(name), Some(sort)) = (items.get(1).and_then(Sexp::atom), items.get(2).and_then(Sexp::atom)) else {
                    return Err(err(form.pos(), "malformed declare-const"));
                };
                if sort == "Loc" {
                    its.location(name);
                } else {
                    return Err(err(form.pos(), &format!("global constant `{name}` of sort {sort} is not supported")));
                }
            }
            Some("define-fun") => {
                let Some(name) = items.get(1).and_then(Sexp::atom) else {
                    return Err(err(form.pos(), "malformed define-fun"));
                };
                defs.insert(name.to_string(), form);
            }
            Some("declare-sort" | "assert" | "set-info" | "set-logic" | "set-option" | "check-sat" | "exit") => {}
            Some(other) => return Err(err(form.pos(), &format!("unexpected command `{other}`"))),
            None => return Err(err(form.pos(), "expected a command name")),
        }
    }
    let init = defs.get("init_main").ok_or_else(|| err(Pos { line: 1, col: 1 }, "no `init_main` definition"))?;
    its.start = Some(parse_init(init, &its)?);
    let next = defs.get("next_main").ok_or_else(|| err(Pos { line: 1, col: 1 }, "no `next_main` definition"))?;
    parse_next(next, &mut its)?;
    Ok(its)
}

fn err(pos: Pos, message: &str) -> SyntaxError {
    SyntaxError { pos, message: message.to_string() }
}

/// `(define-fun init_main (params) Bool (cfg_init pc LOC true))` → LOC.
fn parse_init(def: &Sexp, its: &Its) -> Result<super::LocId, SyntaxError> {
    let body = def.list().and_then(|l| l.get(4)).ok_or_else(|| err(def.pos(), "malformed init_main"))?;
    let items = body.list().filter(|_| body.head() == Some("cfg_init")).ok_or_else(|| err(body.pos(), "expected `(cfg_init pc LOC rel)`"))?;
    let loc = items.get(2).and_then(Sexp::atom).ok_or_else(|| err(body.pos(), "expected a start location"))?;
    let id = its.locations.iter().position(|l| l == loc).ok_or_else(|| err(items[2].pos(), &format!("undeclared location `{loc}`")))?;
    if items.get(3).and_then(Sexp::atom) != Some("true") {
        return Err(err(body.pos(), "initial conditions other than `true` are not supported"));
    }
    Ok(super::LocId(id as u32))
}

fn parse_next(def: &Sexp, its: &mut Its) -> Result<(), SyntaxError> {
    let items = def.list().unwrap_or(&[]);
    let (Some(params), Some(body)) = (items.get(2).and_then(Sexp::list), items.get(4)) else {
        return Err(err(def.pos(), "malformed next_main"));
    };
    let mut int_params = Vec::new();
    for p in params {
        let pair = p.list().filter(|l| l.len() == 2).ok_or_else(|| err(p.pos(), "expected `(name Sort)`"))?;
        let (Some(name), Some(sort)) = (pair[0].atom(), pair[1].atom()) else {
            return Err(err(p.pos(), "expected `(name Sort)`"));
        };
        match sort {
            "Loc" => {}
            "Int" => int_params.push(name.to_string()),
            other => return Err(err(p.pos(), &format!("parameter sort {other} is not supported"))),
        }
    }
    if int_params.len() % 2 != 0 {
        return Err(err(def.pos(), "next_main needs as many post-variables as pre-variables"));
    }
    let n = int_params.len() / 2;
    let pre: Vec<Var> = int_params[..n].iter().map(Var::new).collect();
    let post: Vec<Var> = int_params[n..].iter().map(Var::new).collect();
    its.vars = pre.clone();
    let mut scope: HashMap<String, Var> = HashMap::new();
    for v in pre.iter().chain(&post) {
        scope.insert(v.name().to_string(), v.clone());
    }
    let disjuncts: Vec<&Sexp> = match body.head() {
        Some("or") => body.list().unwrap_or(&[])[1..].iter().collect(),
        _ => vec![body],
    };
    let mut conv = Converter { scopes: vec![scope], fresh: 0, depth: 0 };
    for (k, d) in disjuncts.into_iter().enumerate() {
        let parts = d.list().filter(|_| d.head() == Some("cfg_trans2")).ok_or_else(|| err(d.pos(), "expected `(cfg_trans2 pc SRC pc1 DST rel)`"))?;
        if parts.len() != 6 {
            return Err(err(d.pos(), "cfg_trans2 takes 5 arguments"));
        }
        let loc = |s: &Sexp| -> Result<super::LocId, SyntaxError> {
            let name = s.atom().ok_or_else(|| err(s.pos(), "expected a location"))?;
            let id = its.locations.iter().position(|l| l == name).ok_or_else(|| err(s.pos(), &format!("undeclared location `{name}`")))?;
            Ok(super::LocId(id as u32))
        };
        let (from, to) = (loc(&parts[2])?, loc(&parts[4])?);
        let rel = conv.formula(&parts[5])?;
        let (guard, update) = split_relation(rel, &pre, &post, &format!("r{k}"));
        its.transitions.push(Transition { from, to, guard, update, origin: Some(format!("line {}", d.pos().line)) });
    }
    Ok(())
}

/// Converts s-expressions into formulas and terms; existentially bound names get fresh names.
struct Converter {
    scopes: Vec<HashMap<String, Var>>,
    fresh: usize,
    depth: usize,
}

/// Nesting limit of formulas and terms (the conversion is recursive; deeper inputs are rejected
/// instead of overflowing the stack).
const MAX_DEPTH: usize = 400;

const BOOL_HEADS: &[&str] = &["and", "or", "not", "=>", "exists", "forall", "<", "<=", ">", ">=", "distinct", "xor"];

impl Converter {
    fn lookup(&self, name: &str) -> Option<Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    fn is_bool(&self, s: &Sexp) -> bool {
        match s {
            Sexp::Atom(a, _) => a == "true" || a == "false",
            Sexp::List(items, _) => match s.head() {
                Some(h) if BOOL_HEADS.contains(&h) => true,
                Some("=") => items.get(1).is_some_and(|x| self.is_bool(x)),
                Some("ite") => items.get(2).is_some_and(|x| self.is_bool(x)),
                _ => false,
            },
        }
    }

    fn args<'s>(&self, s: &'s Sexp, min: usize) -> Result<&'s [Sexp], SyntaxError> {
        let items = s.list().unwrap_or(&[]);
        if items.len() < min + 1 {
            return Err(err(s.pos(), &format!("`{}` needs at least {min} argument(s)", s.head().unwrap_or("?"))));
        }
        Ok(&items[1..])
    }

    fn formula(&mut self, s: &Sexp) -> Result<Formula, SyntaxError> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH { Err(err(s.pos(), "formula nested too deeply")) } else { self.formula_inner(s) };
        self.depth -= 1;
        r
    }

    fn formula_inner(&mut self, s: &Sexp) -> Result<Formula, SyntaxError> {
        match s {
            Sexp::Atom(a, p) => match a.as_str() {
                "true" => Ok(Formula::True),
                "false" => Ok(Formula::False),
                _ => Err(err(*p, &format!("expected a formula, found `{a}`"))),
            },
            Sexp::List(_, p) => {
                let head = s.head().ok_or_else(|| err(*p, "expected an operator"))?;
                match head {
                    "and" => Ok(Formula::and(self.args(s, 0)?.iter().map(|x| self.formula(x)).collect::<Result<Vec<_>, _>>()?)),
                    "or" => Ok(Formula::or(self.args(s, 0)?.iter().map(|x| self.formula(x)).collect::<Result<Vec<_>, _>>()?)),
                    "not" => {
                        let a = self.args(s, 1)?;
                        Ok(Formula::not(self.formula(&a[0])?))
                    }
                    "=>" => {
                        let a = self.args(s, 2)?;
                        Ok(Formula::implies(self.formula(&a[0])?, self.formula(&a[1])?))
                    }
                    "xor" => {
                        let a = self.args(s, 2)?;
                        let (x, y) = (self.formula(&a[0])?, self.formula(&a[1])?);
                        Ok(Formula::or([
                            Formula::and([x.clone(), Formula::not(y.clone())]),
                            Formula::and([Formula::not(x), y]),
                        ]))
                    }
                    "ite" => {
                        let a = self.args(s, 3)?;
                        let c = self.formula(&a[0])?;
                        let (x, y) = (self.formula(&a[1])?, self.formula(&a[2])?);
                        Ok(Formula::or([Formula::and([c.clone(), x]), Formula::and([Formula::not(c), y])]))
                    }
                    "exists" => {
                        let a = self.args(s, 2)?;
                        let binders = a[0].list().ok_or_else(|| err(a[0].pos(), "expected a binder list"))?;
                        let mut scope = HashMap::new();
                        let mut bound = Vec::new();
                        for b in binders {
                            let pair = b.list().filter(|l| l.len() == 2).ok_or_else(|| err(b.pos(), "expected `(name Int)`"))?;
                            let name = pair[0].atom().ok_or_else(|| err(b.pos(), "expected a name"))?;
                            if pair[1].atom() != Some("Int") {
                                return Err(err(b.pos(), "only Int binders are supported"));
                            }
                            self.fresh += 1;
                            let v = Var::new(format!("{name}#{}", self.fresh));
                            scope.insert(name.to_string(), v.clone());
                            bound.push(v);
                        }
                        self.scopes.push(scope);
                        let body = self.formula(&a[1]);
                        self.scopes.pop();
                        Ok(Formula::Exists(bound, Box::new(body?)))
                    }
                    "=" | "<" | "<=" | ">" | ">=" => {
                        let a = self.args(s, 2)?;
                        if head == "=" && self.is_bool(&a[0]) {
                            let fs = a.iter().map(|x| self.formula(x)).collect::<Result<Vec<_>, _>>()?;
                            let pairs = fs.windows(2).map(|w| {
                                Formula::or([
                                    Formula::and([w[0].clone(), w[1].clone()]),
                                    Formula::and([Formula::not(w[0].clone()), Formula::not(w[1].clone())]),
                                ])
                            });
                            return Ok(Formula::and(pairs.collect::<Vec<_>>()));
                        }
                        let rel = match head {
                            "=" => Rel::Eq,
                            "<" => Rel::Lt,
                            "<=" => Rel::Le,
                            ">" => Rel::Gt,
                            _ => Rel::Ge,
                        };
                        let ts = a.iter().map(|x| self.term(x)).collect::<Result<Vec<_>, _>>()?;
                        Ok(Formula::and(ts.windows(2).map(|w| Formula::cmp(rel, w[0].clone(), w[1].clone())).collect::<Vec<_>>()))
                    }
                    "distinct" => {
                        let a = self.args(s, 2)?;
                        let ts = a.iter().map(|x| self.term(x)).collect::<Result<Vec<_>, _>>()?;
                        let mut parts = Vec::new();
                        for i in 0..ts.len() {
                            for j in i + 1..ts.len() {
                                parts.push(Formula::ne(ts[i].clone(), ts[j].clone()));
                            }
                        }
                        Ok(Formula::and(parts))
                    }
                    other => Err(err(*p, &format!("unsupported formula operator `{other}`"))),
                }
            }
        }
    }

    fn term(&mut self, s: &Sexp) -> Result<Term, SyntaxError> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH { Err(err(s.pos(), "term nested too deeply")) } else { self.term_inner(s) };
        self.depth -= 1;
        r
    }

    fn term_inner(&mut self, s: &Sexp) -> Result<Term, SyntaxError> {
        match s {
            Sexp::Atom(a, p) => {
                if let Ok(c) = a.parse::<i128>() {
                    return Ok(Term::Const(c));
                }
                // A numeral that does not fit is not a symbol: say so instead of "unknown symbol".
                let digits = a.strip_prefix('-').unwrap_or(a);
                if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(err(*p, &super::literal_out_of_range(digits)));
                }
                self.lookup(a).map(Term::Var).ok_or_else(|| err(*p, &format!("unknown symbol `{a}`")))
            }
            Sexp::List(_, p) => {
                let head = s.head().ok_or_else(|| err(*p, "expected an operator"))?;
                match head {
                    "+" => Ok(Term::Add(self.terms(self.args(s, 1)?)?)),
                    "*" => Ok(Term::Mul(self.terms(self.args(s, 1)?)?)),
                    "-" => {
                        let ts = self.terms(self.args(s, 1)?)?;
                        let mut it = ts.into_iter();
                        let first = it.next().unwrap_or(Term::Const(0));
                        let rest: Vec<Term> = it.map(|t| Term::Neg(Box::new(t))).collect();
                        if rest.is_empty() {
                            Ok(match first {
                                Term::Const(c) => Term::Const(-c),
                                t => Term::Neg(Box::new(t)),
                            })
                        } else {
                            Ok(Term::Add(std::iter::once(first).chain(rest).collect()))
                        }
                    }
                    "div" | "mod" => {
                        let a = self.args(s, 2)?;
                        let (x, y) = (self.term(&a[0])?, self.term(&a[1])?);
                        Ok(if head == "div" { Term::Div(Box::new(x), Box::new(y)) } else { Term::Mod(Box::new(x), Box::new(y)) })
                    }
                    "abs" => {
                        let a = self.args(s, 1)?;
                        let x = self.term(&a[0])?;
                        Ok(Term::Ite(
                            Box::new(Formula::ge(x.clone(), Term::Const(0))),
                            Box::new(x.clone()),
                            Box::new(Term::Neg(Box::new(x))),
                        ))
                    }
                    "ite" => {
                        let a = self.args(s, 3)?;
                        let c = self.formula(&a[0])?;
                        let (x, y) = (self.term(&a[1])?, self.term(&a[2])?);
                        Ok(Term::Ite(Box::new(c), Box::new(x), Box::new(y)))
                    }
                    other => Err(err(*p, &format!("unsupported term operator `{other}`"))),
                }
            }
        }
    }

    fn terms(&mut self, xs: &[Sexp]) -> Result<Vec<Term>, SyntaxError> {
        xs.iter().map(|x| self.term(x)).collect()
    }
}
