//! A small s-expression reader with line/column positions, for the T2/TermCOMP `.smt2` ITS format.
//!
//! Hand-written rather than a crate (`lexpr`, `sexp`): the ITS files use only lists, symbols,
//! numerals, `;` comments and `|quoted|` symbols, and we need the exact line and column of
//! every node for `EngineError::ItsParse`; the crates either drop positions or accept a
//! Scheme-flavoured syntax (`#t`, dotted pairs) that SMT-LIB does not have.

/// A position in the input (1-based line and column).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// One s-expression node.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Sexp {
    Atom(String, Pos),
    List(Vec<Sexp>, Pos),
}

impl Sexp {
    pub fn pos(&self) -> Pos {
        match self {
            Sexp::Atom(_, p) | Sexp::List(_, p) => *p,
        }
    }
    pub fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a, _) => Some(a),
            Sexp::List(..) => None,
        }
    }
    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items, _) => Some(items),
            Sexp::Atom(..) => None,
        }
    }
    /// The head symbol of a list (`(head ...)`).
    pub fn head(&self) -> Option<&str> {
        self.list()?.first()?.atom()
    }
}

/// A syntax error with its position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SyntaxError {
    pub pos: Pos,
    pub message: String,
}

/// Nesting limit (deeper trees would overflow the stack when converted or dropped).
pub const MAX_NESTING: usize = 500;

/// Reads all top-level s-expressions of `text`.
pub fn read_all(text: &str) -> Result<Vec<Sexp>, SyntaxError> {
    let mut reader = Reader { chars: text.chars().collect(), i: 0, line: 1, col: 1 };
    let mut out = Vec::new();
    // Explicit stack instead of recursion: deeply nested inputs cannot overflow the call stack.
    let mut stack: Vec<(Vec<Sexp>, Pos)> = Vec::new();
    loop {
        reader.skip_space();
        let pos = reader.pos();
        let Some(c) = reader.peek() else { break };
        match c {
            '(' => {
                reader.bump();
                if stack.len() >= MAX_NESTING {
                    return Err(SyntaxError { pos, message: "expression nested too deeply".into() });
                }
                stack.push((Vec::new(), pos));
            }
            ')' => {
                reader.bump();
                let Some((items, start)) = stack.pop() else {
                    return Err(SyntaxError { pos, message: "unbalanced `)`".into() });
                };
                let node = Sexp::List(items, start);
                match stack.last_mut() {
                    Some((parent, _)) => parent.push(node),
                    None => out.push(node),
                }
            }
            _ => {
                let atom = reader.atom()?;
                let node = Sexp::Atom(atom, pos);
                match stack.last_mut() {
                    Some((parent, _)) => parent.push(node),
                    None => out.push(node),
                }
            }
        }
    }
    if let Some((_, start)) = stack.last() {
        return Err(SyntaxError { pos: *start, message: "unclosed `(` (file truncated?)".into() });
    }
    Ok(out)
}

struct Reader {
    chars: Vec<char>,
    i: usize,
    line: usize,
    col: usize,
}

impl Reader {
    fn pos(&self) -> Pos {
        Pos { line: self.line, col: self.col }
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == ';' {
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }
    fn atom(&mut self) -> Result<String, SyntaxError> {
        let start = self.pos();
        let mut s = String::new();
        match self.peek() {
            Some('|') => {
                self.bump();
                loop {
                    match self.bump() {
                        Some('|') => return Ok(s),
                        Some(c) => s.push(c),
                        None => return Err(SyntaxError { pos: start, message: "unterminated `|symbol|`".into() }),
                    }
                }
            }
            Some('"') => {
                self.bump();
                loop {
                    match self.bump() {
                        Some('"') => return Ok(s),
                        Some(c) => s.push(c),
                        None => return Err(SyntaxError { pos: start, message: "unterminated string".into() }),
                    }
                }
            }
            _ => {
                while let Some(c) = self.peek() {
                    if c.is_whitespace() || c == '(' || c == ')' || c == ';' {
                        break;
                    }
                    s.push(c);
                    self.bump();
                }
                Ok(s)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_lists_with_positions() {
        let xs = read_all("(a (b 1)) ; comment\n(c)").unwrap();
        assert_eq!(xs.len(), 2);
        assert_eq!(xs[1].pos(), Pos { line: 2, col: 1 });
        assert_eq!(xs[0].list().unwrap()[1].head(), Some("b"));
    }

    #[test]
    fn reports_unbalanced_parentheses() {
        let e = read_all("(a (b)").unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, col: 1 });
        let e = read_all("a)\n").unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, col: 2 });
    }

    #[test]
    fn quoted_symbols() {
        let xs = read_all("|a b|").unwrap();
        assert_eq!(xs[0].atom(), Some("a b"));
        assert!(read_all("|abc").is_err());
    }
}
