//! Tracing matmul's multipass fragment kernel ([`Multipass`], the `+` row of the matmul
//! table, beyond Park 2019's compute shader): R = A·B over RGBA32F textures, four columns
//! per texel, each pass adding the products of 4 consecutive k to the running sum,
//! ping-ponged between R1 and R2 (the switch method).

use super::error::TraceError;
use super::input::Input;
use super::record::Recorder;
use super::run::{Run, Trace};
use super::technique::Technique;
use crate::gl::{Gl, Role};
use crate::papers::matmul::multipass::Multipass;
use crate::papers::matmul::pack::unpack4;
use crate::papers::matmul::{MatmulError, Matrix, cpu};
use crate::stats::max_rel_error;

/// `trace matmul-multipass`.
pub const MULTIPASS: Technique = Technique {
    name: "matmul-multipass",
    about: "matmul's multipass fragment kernel (beyond Park 2019): N×N, 4 k per pass",
    default_size: 12,
    default_batch: 1,
    check,
    run,
};

/// k per pass traced (`K_CHUNK`): the smallest, one texel of A per pass.
pub const K_CHUNK: u32 = 4;
const MAX_N: usize = 16;

fn check(i: &Input) -> Result<(), String> {
    let what = format!("matmul traces N×N matrices with 2 ≤ N ≤ {MAX_N}");
    super::input::check_size(i.size, 2..=MAX_N, &what)?;
    super::input::check_one(i.batch, "one product (batch 1)")
}

fn run(gl: &Gl, input: &Input) -> Result<Trace, TraceError> {
    let n = input.size;
    let err = |e: MatmulError| TraceError::Solver(e.to_string());
    let a = Matrix::random(n, n, input.seed);
    let b = Matrix::random(n, n, input.seed + 1);
    let kernel = Multipass::new(gl, K_CHUNK).map_err(err)?;
    let mut rec = Recorder::default();
    let mut ops = kernel.upload(&a, &b).map_err(err)?;
    kernel.run_observed(&mut ops, Some(&mut rec)).map_err(err)?;
    let solver_out = kernel.read(&ops).map_err(err)?;
    let untraced = Multipass::new(gl, K_CHUNK)
        .and_then(|k| k.multiply(&a, &b))
        .map_err(err)?
        .data;
    // The traced result: the buffer the last pass drew, unpacked as the kernel reads it.
    let last = rec
        .passes
        .last()
        .and_then(|p| p.panels.iter().find(|s| s.role == Role::Drawn));
    let traced = last
        .map(|s| {
            let texels: Vec<[f32; 4]> = s
                .after
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect();
            unpack4(&texels, n, n)
        })
        .unwrap_or_default();
    super::run::same_as_solver(&traced, &solver_out.data, "kernel's output")?;
    let result_label = last.map(|s| s.label.clone()).unwrap_or_default();
    let run = Run::new(rec, result_label, traced, untraced);
    let want = cpu::reference_f64(&a, &b);
    let e = max_rel_error(&run.traced, &want);
    let n4 = n.div_ceil(4);
    let intro = format!(
        "The matmul paper (Park 2019, *Parallel Algorithm for Matrix-Matrix Multiplication on \
         the GPU*) multiplies in an OpenGL 4.3 compute shader; beside it the matmul table \
         runs, labelled +, the legacy way of 2001–2004: a **multipass fragment kernel** \
         (`glsl/{shader}`, `Multipass` in `src/papers/matmul/gpu.rs`), Larsen & McAllister \
         (2001) and Fatahalian, Sugerman & Hanrahan (2004).\n\n\
         Input: R = A·B with A and B random {n}×{n} matrices (seeds {s0}, {s1}). Each matrix \
         is an RGBA32F rectangle texture, four consecutive columns per texel: texel (x, y) \
         holds M[y][4x … 4x+3] in its channels 0 … 3 (so {n4} × {n} texels; columns beyond \
         N and B's rows beyond N hold zeros). A row of cells is a row i of A and R, or a row \
         k of B. Each pass draws one quad over all of R and adds the products of K_CHUNK = \
         {K_CHUNK} consecutive k (one texel column of A, {K_CHUNK} texel rows of B) to the \
         running sum, read from one buffer of the pair R1/R2 and written to the other (the \
         switch method: no copies); {passes} passes in all. The experiments run the same \
         shader with a larger K_CHUNK tuned on the device (`[table1.tune]` in \
         `experiments/matmul.toml`): fewer, longer passes.\n\n\
         In the pictures: blue texels were fetched by the pass, orange ones were drawn (the \
         quad outlined in red); values the pass changed are dark red. The pass descriptions \
         come from `src/papers/matmul/multipass/trace.rs`.",
        shader = crate::papers::matmul::multipass::MULTIPASS,
        s0 = input.seed,
        s1 = input.seed + 1,
        passes = (4 * n4).div_ceil(K_CHUNK as usize),
    );
    let check = format!("max relative error against A·B in f64 (CPU): {e:.2e}");
    Ok(run.finish(MULTIPASS.name, input, intro, check))
}
