//! Values and words in a picture: a texel value in a cell, a line wrapped to a width.

/// A value in at most 6 characters.
pub fn fmt_value(v: f32) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !v.is_finite() {
        format!("{v}")
    } else if !(1e-3..1e4).contains(&a) {
        format!("{v:.0e}")
    } else if a < 10.0 {
        format!("{v:.3}")
    } else if a < 100.0 {
        format!("{v:.2}")
    } else if a < 1000.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

/// Splits `text` into lines of at most `width` characters (at spaces).
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![];
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}
