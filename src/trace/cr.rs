//! Tracing the fragment cyclic reduction of Kim & Lee 2005 (§3.1–3.2, Fig. 2–8), copy and
//! switch methods: [`FragmentCr`], the solver of the experiments, run with a [`Recorder`].
//!
//! `batch` systems of `N = 2^q − 1` unknowns, one system per texture row (Fig. 7), each
//! equation `a_i x_{i−1} + b_i x_i + c_i x_{i+1} = k_i` one RGBA texel `P_i = (a, b, c, k)`
//! of `P0`. The passes:
//!
//! 1. reduction levels `s = 1 … q−1` (eq. 15): level `s` keeps the equations
//!    `i = 2^s, 2·2^s, …`, eliminating their neighbours `i ∓ 2^{s−1}`; its `PC_s` texels go
//!    to the run `[PS_s, PS_s + PC_s)` of the P ping-pong pair, read from level `s − 1`'s run
//!    by a quad whose texture coordinates stride 2 (the rasterizer does the index mapping);
//! 2. switch method only: the gather, copying the even levels' runs into the odd levels'
//!    buffer, so one texture holds every level (the copy method gathers as it goes: each
//!    pass's run is copied back into the one input texture);
//! 3. fill levels `s = q … 1` (eq. 16): the X ping-pong pair holds `x` at multiples of
//!    `2^{s−1}`, doubling in count each level; new unknowns come from level `s − 1`'s
//!    equations;
//! 4. collect: `x_1 … x_N` into the result texture.

use super::error::TraceError;
use super::input::Input;
use super::record::Recorder;
use super::run::{Run, Trace};
use crate::gl::{Gl, PingPongMethod};
use crate::papers::tridiagonal::{BatchSolver, FragmentCr, Systems, thomas_batch_f64};
use crate::stats::max_rel_error;

/// `trace cr-copy`.
pub const COPY: super::technique::Technique = super::technique::Technique {
    name: "cr-copy",
    about: "Kim & Lee 2005 fragment cyclic reduction, copy method (Fig. 2–8)",
    default_size: 15,
    default_batch: 4,
    check,
    run: |gl, input| run(gl, input, PingPongMethod::Copy),
};

/// `trace cr-switch`.
pub const SWITCH: super::technique::Technique = super::technique::Technique {
    name: "cr-switch",
    about: "Kim & Lee 2005 fragment cyclic reduction, switch method (Fig. 2–8)",
    default_size: 15,
    default_batch: 4,
    check,
    run: |gl, input| run(gl, input, PingPongMethod::Switch),
};

/// Largest traced system and batch: the pictures print every value.
const MAX_N: usize = 31;

fn check(i: &Input) -> Result<(), String> {
    let n = i.size;
    if !(3..=MAX_N).contains(&n) || !(n + 1).is_power_of_two() {
        return Err(format!(
            "--size {n}: cyclic reduction traces N = 2^q − 1 unknowns with 2 ≤ q ≤ 5 \
             (3, 7, 15 or 31), the sizes of the paper's Fig. 2–6"
        ));
    }
    super::input::check_batch(i.batch)
}

fn run(gl: &Gl, input: &Input, method: PingPongMethod) -> Result<Trace, TraceError> {
    let (n, batch) = (input.size, input.batch);
    let s = Systems::random(n, batch, false, input.seed);
    let tex = crate::papers::tridiagonal::upload(gl, &s)?;
    let err = |e: crate::papers::tridiagonal::TridiagonalError| TraceError::Solver(e.to_string());
    let mut rec = Recorder::default();
    let mut traced_solver = FragmentCr::new(gl, n, batch, method).map_err(err)?;
    let solver_out = traced_solver
        .solve_observed(&tex, Some(&mut rec))
        .map_err(err)?
        .read()?;
    let mut plain = FragmentCr::new(gl, n, batch, method).map_err(err)?;
    let untraced = plain.solve(&tex).map_err(err)?.read()?;
    let run = Run::of_last_panel(rec, "x (result)", &solver_out, untraced)?;
    let want = thomas_batch_f64(&s).map_err(err)?;
    let e = max_rel_error(&run.traced, &want);
    let q = n.trailing_ones() as usize;
    let l = traced_solver.layout();
    let runs: Vec<String> = l
        .levels
        .iter()
        .map(|v| format!("level {} at [{}, {})", v.s, v.ps, v.ps + v.pc))
        .collect();
    let intro = format!(
        "Kim & Lee 2005, *Fast GPU Implementation for the Solution of Tridiagonal Matrix \
         Systems*, §3.1 (serial cyclic reduction, eq. 15–16) and §3.2 (the fragment-shader \
         version, Fig. 2–8), with the **{method} method** of ping-pong.\n\n\
         Input: {batch} random diagonally dominant systems (seed {seed}) of N = {n} = 2^{q} − 1 \
         unknowns, one system per texture row (`y = j` is system j, Fig. 7). Each equation \
         `a_i x_(i−1) + b_i x_i + c_i x_(i+1) = k_i` is one RGBA32F texel `P_i = (a, b, c, k)` \
         of the rectangle texture P0 (texel i − 1 holds equation i). The {levels} reduction \
         levels are written as runs of the P pair (width {pw} = N' − q − 1): {runs}. The X \
         pair holds N' + 1 = {np1} values of x plus two guard columns of zeros.\n\n\
         {method_note}\n\n\
         In the pictures: blue texels were fetched by the pass, orange ones were drawn (the \
         quad outlined in red), green ones were copied back by `glCopyTexSubImage2D` (copy \
         method). Zeros are grey. The solver is `FragmentCr` \
         (`src/papers/tridiagonal/fragment_cr.rs`), the one the experiments time; the pass \
         descriptions come from `src/papers/tridiagonal/cr_trace.rs`.",
        seed = input.seed,
        levels = l.levels.len(),
        pw = l.p_width,
        runs = runs.join(", "),
        np1 = l.np + 1,
        method_note = match method {
            PingPongMethod::Copy =>
                "Copy method: every pass draws into a render buffer (the pbuffer of 2005), \
                 then `glCopyTexSubImage2D` copies the drawn rectangle back into the one input \
                 texture; the input texture thus collects every level as it is made.",
            PingPongMethod::Switch =>
                "Switch method: the two textures of a pair swap roles after every pass (no \
                 copies). Odd levels end up in P1, even ones in P2; a gather pass copies the \
                 even levels' runs into the odd levels' buffer (§3.2: into the buffer that \
                 holds more data) before the fill.",
        }
    );
    Ok(run.finish(
        match method {
            PingPongMethod::Copy => COPY.name,
            PingPongMethod::Switch => SWITCH.name,
        },
        input,
        intro,
        format!(
            "max relative error against Thomas in f64 (CPU): {e:.2e} (f32 arithmetic, q = {q} \
             levels)"
        ),
    ))
}
