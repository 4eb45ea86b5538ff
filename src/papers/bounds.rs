//! How close the sides of a comparison run to their bounds ([`against_bounds`]), the line
//! every paper's findings print under a speed-up.

use crate::runner::Session;

/// How close each side of a comparison runs to its bound (issue 13): `sides` are
/// `(label, table, row key)` of timed GPU rows of this session, read from their `of bound`
/// (bound / measured). A side below half of its bound makes the comparison
/// implementation-bound, by `1 / fraction` (how much faster its bound allows). `None` when no
/// side has a bound (no device limits, or rows without work).
pub(crate) fn against_bounds(s: &Session, sides: &[(&str, &str, &str)]) -> Option<String> {
    let rows = s.attained();
    let found: Vec<(&str, f64)> = sides
        .iter()
        .filter_map(|&(label, table, key)| {
            let a = rows.iter().find(|r| r.0 == table && r.1 == key)?;
            Some((label, a.2.fraction()?))
        })
        .collect();
    if found.is_empty() {
        return None;
    }
    let each: Vec<String> = found
        .iter()
        .map(|(l, f)| {
            if *f >= 0.5 {
                format!("{l} {f:.2} of its bound")
            } else {
                format!(
                    "{l} {f:.2} of its bound (implementation-bound, {:.1}× from it)",
                    1.0 / f
                )
            }
        })
        .collect();
    let below = found.iter().filter(|x| x.1 < 0.5).count();
    let verdict = if below == 0 {
        "every side runs within half of its bound: the comparison reflects the work each does"
            .to_string()
    } else {
        format!(
            "{below} of the {} GPU side{} below half of {} bound{}: the comparison is \
             implementation-bound (it ranks these implementations on this device, not the \
             limits of their work)",
            found.len(),
            if found.len() == 1 { " runs" } else { "s run" },
            if found.len() == 1 { "its" } else { "their" },
            if found.len() == 1 { "" } else { "s" },
        )
    };
    Some(format!(
        "Against the bounds: {}; {verdict}.",
        each.join(", ")
    ))
}
