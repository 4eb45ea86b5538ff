//! `gpgpu-repro trace <technique>`: a legacy fragment technique run pass by pass, for teaching.
//!
//! The 2005 papers drew their techniques by hand: Kim & Lee's cyclic reduction (Fig. 2–9) as
//! runs of RGBA texels written level by level into ping-pong buffers, Matsui et al.'s LU
//! (Fig. 3–5) as quads swept over a matrix texture. `trace` draws the same pictures from the
//! real thing: it runs the solver the experiments use — same code, same shaders — on a small
//! input with a [`PassObserver`](crate::gl::PassObserver) attached, which reads back every
//! texture each pass reads and writes, before the draw and after it. Out come one PNG per
//! pass ([`render`]), an animated GIF of the sequence, and `trace.md` ([`markdown`]) narrating
//! each pass: shader, defines, uniforms, quad and texture coordinates, the paper's equation,
//! texels fetched and written.
//!
//! Every technique lives in its own file (the [`TECHNIQUES`] table lists them) and checks its
//! input before anything runs. The traced result is compared with an untraced run of the same
//! solver on the same input: they must agree bit for bit (the observer only reads).
//!
//! Imports: `main` → `trace` → `papers` → `gl` (like the registry, nothing below imports it).

pub mod bicg;
pub mod cg;
pub mod cr;
pub mod cr_tiled;
pub mod lu;
pub mod markdown;
pub mod matmul;
pub mod record;
pub mod render;
pub mod window;

use std::path::{Path, PathBuf};

use crate::gl::{Gl, GlError};
use crate::report::files::{OutputError, write_atomic};
pub use record::{PassRecord, Recorder, Snapshot};

/// What can go wrong in a trace.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("unknown technique `{0}`; known: {1}")]
    Unknown(String, String),
    #[error("{technique} cannot take this input: {why}")]
    BadInput { technique: String, why: String },
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("{0}")]
    Solver(String),
    #[error("drawing the trace: {0}")]
    Render(String),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("creating {path}: {source}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
}

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

/// A traced technique (one file per paper technique under `src/trace/`).
#[derive(Clone, Copy)]
pub struct Technique {
    pub name: &'static str,
    /// One line: paper, figure, what is traced.
    pub about: &'static str,
    pub default_size: usize,
    pub default_batch: usize,
    /// Checks an input before anything runs (a clear error, nothing written).
    pub check: fn(&Input) -> Result<(), String>,
    /// Runs the technique traced, and untraced for the bit-for-bit comparison.
    pub run: fn(&Gl, &Input) -> Result<Trace, TraceError>,
}

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

/// The default output folder of `technique`: `figures/quick/trace/<technique>/` (quick
/// outputs are git-ignored).
pub fn default_out(technique: &str) -> PathBuf {
    Path::new("figures/quick/trace").join(technique)
}

/// The files of a trace, in memory: `(file name, bytes)`.
pub fn files(trace: &Trace) -> Result<Vec<(String, Vec<u8>)>, TraceError> {
    let count = trace.passes.len();
    let heading = trace.heading();
    let mut out = vec![];
    let mut pictures = vec![];
    let mut names = vec![];
    for (i, pass) in trace.passes.iter().enumerate() {
        let pic = render::pass_picture(pass, i, count, &heading).map_err(TraceError::Render)?;
        let name = format!("pass-{:02}-{}.png", i + 1, slug(&pass.title));
        out.push((name.clone(), render::png(&pic).map_err(TraceError::Render)?));
        names.push(name);
        pictures.push(pic);
    }
    out.push((
        "trace.gif".into(),
        render::gif(&pictures, 2000).map_err(TraceError::Render)?,
    ));
    out.push((
        "trace.md".into(),
        markdown::trace_md(trace, &names).into_bytes(),
    ));
    Ok(out)
}

/// Writes the files of a trace into `dir` (created); returns their paths.
pub fn write(trace: &Trace, dir: &Path) -> Result<Vec<PathBuf>, TraceError> {
    let files = files(trace)?;
    std::fs::create_dir_all(dir).map_err(|source| TraceError::Folder {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths = vec![];
    for (name, bytes) in files {
        let path = dir.join(name);
        write_atomic(&path, &bytes)?;
        paths.push(path);
    }
    Ok(paths)
}

/// A file-name fragment of a pass title: lower-case words joined by `-`.
fn slug(title: &str) -> String {
    let words: Vec<String> = title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(4)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    words.join("-")
}
