//! Checks of the experiment file's numbers, run by serde as it is loaded (the error names
//! the file, the line and the key).

use serde::{Deserialize, Deserializer};

use crate::runner::Sizes;

pub(super) fn bad<E: serde::de::Error>(what: impl std::fmt::Display) -> E {
    E::custom(what)
}

/// A finite number > 0 of type `T` (`f32` or `f64`), checked in f64 (exact for both).
fn positive<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: Deserialize<'de> + Into<f64> + Copy + std::fmt::Display,
    D: Deserializer<'de>,
{
    let v = T::deserialize(d)?;
    let x: f64 = v.into();
    if x.is_finite() && x > 0.0 {
        Ok(v)
    } else {
        Err(bad(format!("{v}: must be a finite number > 0")))
    }
}

/// A finite `f32` > 0.
pub(super) fn positive_f32<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    positive(d)
}

/// A finite `f64` > 0.
pub(super) fn positive_f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    positive(d)
}

/// A finite `f64` (a number printed in the paper).
pub(super) fn finite_f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(bad(format!("{v}: must be a finite number")))
    }
}

/// A count ≥ 1.
pub(super) fn count<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let v = usize::deserialize(d)?;
    if v >= 1 {
        Ok(v)
    } else {
        Err(bad("0: must be at least 1"))
    }
}

/// Counts ≥ 1, at least one of them.
pub(super) fn counts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<usize>, D::Error> {
    let v = Vec::<usize>::deserialize(d)?;
    if v.is_empty() || v.contains(&0) {
        Err(bad(format!(
            "{v:?}: needs at least one count, each at least 1"
        )))
    } else {
        Ok(v)
    }
}

/// Grid sizes `N ≥ 2` (systems of `N − 1 ≥ 1` unknowns), for both modes.
pub(super) fn grids<'de, D: Deserializer<'de>>(d: D) -> Result<Sizes, D::Error> {
    let v = Sizes::deserialize(d)?;
    match v.full.iter().chain(&v.quick).find(|&&g| g < 2) {
        Some(g) => Err(bad(format!(
            "grid {g}: every grid needs at least 2 points (1 unknown)"
        ))),
        None => Ok(v),
    }
}
