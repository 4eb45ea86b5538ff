//! The input of a trace ([`Input`]) and the checks techniques make of it before anything runs.

/// The input of a trace: `size` (unknowns, matrix order …) and `batch` (systems), resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    pub size: usize,
    pub batch: usize,
    pub seed: u64,
}

/// Systems side by side, one texture row each: at most this many fit a slide.
pub(crate) const MAX_BATCH: usize = 8;

/// The check of `--batch` for techniques that put one system in each texture row.
pub(crate) fn check_batch(batch: usize) -> Result<(), String> {
    if batch == 0 || batch > MAX_BATCH {
        return Err(format!(
            "--batch {batch}: between 1 and {MAX_BATCH} systems (one texture row each)"
        ));
    }
    Ok(())
}

/// The check of `--size` for a technique that traces sizes in `range`: outside it, the error
/// `--size N: {what}`.
pub(crate) fn check_size(
    size: usize,
    range: std::ops::RangeInclusive<usize>,
    what: &str,
) -> Result<(), String> {
    if !range.contains(&size) {
        return Err(format!("--size {size}: {what}"));
    }
    Ok(())
}

/// The check of `--batch` for a technique that traces one problem: other than 1, the error
/// `--batch N: {why}`.
pub(crate) fn check_one(batch: usize, why: &str) -> Result<(), String> {
    if batch != 1 {
        return Err(format!("--batch {batch}: {why}"));
    }
    Ok(())
}
