//! `expected.tsv` of a benchmark folder: `path<TAB>expected` rows (see /work/shared/bench/README.md).

use std::path::Path;

/// The known answer of one benchmark program.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Expected {
    /// Every run terminates.
    Yes,
    /// Some run does not terminate.
    No,
    /// The program can violate memory safety (`UB`, undefined behaviour, is scored the same way).
    Unsafe,
    /// Unsolved in the competition: no answer is wrong.
    Unknown,
    /// Not scored.
    Disputed,
}

impl Expected {
    pub fn parse(word: &str) -> Option<Expected> {
        match word.trim() {
            "YES" => Some(Expected::Yes),
            "NO" => Some(Expected::No),
            "UNSAFE" | "UB" => Some(Expected::Unsafe),
            "UNKNOWN" => Some(Expected::Unknown),
            "DISPUTED" => Some(Expected::Disputed),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Expected::Yes => "YES",
            Expected::No => "NO",
            Expected::Unsafe => "UNSAFE",
            Expected::Unknown => "UNKNOWN",
            Expected::Disputed => "DISPUTED",
        }
    }
}

/// One row of `expected.tsv`.
#[derive(Clone, Debug)]
pub struct Row {
    /// Path relative to the benchmark folder, as written in the file.
    pub path: String,
    pub expected: Expected,
}

/// Parses the text of `expected.tsv` (a `path expected` header line is skipped; `#` lines and
/// empty lines are ignored).
pub fn parse_expected(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let (path, word) = (fields.next().unwrap_or(""), fields.next().unwrap_or(""));
        if i == 0 && path == "path" {
            continue;
        }
        let expected = Expected::parse(word)
            .ok_or_else(|| format!("line {}: unknown expected value `{word}` (YES, NO, UNSAFE, UB, UNKNOWN, DISPUTED)", i + 1))?;
        if path.is_empty() {
            return Err(format!("line {}: empty path", i + 1));
        }
        rows.push(Row { path: path.to_string(), expected });
    }
    Ok(rows)
}

/// Reads `DIR/expected.tsv`.
pub fn read_expected(dir: &Path) -> Result<Vec<Row>, String> {
    let file = dir.join("expected.tsv");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    parse_expected(&text).map_err(|e| format!("{}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_comments_and_all_values() {
        let rows = parse_expected("path\texpected\n# c\na.c\tYES\nb.c\tNO\r\n\nc.c\tUB\nd.c\tUNSAFE\ne\tUNKNOWN\nf\tDISPUTED\n").unwrap();
        let got: Vec<_> = rows.iter().map(|r| (r.path.as_str(), r.expected)).collect();
        assert_eq!(
            got,
            [
                ("a.c", Expected::Yes),
                ("b.c", Expected::No),
                ("c.c", Expected::Unsafe),
                ("d.c", Expected::Unsafe),
                ("e", Expected::Unknown),
                ("f", Expected::Disputed)
            ]
        );
    }

    #[test]
    fn unknown_values_are_errors() {
        assert!(parse_expected("a.c\tMAYBE\n").unwrap_err().contains("line 1"));
        assert!(parse_expected("a.c\n").is_err());
    }
}
