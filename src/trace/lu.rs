//! Tracing LU without pivoting of Matsui, Ino & Hagihara 2005 (§3.3–3.5, Fig. 2–5): the
//! implementations I1–I4 under the copy and the switch method, [`FragmentLu`] (the solver of
//! the experiments) run with a [`Recorder`].
//!
//! Step `i` of right-looking LU (Fig. 2) divides the L column by the pivot and subtracts the
//! outer product from the trailing block. I1 draws the two as an L pass and a U pass (Fig. 3);
//! I2 as one pass that branches per fragment (Fig. 4); I3 and I4 pack four rows into an RGBA
//! texel (Fig. 5(d)), so a texture of `N/4 × N` texels, and update four rows per fragment;
//! the left-edge texel column of a step must keep its first channels (I3: one of four
//! programs chosen on the CPU; I4: a branch in the shader). Under the switch method each pass
//! also carries forward the texels the previous pass computed outside its rectangle.

use super::error::TraceError;
use super::input::Input;
use super::record::Recorder;
use super::run::{Run, Trace};
use super::technique::Technique;
use crate::gl::{Gl, PingPongMethod, Role};
use crate::papers::lu::cpu::{diag_dominant, lu_f64_of};
use crate::papers::lu::fragment::unpack;
use crate::papers::lu::{FragmentLu, Params, Variant};
use crate::stats::max_rel_error;

macro_rules! technique {
    ($name:literal, $v:ident, $m:ident, $about:literal) => {
        Technique {
            name: $name,
            about: $about,
            default_size: 8,
            default_batch: 1,
            check: |i| check(i, Variant::$v),
            run: |gl, i| run(gl, i, Variant::$v, PingPongMethod::$m),
        }
    };
}

/// The eight `trace lu-…` techniques.
pub const ALL: [Technique; 8] = [
    technique!(
        "lu-i1-copy",
        I1,
        Copy,
        "Matsui et al. 2005 LU I1 (L and U pass, Fig. 3), copy method"
    ),
    technique!(
        "lu-i1-switch",
        I1,
        Switch,
        "Matsui et al. 2005 LU I1 (L and U pass, Fig. 3), switch method"
    ),
    technique!(
        "lu-i2-copy",
        I2,
        Copy,
        "Matsui et al. 2005 LU I2 (one branching pass, Fig. 4), copy method"
    ),
    technique!(
        "lu-i2-switch",
        I2,
        Switch,
        "Matsui et al. 2005 LU I2 (one branching pass, Fig. 4), switch method"
    ),
    technique!(
        "lu-i3-copy",
        I3,
        Copy,
        "Matsui et al. 2005 LU I3 (4 rows per RGBA texel, Fig. 5), copy method"
    ),
    technique!(
        "lu-i3-switch",
        I3,
        Switch,
        "Matsui et al. 2005 LU I3 (4 rows per RGBA texel, Fig. 5), switch method"
    ),
    technique!(
        "lu-i4-copy",
        I4,
        Copy,
        "Matsui et al. 2005 LU I4 (I3 + edge branch in the shader), copy method"
    ),
    technique!(
        "lu-i4-switch",
        I4,
        Switch,
        "Matsui et al. 2005 LU I4 (I3 + edge branch in the shader), switch method"
    ),
];

const MAX_N: usize = 16;

fn check(i: &Input, v: Variant) -> Result<(), String> {
    let n = i.size;
    let what = format!("the traced matrix order N is between 2 and {MAX_N}");
    super::input::check_size(n, 2..=MAX_N, &what)?;
    if v.vector() && !n.is_multiple_of(4) {
        return Err(format!(
            "--size {n}: {v} packs four rows into one RGBA texel; trace N = 4, 8, 12 or 16 \
             (the solver would pad other sizes with an identity block)"
        ));
    }
    super::input::check_one(i.batch, "LU factors one matrix (batch 1)")
}

fn run(gl: &Gl, input: &Input, v: Variant, method: PingPongMethod) -> Result<Trace, TraceError> {
    let n = input.size;
    let a = diag_dominant(n, input.seed);
    let params = Params::new(v, method);
    let err = |e: crate::papers::lu::LuError| TraceError::Solver(e.to_string());
    let mut rec = Recorder::default();
    let mut lu = FragmentLu::new(gl, &a, n, params).map_err(err)?;
    lu.run_observed(Some(&mut rec)).map_err(err)?;
    let solver_out = lu.factors().map_err(err)?;
    let mut plain = FragmentLu::new(gl, &a, n, params).map_err(err)?;
    plain.run().map_err(err)?;
    let untraced = plain.factors().map_err(err)?;
    // The result: the texture the last pass left as the input of a next one.
    let last = rec
        .passes
        .last()
        .ok_or_else(|| TraceError::Solver("the decomposition ran no pass".into()))?;
    let result = last
        .panels
        .iter()
        .find(|p| match method {
            PingPongMethod::Copy => p.role == Role::ReadThenCopied,
            PingPongMethod::Switch => p.role == Role::Drawn,
        })
        .ok_or_else(|| TraceError::Solver("no result texture in the last pass".into()))?;
    // The paper's switch method leaves each finished entry in the texture that finished it
    // (issue 38): the readback gathers them from both textures and the L texture.
    let after = |label: &str| {
        last.panels
            .iter()
            .find(|p| p.label == label)
            .map(|p| p.after.as_slice())
    };
    let traced = match (method, after("A1"), after("A2")) {
        (PingPongMethod::Switch, Some(a1), Some(a2)) => {
            unpack(&lu.gather([a1, a2], after("A_L")), n, params)
        }
        _ => unpack(&result.after, n, params),
    };
    let result_label = result.label.clone();
    super::run::same_as_solver(&traced, &solver_out, "solver's factors")?;
    let run = Run::new(rec, result_label, traced, untraced);
    let want = lu_f64_of(&a, n).map_err(err)?;
    let e = max_rel_error(&run.traced, &want);
    let intro = intro(n, input.seed, v, method);
    let technique = ALL
        .iter()
        .find(|t| {
            t.name
                .ends_with(&format!("{}-{method}", v.name().to_lowercase()))
        })
        .map(|t| t.name)
        .unwrap_or("lu");
    let check = format!("max relative error of the factors against LU in f64 (CPU): {e:.2e}");
    Ok(run.finish(technique, input, intro, check))
}

/// The trace's introduction: the paper, the input and its layout in the texture (scalar or
/// four rows per texel), what a step does, and the ping-pong method.
fn intro(n: usize, seed: u64, v: Variant, method: PingPongMethod) -> String {
    let layout = if v.vector() {
        format!(
            "I{} packs the matrix four rows per texel (§3.5, Fig. 5(d)): an RGBA32F rectangle \
             texture of {} × {n} texels, texel (b, k) holding A[4b + c][k] in channel c = 0…3 \
             (in the pictures: the column `col = k` is a texture row, the texel column b holds \
             rows 4b … 4b + 3 as the lines 0–3).",
            &v.name()[1..],
            n / 4
        )
    } else {
        format!(
            "The matrix is an {n} × {n} RGBA32F rectangle texture, texel (k, j) holding A_jk in \
             its red channel (the paper's layout; only A is shown): the pictures show the matrix \
             as it is, row j = texture row."
        )
    };
    format!(
        "Matsui, Ino & Hagihara 2005, *Design and Implementation of LU Decomposition on the \
         Programmable GPU*: right-looking LU without pivoting (Fig. 2), implementation \
         **{v}** with the **{method} method**.\n\n\
         Input: a random diagonally dominant {n} × {n} matrix (seed {seed}; \
         `papers::lu::cpu::diag_dominant`). {layout} Step i (0-based; the paper counts from \
         1) divides the L column below the pivot by A_ii and subtracts A_ik · A_ji from the \
         trailing block; the last step has nothing to do. At the end the texture holds L \
         (below the diagonal, unit diagonal implied) and U (on and above).\n\n\
         {method_note}\n\n\
         In the pictures: blue texels were fetched, orange ones drawn (red outline: the \
         quads), green ones \
         copied back by `glCopyTexSubImage2D`. The solver is `FragmentLu` \
         (`src/papers/lu/fragment/mod.rs`), the one the experiments time; the pass \
         descriptions come from `src/papers/lu/fragment/lu_trace.rs`.",
        method_note = match method {
            PingPongMethod::Copy =>
                "Copy method (§3.3), as the paper ran it (Table 1's bytes, issue 38): each pass \
                 draws into the render buffer (2005: a pbuffer), then `glCopyTexSubImage2D` \
                 copies the step's whole active block (L column and trailing block) into the \
                 one input texture.",
            PingPongMethod::Switch =>
                "Switch method (§3.3), as the paper ran it (issue 38): no texel is drawn twice. \
                 I2: A1 and A2 swap roles after every pass, each pass reading only what the \
                 previous one drew. I1, I3, I4: the L passes draw the L column into a third \
                 texture A_L; the U passes read it beside the last U output and alternate \
                 between A1 and A2. Each finished entry stays in the texture that finished it, \
                 and the readback gathers them (`papers::lu::fragment` module docs). The \
                 labelled alternative \"switch (carry)\" (two textures, carried texels) is \
                 timed in `reproduce lu`'s table4.",
        }
    )
}
