//! Every technique `trace` knows ([`TECHNIQUES`]), and finding one by name with its input
//! resolved and checked.

use super::error::TraceError;
use super::input::Input;
use super::technique::Technique;
use super::{bicg, cg, cr, cr_tiled, lu, matmul};

/// Every technique `trace` knows.
pub static TECHNIQUES: &[Technique] = &[
    cr::COPY,
    cr::SWITCH,
    cr_tiled::TILED,
    cg::SCALAR,
    cg::RGBA,
    lu::ALL[0],
    lu::ALL[1],
    lu::ALL[2],
    lu::ALL[3],
    lu::ALL[4],
    lu::ALL[5],
    lu::ALL[6],
    lu::ALL[7],
    bicg::REDUCE,
    matmul::MULTIPASS,
];

/// The techniques and their defaults, for `trace --help`.
pub fn help() -> String {
    let mut s = String::from("Techniques:\n");
    for t in TECHNIQUES {
        s += &format!(
            "  {:<18} {} (default --size {} --batch {})\n",
            t.name, t.about, t.default_size, t.default_batch
        );
    }
    s
}

/// The technique called `name`.
pub fn technique(name: &str) -> Result<&'static Technique, TraceError> {
    TECHNIQUES.iter().find(|t| t.name == name).ok_or_else(|| {
        let known: Vec<&str> = TECHNIQUES.iter().map(|t| t.name).collect();
        TraceError::Unknown(name.into(), known.join(", "))
    })
}

/// The technique and its input with defaults filled in, checked: call before any GL work or
/// output.
pub fn resolve(
    name: &str,
    size: Option<usize>,
    batch: Option<usize>,
    seed: u64,
) -> Result<(&'static Technique, Input), TraceError> {
    let t = technique(name)?;
    let input = Input {
        size: size.unwrap_or(t.default_size),
        batch: batch.unwrap_or(t.default_batch),
        seed,
    };
    (t.check)(&input).map_err(|why| TraceError::BadInput {
        technique: t.name.into(),
        why,
    })?;
    Ok((t, input))
}
