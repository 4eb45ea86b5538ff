//! Tracing the fragment Bi-CG's reduction chain ([`FragmentBicg`], the legacy counterpart of
//! Park, Woo & Kim 2011's CUDA solver): a dot product `Σ aᵢbᵢ` and a max-norm `max |aᵢ|` of
//! two vectors, each a chain of 2×2 → 1 fragment passes over textures of halving size
//! (Krüger & Westermann 2003; Bolz et al. 2003), the last pass writing one texel of the
//! results texture that the host reads — the reductions every Bi-CG iteration runs five times.

use super::error::TraceError;
use super::input::Input;
use super::record::Recorder;
use super::run::{Run, Trace};
use super::technique::Technique;
use crate::gl::Role;
use crate::papers::bicg::EllpackR;
use crate::papers::bicg::fragment::{FragmentBicg, layout};
use crate::util::{RngExt, rng};

/// `trace bicg-reduce`.
pub const REDUCE: Technique = Technique {
    name: "bicg-reduce",
    about: "fragment Bi-CG's 2×2 reduction chain: a dot product and a max-norm",
    default_size: 50,
    default_batch: 1,
    check,
    run,
};

const MAX_N: usize = 256;

fn check(i: &Input) -> Result<(), String> {
    let what = format!("the traced vectors have between 2 and {MAX_N} elements");
    super::input::check_size(i.size, 2..=MAX_N, &what)?;
    super::input::check_one(i.batch, "one pair of vectors (batch 1)")
}

fn run(gl: &crate::gl::Gl, input: &Input) -> Result<Trace, TraceError> {
    let n = input.size;
    let err = |e: crate::papers::bicg::GpuBicgError| TraceError::Solver(e.to_string());
    // The reductions do not touch the matrix; FragmentBicg holds one: the 1D Laplacian.
    let m = EllpackR::from_rows(&laplacian(n)).map_err(|e| TraceError::Solver(e.to_string()))?;
    let mut r = rng(input.seed);
    let mut vec = || -> Vec<f64> {
        (0..n)
            .map(|_| r.random_range(-1.0f32..1.0) as f64)
            .collect()
    };
    let (a, b) = (vec(), vec());
    let mut rec = Recorder::default();
    let mut traced_solver = FragmentBicg::new(gl, &m, true).map_err(err)?;
    let (dot, max) = traced_solver
        .reductions_observed(&a, &b, Some(&mut rec))
        .map_err(err)?;
    let mut plain = FragmentBicg::new(gl, &m, true).map_err(err)?;
    let (pdot, pmax) = plain.reductions(&a, &b).map_err(err)?;
    let traced = traced_results(&rec);
    if traced != [dot as f32, max as f32] {
        return Err(TraceError::Solver(
            "the traced results texels differ from the solver's read-back".into(),
        ));
    }
    let want_dot: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let want_max = a.iter().fold(0f64, |m, x| m.max(x.abs()));
    let (w, h) = layout(n, m.m, gl.info().max_texture_size).map_err(err)?;
    let intro = format!(
        "The reductions of the fragment Bi-CG (`src/papers/bicg/fragment.rs`), the legacy \
         (GL 3.3, fp32, render-to-texture) counterpart of Park, Woo & Kim 2011's CUDA Bi-CG, \
         built the way Krüger & Westermann (2003) and Bolz et al. (2003) ran Krylov solvers \
         on fragment shaders.\n\n\
         Input: two random vectors a, b of n = {n} elements (seed {seed}), each an R32F \
         texture of W × H = {w} × {h} texels (W the smallest power of two with W² ≥ n; \
         element i at texel (i mod W, i div W), padding texels 0). A dot product a·b is a \
         chain of 2×2 → 1 passes: the first multiplies the two vectors and sums 2×2 blocks, \
         each further pass sums 2×2 blocks of the previous level (texels beyond the source \
         count as 0), and the last renders one texel of the 8-texel results texture, read \
         back by the host. The max-norm ‖a‖∞ is the same chain with |a| and max. A Bi-CG \
         iteration runs five such chains.\n\n\
         In the pictures: blue texels were fetched, orange ones drawn (the quad outlined in \
         red); values a pass changed are dark red.",
        seed = input.seed,
    );
    let run = Run::new(
        rec,
        "results".into(),
        traced,
        vec![pdot as f32, pmax as f32],
    );
    let check = format!(
        "a·b = {dot:.6} (f64 on the CPU: {want_dot:.6}), ‖a‖∞ = {max:.6} (CPU: {want_max:.6})"
    );
    Ok(run.finish(REDUCE.name, input, intro, check))
}

/// The rows of the 1D Laplacian of order `n` (2 on the diagonal, −1 beside it).
fn laplacian(n: usize) -> Vec<Vec<(usize, f32)>> {
    (0..n)
        .map(|i| {
            let mut r = vec![(i, 2.0f32)];
            if i > 0 {
                r.push((i - 1, -1.0));
            }
            if i + 1 < n {
                r.push((i + 1, -1.0));
            }
            r
        })
        .collect()
}

/// The traced results: the texel each chain's last pass drew in the results texture.
fn traced_results(rec: &Recorder) -> Vec<f32> {
    rec.passes
        .iter()
        .filter_map(|p| {
            let s = p
                .panels
                .iter()
                .find(|s| s.label == "results" && s.role == Role::Drawn)?;
            let slot = s.quads.first()?.dst[0] as u32;
            Some(s.value(&s.after, slot, 0, 0))
        })
        .collect()
}
