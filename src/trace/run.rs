//! A traced run (`Run`) and the finished trace ([`Trace`]): the passes, the traced result
//! and the untraced one, which must agree bit for bit.

use super::error::TraceError;
use super::input::Input;
use super::record::{PassRecord, Recorder};

/// The traced result must be the solver's own output, bit for bit: `traced` (what the last
/// pass left, read back by the observer) against `solver` (what the traced solve returned).
pub(crate) fn same_as_solver(traced: &[f32], solver: &[f32], what: &str) -> Result<(), TraceError> {
    if traced != solver {
        return Err(TraceError::Solver(format!(
            "the last pass's read-back differs from the {what}"
        )));
    }
    Ok(())
}

/// A traced run before its words: the passes it recorded and its result, traced and
/// untraced (see [`Trace`]).
pub(crate) struct Run {
    passes: Vec<PassRecord>,
    result_label: String,
    pub traced: Vec<f32>,
    untraced: Vec<f32>,
}

impl Run {
    pub(crate) fn new(
        rec: Recorder,
        result_label: String,
        traced: Vec<f32>,
        untraced: Vec<f32>,
    ) -> Self {
        Self {
            passes: rec.passes,
            result_label,
            traced,
            untraced,
        }
    }

    /// The run whose result is what the last pass left in its panel `label` (empty when
    /// there is none), checked with [`same_as_solver`] against the solver's output.
    pub(crate) fn of_last_panel(
        rec: Recorder,
        label: &str,
        solver: &[f32],
        untraced: Vec<f32>,
    ) -> Result<Self, TraceError> {
        let traced = rec
            .passes
            .last()
            .and_then(|p| p.panel(label))
            .map(|p| p.after.clone())
            .unwrap_or_default();
        same_as_solver(&traced, solver, "solver's output")?;
        Ok(Self::new(rec, label.to_string(), traced, untraced))
    }

    /// The finished trace of `technique` on `input`: its introduction and its check against
    /// the CPU reference, in words.
    pub(crate) fn finish(
        self,
        technique: &'static str,
        input: &Input,
        intro: String,
        check: String,
    ) -> Trace {
        Trace {
            technique,
            input: *input,
            intro,
            passes: self.passes,
            result_label: self.result_label,
            traced: self.traced,
            untraced: self.untraced,
            check,
        }
    }
}

/// A finished trace.
pub struct Trace {
    pub technique: &'static str,
    pub input: Input,
    /// The Markdown introduction: the paper, the data layout, how to read the pictures.
    pub intro: String,
    pub passes: Vec<PassRecord>,
    /// Label of the result panel in the last pass.
    pub result_label: String,
    /// The result as the trace shows it (the last pass's result texture, read back).
    pub traced: Vec<f32>,
    /// The same solver's output on the same input, run without an observer.
    pub untraced: Vec<f32>,
    /// How the result compares with the CPU reference, in words.
    pub check: String,
}

impl Trace {
    /// The technique and its input, for the pictures' headings: `cr-copy (size 15, 4
    /// systems)`, or `lu-i3-copy (size 8)` for one system.
    pub fn heading(&self) -> String {
        match self.input.batch {
            1 => format!("{} (size {})", self.technique, self.input.size),
            b => format!("{} (size {}, {b} systems)", self.technique, self.input.size),
        }
    }

    /// Whether the traced and untraced results agree bit for bit.
    pub fn bit_identical(&self) -> bool {
        self.traced.len() == self.untraced.len()
            && self
                .traced
                .iter()
                .zip(&self.untraced)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}
