//! SMT-LIB-like printing of terms and formulas, used in evidence and debugging output.

use super::{Formula, Rel, Term};
use std::fmt;

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Const(c) => write!(f, "{c}"),
            Term::Var(v) => write!(f, "{}", v.name()),
            Term::Add(ts) => join(f, ts, " + "),
            Term::Mul(ts) => join(f, ts, "*"),
            Term::Neg(t) => write!(f, "-({t})"),
            Term::Div(a, b) => write!(f, "({a} div {b})"),
            Term::Mod(a, b) => write!(f, "({a} mod {b})"),
            Term::Ite(c, a, b) => write!(f, "(if {c} then {a} else {b})"),
        }
    }
}

fn join(f: &mut fmt::Formatter<'_>, ts: &[Term], sep: &str) -> fmt::Result {
    write!(f, "(")?;
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            write!(f, "{sep}")?;
        }
        write!(f, "{t}")?;
    }
    write!(f, ")")
}

impl fmt::Display for Rel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rel::Eq => "=",
            Rel::Ne => "!=",
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Gt => ">",
            Rel::Ge => ">=",
        })
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Formula::True => write!(f, "true"),
            Formula::False => write!(f, "false"),
            Formula::Cmp(r, a, b) => write!(f, "{a} {r} {b}"),
            Formula::And(fs) => join_f(f, fs, " && "),
            Formula::Or(fs) => join_f(f, fs, " || "),
            Formula::Not(x) => write!(f, "!({x})"),
            Formula::BoolVar(v) => write!(f, "{}", v.name()),
            Formula::Exists(vs, body) => {
                write!(f, "exists")?;
                for v in vs {
                    write!(f, " {}", v.name())?;
                }
                write!(f, ". {body}")
            }
        }
    }
}

fn join_f(f: &mut fmt::Formatter<'_>, fs: &[Formula], sep: &str) -> fmt::Result {
    write!(f, "(")?;
    for (i, x) in fs.iter().enumerate() {
        if i > 0 {
            write!(f, "{sep}")?;
        }
        write!(f, "{x}")?;
    }
    write!(f, ")")
}
