//! Tracing the conjugate-gradient baseline of Kim & Lee 2005 (Table 1, eq. (17), Fig. 10):
//! [`FragmentCg`], the solver of the experiments, run for one iteration with a [`Recorder`],
//! with scalar textures (one unknown per R32F texel) or RGBA-packed ones (four consecutive
//! unknowns per texel: Table 1's "vector texture").
//!
//! The passes: the set-up (the coefficients a, b, c, k each into its own texture, then
//! `r = k − M x` with `x = 0`), one iteration as Table 1 lists it (`ρ = r·r` as a squaring
//! pass and a chain of 2×2 reductions down to a 1×1 texture, `p = r + β p`, `q = M p`,
//! `p·q` as a product pass and its reduction, `x = x + α p`, `r = r − α q`), then `x` into
//! the R32F result. The batch of systems is one block-diagonal system (one global dot
//! product per reduction), so the systems are random symmetric positive-definite ones.

use super::error::TraceError;
use super::input::Input;
use super::record::Recorder;
use super::run::{Run, Trace};
use super::technique::Technique;
use crate::gl::Gl;
use crate::papers::tridiagonal::cg::{cg_fixed_f64, static_fetches};
use crate::papers::tridiagonal::{BatchSolver, FragmentCg, Packing, Systems, TridiagonalError};
use crate::stats::max_rel_error;

/// `trace cg-scalar`.
pub const SCALAR: Technique = Technique {
    name: "cg-scalar",
    about: "Kim & Lee 2005 CG baseline, scalar textures: set-up + 1 iteration (Table 1)",
    default_size: 15,
    default_batch: 4,
    check,
    run: |gl, input| run(gl, input, Packing::Scalar),
};

/// `trace cg-rgba`.
pub const RGBA: Technique = Technique {
    name: "cg-rgba",
    about: "Kim & Lee 2005 CG baseline, RGBA-packed textures: set-up + 1 iteration (Table 1)",
    default_size: 15,
    default_batch: 4,
    check,
    run: |gl, input| run(gl, input, Packing::Rgba),
};

/// Iterations traced: the paper's Table 1 counts one.
pub const ITERATIONS: usize = 1;
const MAX_N: usize = 32;

fn check(i: &Input) -> Result<(), String> {
    let what = format!("CG traces systems of 2 to {MAX_N} unknowns (one texture row each)");
    super::input::check_size(i.size, 2..=MAX_N, &what)?;
    super::input::check_batch(i.batch)
}

fn run(gl: &Gl, input: &Input, packing: Packing) -> Result<Trace, TraceError> {
    let (n, batch) = (input.size, input.batch);
    let s = Systems::random(n, batch, true, input.seed);
    let tex = crate::papers::tridiagonal::upload(gl, &s)?;
    let err = |e: TridiagonalError| TraceError::Solver(e.to_string());
    let mut rec = Recorder::default();
    let mut traced_solver = FragmentCg::new(gl, n, batch, packing, ITERATIONS).map_err(err)?;
    let solver_out = traced_solver
        .solve_observed(&tex, Some(&mut rec))
        .map_err(err)?
        .read()?;
    let mut plain = FragmentCg::new(gl, n, batch, packing, ITERATIONS).map_err(err)?;
    let untraced = plain.solve(&tex).map_err(err)?.read()?;
    let run = Run::of_last_panel(rec, "x (result)", &solver_out, untraced)?;
    let want = cg_fixed_f64(&s, ITERATIONS);
    let e = max_rel_error(&run.traced, &want);
    let lanes = packing.lanes() as usize;
    let w = n.div_ceil(lanes);
    let layout = match packing {
        Packing::Scalar => format!(
            "Every vector (x, r, p, q) and each coefficient is an R32F texture of {n} × {batch} \
             texels: unknown i of system j at texel (i, j)."
        ),
        Packing::Rgba => format!(
            "Every vector (x, r, p, q) and each coefficient is an RGBA32F texture of {w} × \
             {batch} texels, four consecutive unknowns per texel (Table 1's vector texture: a \
             quarter of the fragments and fetches): unknown i of system j in channel i mod 4 \
             (the rows 0 … 3 of a cell) of texel (i div 4, j); the {pad} lanes beyond n are \
             identity rows (b = 1, k = 0), so their unknowns stay 0.",
            pad = lanes * w - n
        ),
    };
    let fetched = static_fetches(packing, n, batch);
    let intro = format!(
        "Kim & Lee 2005, *Fast GPU Implementation for the Solution of Tridiagonal Matrix \
         Systems*: the GPU conjugate gradient its cyclic reduction is compared with (Table 1, \
         Fig. 11; eq. (17) and Fig. 10 give its x update), built as Krüger & Westermann \
         (2003) and Bolz et al. (2003) built CG on fragment shaders, with **{packing} \
         textures**.\n\n\
         Input: {batch} random symmetric positive-definite tridiagonal systems (seed {seed}) \
         of n = {n} unknowns, one per texture row, treated as one block-diagonal system (one \
         dot product over the whole batch), as RGBA texels (a, b, c, k). {layout} Scalars (ρ, \
         ρ_old, p·q) live in 1×1 textures that the passes fetch: nothing is read back between \
         passes. The trace runs the set-up and {ITERATIONS} iteration, the passes Table 1 \
         counts the texture fetches of (on this input {setup} floats in the set-up and {iter} \
         per iteration, the 1×1 scalars not counted: `static_fetches` in `cg.rs`); the \
         ping-pong pairs x1/x2, r1/r2, p1/p2 swap roles every update (the switch method).\n\n\
         In the pictures: blue texels were fetched by the pass, orange ones were drawn (the \
         quad outlined in red); values the pass changed are dark red. The solver is \
         `FragmentCg` (`src/papers/tridiagonal/cg.rs`), the one the experiments time; the \
         pass descriptions come from `src/papers/tridiagonal/cg_trace.rs`.",
        packing = match packing {
            Packing::Scalar => "scalar",
            Packing::Rgba => "RGBA-packed",
        },
        seed = input.seed,
        setup = fetched.0,
        iter = fetched.1,
    );
    Ok(run.finish(
        match packing {
            Packing::Scalar => SCALAR.name,
            Packing::Rgba => RGBA.name,
        },
        input,
        intro,
        format!(
            "max relative error against the same {ITERATIONS} CG iteration in f64 (CPU): \
             {e:.2e}"
        ),
    ))
}
