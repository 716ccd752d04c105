//! Human-readable text of linear expressions (`2*x + 3 - y`) for ranking functions in the output.

use termcheck_engine::logic::LinExpr;

/// Renders `c + Σ aᵢ·xᵢ` as `a1*x1 + a2*x2 + c`, omitting zero parts and unit coefficients;
/// the positive parts come first.
pub fn linear_text(expr: &LinExpr) -> String {
    let mut out = String::new();
    let mut term = |coeff: i128, var: Option<&str>| {
        let magnitude = coeff.unsigned_abs();
        let body = match var {
            Some(v) if magnitude == 1 => v.to_string(),
            Some(v) => format!("{magnitude}*{v}"),
            None => magnitude.to_string(),
        };
        if out.is_empty() {
            if coeff < 0 {
                out.push('-');
            }
        } else {
            out.push_str(if coeff < 0 { " - " } else { " + " });
        }
        out.push_str(&body);
    };
    // positive parts first (`2147483647 - i`, not `-i + 2147483647`), as C code reads
    for positive in [true, false] {
        for (var, coeff) in &expr.coeffs {
            if *coeff != 0 && (*coeff > 0) == positive {
                term(*coeff, Some(var.name()));
            }
        }
        if expr.constant != 0 && (expr.constant > 0) == positive {
            term(expr.constant, None);
        }
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcheck_engine::logic::Var;

    fn expr(coeffs: &[(&str, i128)], constant: i128) -> LinExpr {
        LinExpr { coeffs: coeffs.iter().map(|(v, c)| (Var::new(v), *c)).collect(), constant }
    }

    #[test]
    fn zero_is_printed_as_zero() {
        assert_eq!(linear_text(&expr(&[], 0)), "0");
    }

    #[test]
    fn signs_and_unit_coefficients() {
        assert_eq!(linear_text(&expr(&[("x", 1), ("y", -1)], 0)), "x - y");
        assert_eq!(linear_text(&expr(&[("x", -1)], 3)), "3 - x");
        assert_eq!(linear_text(&expr(&[("a", 2), ("b", -3)], -4)), "2*a - 3*b - 4");
        assert_eq!(linear_text(&expr(&[("a", -2), ("b", 1)], 0)), "b - 2*a");
        assert_eq!(linear_text(&expr(&[], -7)), "-7");
    }

    #[test]
    fn extreme_constants_do_not_overflow() {
        assert_eq!(linear_text(&expr(&[("x", i128::MIN)], 0)), format!("-{}*x", i128::MIN.unsigned_abs()));
    }
}
