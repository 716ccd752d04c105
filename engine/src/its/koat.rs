//! Parser for the KoAT ITS format: `(GOAL …)(STARTTERM (FUNCTIONSYMBOLS f))(VAR …)(RULES …)`.
//!
//! Rules `f(x,y) -> g(x-1,y) :|: x > 0 && y >= 0` (also `-{cost}>` arrows, `[ cond ]` guards
//! and `Com_k(g(…), h(…))` right-hand sides: each component becomes its own rule, which is
//! sound for termination because a run of the split system is a path in the call tree).
//! Argument positions become the ITS variables; variables that occur only on the right-hand
//! side or in the guard are temporaries (fresh per rule). Every use of a symbol must have the
//! same arity (different symbols may differ; positions beyond a symbol's arity are never read
//! by its rules), and a STARTTERM symbol must occur in a rule: both are parse errors, never a
//! silently changed system.

use super::sexpr::{Pos, SyntaxError};
use super::{Its, Transition};
use crate::logic::{Formula, Rel, Term, Var};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, PartialEq, Debug)]
enum Tok {
    Ident(String),
    Num(i128),
    Sym(&'static str),
}

const SYMBOLS: &[&str] =
    &[":|:", "-{", "}>", "->", "&&", "/\\", "||", "<=", ">=", "==", "!=", "(", ")", ",", "[", "]", "<", ">", "=", "+", "-", "*", "^", "{", "}"];

fn tokenize(text: &str) -> Result<Vec<(Tok, Pos)>, SyntaxError> {
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line, mut col) = (0, 1, 1);
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, col };
        let advance = |n: usize, i: &mut usize, col: &mut usize| {
            *i += n;
            *col += n;
        };
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
        } else if c.is_whitespace() {
            advance(1, &mut i, &mut col);
        } else if c == '#' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                advance(1, &mut i, &mut col);
            }
            let s: String = chars[start..i].iter().collect();
            let n = s.parse::<i128>().map_err(|_| SyntaxError { pos, message: super::literal_out_of_range(&s) })?;
            out.push((Tok::Num(n), pos));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '\'' | '.' | '!' | '$')) {
                // `!` only inside identifiers when not starting `!=`.
                if chars[i] == '!' && chars.get(i + 1) == Some(&'=') {
                    break;
                }
                advance(1, &mut i, &mut col);
            }
            out.push((Tok::Ident(chars[start..i].iter().collect()), pos));
        } else {
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) else {
                return Err(SyntaxError { pos, message: format!("unexpected character `{c}`") });
            };
            let n = sym.chars().count();
            advance(n, &mut i, &mut col);
            out.push((Tok::Sym(sym), pos));
        }
    }
    Ok(out)
}

/// A call `g(t1, …, tn)` (either side of a rule), with the position of its name.
struct Call {
    name: String,
    args: Vec<Term>,
    pos: Pos,
}

struct RawRule {
    lhs: String,
    lhs_args: Vec<Term>,
    lhs_pos: Pos,
    rhs: Vec<Call>,
    guard: Formula,
    pos: Pos,
}

struct Parser {
    toks: Vec<(Tok, Pos)>,
    i: usize,
    end: Pos,
    /// Parenthesis nesting inside terms and conditions (bounded: the parser is recursive).
    depth: usize,
}

const MAX_DEPTH: usize = 200;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.0)
    }
    fn pos(&self) -> Pos {
        self.toks.get(self.i).map_or(self.end, |t| t.1)
    }
    fn err<T>(&self, message: &str) -> Result<T, SyntaxError> {
        let found = match self.peek() {
            Some(Tok::Ident(s)) => format!("`{s}`"),
            Some(Tok::Num(n)) => format!("`{n}`"),
            Some(Tok::Sym(s)) => format!("`{s}`"),
            None => "end of input".into(),
        };
        Err(SyntaxError { pos: self.pos(), message: format!("{message}, found {found}") })
    }
    fn eat(&mut self, sym: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(s)) if *s == sym) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, sym: &str) -> Result<(), SyntaxError> {
        if self.eat(sym) {
            Ok(())
        } else {
            self.err(&format!("expected `{sym}`"))
        }
    }
    fn ident(&mut self) -> Result<String, SyntaxError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.i += 1;
                Ok(s)
            }
            _ => self.err("expected a name"),
        }
    }

    /// Skips a balanced group until its closing `)` (the opening one is consumed).
    fn skip_group(&mut self) -> Result<(), SyntaxError> {
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                None => return self.err("unclosed `(`"),
                Some(Tok::Sym("(")) => depth += 1,
                Some(Tok::Sym(")")) => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    fn term(&mut self) -> Result<Term, SyntaxError> {
        let mut parts = vec![self.product()?];
        loop {
            if self.eat("+") {
                parts.push(self.product()?);
            } else if self.eat("-") {
                parts.push(Term::Neg(Box::new(self.product()?)));
            } else {
                break;
            }
        }
        Ok(if parts.len() == 1 { parts.pop().unwrap_or(Term::Const(0)) } else { Term::Add(parts) })
    }
    fn product(&mut self) -> Result<Term, SyntaxError> {
        let mut parts = vec![self.power()?];
        while self.eat("*") {
            parts.push(self.power()?);
        }
        Ok(if parts.len() == 1 { parts.pop().unwrap_or(Term::Const(1)) } else { Term::Mul(parts) })
    }
    fn power(&mut self) -> Result<Term, SyntaxError> {
        let base = self.unary()?;
        if self.eat("^") {
            let Some(Tok::Num(n)) = self.peek().cloned() else { return self.err("expected a constant exponent") };
            self.i += 1;
            if n > 64 {
                return self.err("exponent too large");
            }
            return Ok(Term::Mul(vec![base; n as usize].into_iter().chain([Term::Const(1)]).collect()));
        }
        Ok(base)
    }
    fn unary(&mut self) -> Result<Term, SyntaxError> {
        if self.eat("-") {
            return Ok(Term::Neg(Box::new(self.unary()?)));
        }
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.i += 1;
                Ok(Term::Const(n))
            }
            Some(Tok::Ident(s)) => {
                self.i += 1;
                Ok(Term::Var(Var::new(s)))
            }
            Some(Tok::Sym("(")) => {
                if self.depth >= MAX_DEPTH {
                    return self.err("term nested too deeply");
                }
                self.i += 1;
                self.depth += 1;
                let t = self.term();
                self.depth -= 1;
                let t = t?;
                self.expect(")")?;
                Ok(t)
            }
            _ => self.err("expected a term"),
        }
    }

    fn condition(&mut self) -> Result<Formula, SyntaxError> {
        let mut disj = vec![self.conjunction()?];
        while self.eat("||") {
            disj.push(self.conjunction()?);
        }
        Ok(Formula::or(disj))
    }
    fn conjunction(&mut self) -> Result<Formula, SyntaxError> {
        let mut conj = vec![self.atom()?];
        while self.eat("&&") || self.eat("/\\") {
            conj.push(self.atom()?);
        }
        Ok(Formula::and(conj))
    }
    fn atom(&mut self) -> Result<Formula, SyntaxError> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == "TRUE" || s == "true" => {
                self.i += 1;
                return Ok(Formula::True);
            }
            Some(Tok::Ident(s)) if s == "FALSE" || s == "false" => {
                self.i += 1;
                return Ok(Formula::False);
            }
            Some(Tok::Sym("(")) => {
                // Either a parenthesised condition or a comparison starting with a parenthesised term.
                if self.depth >= MAX_DEPTH {
                    return self.err("condition nested too deeply");
                }
                let save = self.i;
                self.i += 1;
                self.depth += 1;
                let inner = self.condition();
                self.depth -= 1;
                if let Ok(f) = inner {
                    if self.eat(")") && !self.at_relation() {
                        return Ok(f);
                    }
                }
                self.i = save;
            }
            _ => {}
        }
        let a = self.term()?;
        let rel = match self.peek() {
            Some(Tok::Sym("<")) => Rel::Lt,
            Some(Tok::Sym("<=")) => Rel::Le,
            Some(Tok::Sym(">")) => Rel::Gt,
            Some(Tok::Sym(">=")) => Rel::Ge,
            Some(Tok::Sym("=" | "==")) => Rel::Eq,
            Some(Tok::Sym("!=")) => Rel::Ne,
            _ => return self.err("expected a comparison"),
        };
        self.i += 1;
        let b = self.term()?;
        Ok(Formula::cmp(rel, a, b))
    }
    fn at_relation(&self) -> bool {
        matches!(self.peek(), Some(Tok::Sym("<" | "<=" | ">" | ">=" | "=" | "==" | "!=" | "+" | "-" | "*")))
    }

    fn call(&mut self) -> Result<Call, SyntaxError> {
        let pos = self.pos();
        let name = self.ident()?;
        let mut args = Vec::new();
        if self.eat("(") && !self.eat(")") {
            loop {
                args.push(self.term()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(Call { name, args, pos })
    }

    /// `lhs -> rhs [guard]`; `Com_k(` takes calls, not terms, as arguments.
    fn rule(&mut self) -> Result<RawRule, SyntaxError> {
        let pos = self.pos();
        let lhs = self.call()?;
        if self.eat("-{") {
            while !self.eat("}>") {
                if self.peek().is_none() {
                    return self.err("expected `}>`");
                }
                self.i += 1;
            }
        } else {
            self.expect("->")?;
        }
        let mut rhs = Vec::new();
        if matches!(self.peek(), Some(Tok::Ident(s)) if s.starts_with("Com_")) {
            self.i += 1;
            self.expect("(")?;
            if !self.eat(")") {
                loop {
                    rhs.push(self.call()?);
                    if self.eat(")") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
        } else {
            rhs.push(self.call()?);
        }
        let guard = if self.eat(":|:") {
            self.condition()?
        } else if self.eat("[") {
            let c = self.condition()?;
            self.expect("]")?;
            c
        } else {
            Formula::True
        };
        Ok(RawRule { lhs: lhs.name, lhs_args: lhs.args, lhs_pos: lhs.pos, rhs, guard, pos })
    }
}

/// Parses the text of a KoAT ITS.
pub fn parse_koat(text: &str) -> Result<Its, SyntaxError> {
    let toks = tokenize(text)?;
    let end = Pos { line: text.lines().count().max(1), col: 1 };
    let mut p = Parser { toks, i: 0, end, depth: 0 };
    let mut start: Option<(String, Pos)> = None;
    let mut rules = Vec::new();
    while p.peek().is_some() {
        p.expect("(")?;
        let key = p.ident()?;
        match key.as_str() {
            "STARTTERM" => {
                p.expect("(")?;
                let kind = p.ident()?;
                if kind == "FUNCTIONSYMBOLS" {
                    let pos = p.pos();
                    start = Some((p.ident()?, pos));
                    p.expect(")")?;
                } else {
                    p.skip_group()?;
                }
                p.expect(")")?;
            }
            "RULES" => {
                while !p.eat(")") {
                    if p.peek().is_none() {
                        return p.err("unclosed RULES");
                    }
                    rules.push(p.rule()?);
                }
            }
            "GOAL" | "VAR" | "COMMENT" | "STRATEGY" => p.skip_group()?,
            other => return Err(SyntaxError { pos: p.pos(), message: format!("unknown section `{other}`") }),
        }
    }
    build(start, rules)
}

/// Checks that every function symbol is used with one arity throughout (left- and right-hand
/// sides), and that the declared start symbol occurs in a rule. Both used to be accepted
/// silently: a missing start symbol gave an ITS without transitions from the start (so YES),
/// and a symbol with two arities had its missing arguments made arbitrary.
fn check_symbols(start: Option<&(String, Pos)>, rules: &[RawRule]) -> Result<(), SyntaxError> {
    let mut arity: BTreeMap<&str, (usize, Pos)> = BTreeMap::new();
    let uses = rules.iter().flat_map(|r| {
        std::iter::once((r.lhs.as_str(), r.lhs_args.len(), r.lhs_pos)).chain(r.rhs.iter().map(|c| (c.name.as_str(), c.args.len(), c.pos)))
    });
    for (name, n, pos) in uses {
        match arity.get(name) {
            Some(&(m, first)) if m != n => {
                return Err(SyntaxError {
                    pos,
                    message: format!(
                        "function symbol `{name}` has {n} argument(s) here but {m} at line {}:{} (every use of a symbol needs the same arity)",
                        first.line, first.col
                    ),
                });
            }
            Some(_) => {}
            None => {
                arity.insert(name, (n, pos));
            }
        }
    }
    if let Some((name, pos)) = start {
        if !arity.contains_key(name.as_str()) {
            return Err(SyntaxError {
                pos: *pos,
                message: format!("start symbol `{name}` (STARTTERM) does not occur in any rule"),
            });
        }
    }
    Ok(())
}

fn build(start: Option<(String, Pos)>, rules: Vec<RawRule>) -> Result<Its, SyntaxError> {
    let Some(first) = rules.first() else {
        return Err(SyntaxError { pos: Pos { line: 1, col: 1 }, message: "no rules".into() });
    };
    check_symbols(start.as_ref(), &rules)?;
    let start = start.map_or_else(|| first.lhs.clone(), |(name, _)| name);
    let arity = rules.iter().flat_map(|r| std::iter::once(r.lhs_args.len()).chain(r.rhs.iter().map(|c| c.args.len()))).max().unwrap_or(0);
    // Canonical variable names: the start rule's left-hand side if it consists of distinct variables.
    let template = rules.iter().find(|r| r.lhs == start).unwrap_or(first);
    let mut names: Vec<Var> = (0..arity).map(|i| Var::new(format!("x{}", i + 1))).collect();
    let lhs_vars: Vec<Option<&Var>> = template.lhs_args.iter().map(|t| if let Term::Var(v) = t { Some(v) } else { None }).collect();
    let distinct: BTreeSet<&Var> = lhs_vars.iter().flatten().copied().collect();
    if lhs_vars.iter().all(Option::is_some) && distinct.len() == lhs_vars.len() {
        for (i, v) in lhs_vars.iter().flatten().enumerate() {
            names[i] = (*v).clone();
        }
        let taken: BTreeSet<Var> = names.iter().cloned().collect();
        for (i, n) in names.iter_mut().enumerate().skip(lhs_vars.len()) {
            if taken.contains(n) {
                *n = Var::new(format!("x{}#pos", i + 1));
            }
        }
    }
    let mut its = Its { vars: names.clone(), ..Its::default() };
    its.start = Some(its.location(&start));
    for (k, r) in rules.iter().enumerate() {
        // Map this rule's lhs variables to canonical names, other variables to fresh temporaries.
        let mut map: BTreeMap<Var, Term> = BTreeMap::new();
        let mut extra = Vec::new();
        for (i, a) in r.lhs_args.iter().enumerate() {
            match a {
                Term::Var(v) if !map.contains_key(v) => {
                    map.insert(v.clone(), Term::Var(names[i].clone()));
                }
                other => extra.push((i, other.clone())),
            }
        }
        let mut free = r.guard.vars();
        for c in &r.rhs {
            for t in &c.args {
                t.collect_vars(&mut free);
            }
        }
        for (_, t) in &extra {
            t.collect_vars(&mut free);
        }
        for v in free {
            if !map.contains_key(&v) {
                map.insert(v.clone(), Term::Var(Var::new(format!("{}#r{k}", v.name()))));
            }
        }
        let sub = |v: &Var| map.get(v).cloned();
        let mut guard_parts = vec![r.guard.substitute(&sub)];
        for (i, t) in extra {
            guard_parts.push(Formula::eq(Term::Var(names[i].clone()), t.substitute(&sub)));
        }
        let guard = Formula::and(guard_parts);
        let from = its.location(&r.lhs);
        for (j, c) in r.rhs.iter().enumerate() {
            let to = its.location(&c.name);
            let update = (0..arity)
                .map(|i| match c.args.get(i) {
                    Some(t) => t.substitute(&sub),
                    None => Term::Var(Var::new(format!("{}#r{k}c{j}", names[i].name()))),
                })
                .collect();
            its.transitions.push(Transition { from, to, guard: guard.clone(), update, origin: Some(format!("line {}", r.pos.line)) });
        }
    }
    Ok(its)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules_with_guards_and_com() {
        let its = parse_koat(
            "(GOAL TERMINATION)\n(STARTTERM (FUNCTIONSYMBOLS f))\n(VAR x y z)\n(RULES\n  f(x,y) -> g(x-1, y) :|: x > 0 && y >= 0\n  g(x,y) -> Com_2(f(x, z), f(x, y)) [ x >= z ]\n  g(x,y) -{2}> Com_1(f(x,y))\n)\n",
        )
        .unwrap();
        assert_eq!(its.transitions.len(), 4);
        assert_eq!(its.vars, vec![Var::new("x"), Var::new("y")]);
        assert_eq!(its.location_name(its.start.unwrap()), "f");
        assert!(its.transitions[1].update[1].to_string().contains("z#r1"));
    }

    #[test]
    fn a_start_symbol_without_rules_is_an_error_naming_it_and_its_line() {
        let e = parse_koat("(GOAL TERMINATION)\n(STARTTERM (FUNCTIONSYMBOLS main))\n(VAR x)\n(RULES\n  f(x) -> f(x + 1)\n)\n")
            .expect_err("`main` has no rules");
        assert_eq!(e.pos, Pos { line: 2, col: 29 });
        assert!(e.message.contains("`main`") && e.message.contains("does not occur in any rule"), "{}", e.message);
        // Occurring only on a right-hand side is fine (no rule leaves it).
        assert!(parse_koat("(STARTTERM (FUNCTIONSYMBOLS g))\n(RULES\n  f(x) -> g(x)\n)\n").is_ok());
        // Without STARTTERM the first rule's symbol starts, as before.
        let its = parse_koat("(RULES\n  f(x) -> f(x - 1) :|: x > 0\n)\n").expect("parses");
        assert_eq!(its.location_name(its.start.expect("a start")), "f");
    }

    #[test]
    fn a_symbol_with_two_arities_is_an_error_at_the_second_use() {
        let e = parse_koat("(STARTTERM (FUNCTIONSYMBOLS f))\n(RULES\n  f(x, y) -> g(x)\n  g(x) -> f(x)\n)\n")
            .expect_err("f has arities 2 and 1");
        assert_eq!((e.pos.line, e.pos.col), (4, 11));
        assert!(e.message.contains("`f` has 1 argument(s) here but 2 at line 3:3"), "{}", e.message);
        let e = parse_koat("(RULES\n  f(x) -> f(x, x)\n)\n").expect_err("f has arities 1 and 2");
        assert_eq!(e.pos.line, 2);
        // Different symbols may have different arities.
        assert!(parse_koat("(RULES\n  f(x, y) -> g(x)\n  g(x) -> f(x, 0)\n)\n").is_ok());
    }

    #[test]
    fn a_literal_beyond_128_bits_is_out_of_range_not_unknown() {
        let big = "1".repeat(100);
        let e = parse_koat(&format!("(RULES\n  f(x) -> f(x - {big}) :|: x > 0\n)\n")).expect_err("too large");
        assert_eq!(e.pos.line, 2);
        assert!(e.message.starts_with("integer literal out of range (100 digits"), "{}", e.message);
        // The largest 128-bit integer still parses.
        assert!(parse_koat(&format!("(RULES\n  f(x) -> f(x - 1) :|: x < {}\n)\n", crate::its::MAX_LITERAL)).is_ok());
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let text = format!("(RULES f(x) -> f({}x{}) )", "(".repeat(3000), ")".repeat(3000));
        assert!(parse_koat(&text).is_err());
    }

    #[test]
    fn rejects_garbage_with_position() {
        let e = parse_koat("(RULES\n f(x) -> g(x) :|: x >\n)").unwrap_err();
        assert_eq!(e.pos.line, 3);
        assert!(parse_koat("(RULES f(x) -> ").is_err());
        assert!(parse_koat("@@").is_err());
    }
}
