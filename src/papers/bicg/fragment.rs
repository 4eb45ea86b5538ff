//! Bi-CG in the legacy pipeline: the preconditioned Bi-CG of [`super::cpu`] as render-to-texture
//! fragment passes in fp32 (GL 3.3), the way Bolz et al. (2003) and Krüger & Westermann (2003)
//! ran Krylov solvers before compute shaders — beyond the paper (which used CUDA), the legacy
//! counterpart of the compute build [`super::gpu::GpuBicg`]`<f32>` on the same matrix.
//!
//! **Layout.** Every vector is an R32F 2D texture `W × H` with `W` the smallest power of two
//! with `W² ≥ n` (capped by `GL_MAX_TEXTURE_SIZE`) and `H = ⌈n/W⌉`: element i at texel
//! (i mod W, i div W), padding texels 0. The ELLPACK-R matrix ([`EllpackR`](super::ellpack::EllpackR), eq. 5) keeps its
//! slot-major order: `val` and `col` are `W × (m·H)` textures, slot k of row i at
//! (i mod W, k·H + i div W) — the `val[k·N + i]` of the compute build, one block of rows per
//! slot — and `rl` and the diagonal are vectors (the diagonal padded with 1). Column indices
//! and row lengths are stored as floats, exact below 2²⁴ ([`MAX_EXACT`]).
//!
//! **Passes** (`glsl/bicg/frag_*.frag`, each a full-texture quad into a switch-method
//! [`PingPong`] of the vector it writes): `frag_spmv` (z = A p: the fragment of row i loops over
//! its `rl[i]` slots), `frag_axpy` (a + s·b: the direction and solution updates, r = b − Ax, and
//! a copy with s = 0), `frag_asolve` (z = r / diag A). A dot product or a max-norm is a chain of
//! 2×2 → 1 `frag_reduce` passes over textures of halving size, the first multiplying two
//! vectors (or taking |a|), the last rendering into one texel of a small results texture, as
//! the compute build's reductions fill its results buffer. Per iteration the host reads the
//! results back three times (ρ; z·p̄; ‖z‖∞, ‖p‖∞, ‖x‖∞ in one read) and computes β and α in
//! f64, which go to the next passes as uniforms — the same scalars, read at the same points,
//! as the compute build. One iteration is 10 vector passes and 5 reductions of
//! `⌈log₂ max(W, H)⌉` passes each.
//!
//! **Work** ([`FragmentBicg::work`]) is tallied per pass from the texels it reads and writes
//! (4 bytes each; the gathered x of the SpMV counted once per stored entry, no cache model),
//! as `gpu/work.rs` counts the compute dispatches: SpMV `4(n + 3·nnz + n)` bytes and `2·nnz`
//! flops; an axpy `12n` bytes, `2n` flops; asolve `12n` bytes, `n` flops; a reduction pass
//! over `s` source texels into `o` `4(s·k + o)` bytes (k = 2 for the product pass) and
//! `s·k` flops.
//!
//! The parts, in `fragment/`: `build.rs` (the textures, chain and programs), `passes.rs` (the
//! vector passes), `reduce.rs` (the reduction chains), `steps.rs` (the passes as the steps of
//! [`linbcg`]).

mod build;
mod passes;
mod reduce;
mod steps;

use std::cell::Cell;
use std::rc::Rc;

use super::cpu::{BicgInfo, BicgParams};
use super::gpu::GpuBicgError;
use super::linbcg::{self, PNRM, RHO, Slot, V};
pub use super::reduce_trace::REDUCE;
use super::reduce_trace::reduce_defines;
use crate::bench::{Kind, Work};
use crate::gl::{
    Define, Gl, GlError, PassObserver, PingPong, Program, QuadBatch, Rect, RenderTexture, Texture,
};

/// Column indices and row lengths are stored as f32: exact up to 2²⁴.
pub const MAX_EXACT: usize = 1 << 24;

/// The shaders of the fragment build.
pub const SPMV: &str = "bicg/frag_spmv.frag";
pub const AXPY: &str = "bicg/frag_axpy.frag";
pub const ASOLVE: &str = "bicg/frag_asolve.frag";

/// The SpMV's `#define`s for a layout `w` (a power of two) texels wide.
fn spmv_defines(w: u32) -> Vec<Define> {
    vec![
        Define::new("W", w),
        Define::new("LOG_W", w.trailing_zeros()),
    ]
}

/// Every program the fragment build compiles (the SpMV at one width): what the shader test
/// compiles.
pub fn programs() -> Vec<(&'static str, Vec<Define>)> {
    let mut v = vec![(SPMV, spmv_defines(1024)), (AXPY, vec![]), (ASOLVE, vec![])];
    for (max, first) in [(false, true), (false, false), (true, true), (true, false)] {
        v.push((REDUCE, reduce_defines(max, first)));
    }
    v
}

/// The vector layout `(W, H)` for `n` rows with `m` slots on a device whose largest texture
/// is `max_size`, or why it does not fit (checked before anything is allocated).
pub fn layout(n: usize, m: usize, max_size: i32) -> Result<(u32, u32), GpuBicgError> {
    if n > MAX_EXACT {
        return Err(GpuBicgError::TooLarge {
            what: format!("{n} rows"),
            limit: format!(
                "the fragment build stores column indices as f32, exact up to {MAX_EXACT}"
            ),
        });
    }
    let max = max_size.max(1) as u64;
    let cap = 1u64 << (63 - max.leading_zeros());
    let mut w = 1u64;
    while w * w < n as u64 && w < cap {
        w *= 2;
    }
    let h = (n as u64).div_ceil(w).max(1);
    let slots = h * m.max(1) as u64;
    if slots > max {
        return Err(GpuBicgError::TooLarge {
            what: format!("{n} rows × {m} slots need a {w}×{slots} texture"),
            limit: format!("GL_MAX_TEXTURE_SIZE is {max_size}"),
        });
    }
    Ok((w as u32, h as u32))
}

/// The matrix in textures.
struct MatrixTextures {
    val: Texture,
    col: Texture,
    rl: Texture,
}

const RESULTS: u32 = linbcg::RESULTS as u32;

/// The programs of one build.
struct Programs {
    spmv: Rc<Program>,
    axpy: Rc<Program>,
    asolve: Rc<Program>,
    /// `[sum first, sum, max first, max]`.
    reduce: [Rc<Program>; 4],
}

/// The fp32 Bi-CG as fragment passes, holding one matrix in textures (see the module docs).
pub struct FragmentBicg {
    gl: Gl,
    n: usize,
    nnz: usize,
    w: u32,
    h: u32,
    a: MatrixTextures,
    /// Aᵀ; `None` when A is symmetric and its own textures serve.
    at: Option<MatrixTextures>,
    diag: Texture,
    vecs: Vec<PingPong>,
    /// The reduction chain: render targets of halving size below `W × H`, with their quads.
    chain: Vec<(RenderTexture, QuadBatch)>,
    results: RenderTexture,
    /// One quad per texel of the results texture.
    slots: Vec<QuadBatch>,
    full: QuadBatch,
    prog: Programs,
    work: Cell<Work>,
}

/// `data` as f32, padded with `pad` to `w × h`.
fn wrap(data: impl Iterator<Item = f32>, w: u32, h: u32, pad: f32) -> Vec<f32> {
    let mut v: Vec<f32> = data.collect();
    v.resize(w as usize * h as usize, pad);
    v
}

impl FragmentBicg {
    /// The vector layout (W, H) in texels.
    pub fn layout(&self) -> (u32, u32) {
        (self.w, self.h)
    }

    /// The work of every pass since the last [`Self::reset_work`] (see the module docs).
    pub fn work(&self) -> Work {
        self.work.get()
    }

    pub fn reset_work(&self) {
        self.work.set(Work {
            kind: Kind::Fragment,
            ..Default::default()
        });
    }

    /// Reads `count` results from texel `first` on, in f64.
    fn read_results(&self, first: Slot, count: u32) -> Result<Vec<f64>, GlError> {
        Ok(self
            .results
            .texture()
            .read_rect(Rect::new(first.index() as u32, 0, count, 1))?
            .into_iter()
            .map(f64::from)
            .collect())
    }

    /// Replaces the state of vector `v` with `data` (padded with zeros).
    fn upload(&mut self, v: V, data: &[f64]) -> Result<(), GlError> {
        let d = wrap(data.iter().map(|&x| x as f32), self.w, self.h, 0.0);
        self.vecs[v as usize].upload(&d)
    }

    fn read(&self, v: V) -> Result<Vec<f64>, GlError> {
        let mut x = self.vecs[v as usize].read()?;
        x.truncate(self.n);
        Ok(x.into_iter().map(f64::from).collect())
    }

    /// Solves A x = b from `x0` (NR `linbcg`, `itol = 4`: [`linbcg::solve`] over this
    /// solver's passes, as [`super::gpu::GpuBicg::solve`] over its kernels). The iterate
    /// comes back in f64 whether or not the solve converged.
    pub fn solve(
        &mut self,
        b: &[f64],
        x0: &[f64],
        params: &BicgParams,
    ) -> Result<(Vec<f64>, BicgInfo), GpuBicgError> {
        linbcg::solve(self, b, x0, params)
    }

    /// y = A x (or Aᵀ x) through the SpMV pass: the test of the pass.
    pub fn apply(&mut self, x: &[f64], transpose: bool) -> Result<Vec<f64>, GpuBicgError> {
        if x.len() != self.n {
            return Err(GpuBicgError::Length {
                got: x.len(),
                n: self.n,
            });
        }
        self.upload(V::X, x)?;
        self.spmv(transpose, V::X, V::Z)?;
        Ok(self.read(V::Z)?)
    }

    /// Σ aᵢbᵢ and max |aᵢ| through the reduction passes (for the tests).
    pub fn reductions(&mut self, a: &[f64], b: &[f64]) -> Result<(f64, f64), GpuBicgError> {
        self.reductions_observed(a, b, None)
    }

    /// [`Self::reductions`] with an observer called before and after every pass of both
    /// chains (the `trace` command).
    pub fn reductions_observed(
        &mut self,
        a: &[f64],
        b: &[f64],
        mut obs: Option<&mut dyn PassObserver>,
    ) -> Result<(f64, f64), GpuBicgError> {
        for len in [a.len(), b.len()] {
            if len != self.n {
                return Err(GpuBicgError::Length {
                    got: len,
                    n: self.n,
                });
            }
        }
        self.upload(V::P, a)?;
        self.upload(V::Pp, b)?;
        self.reduce_observed(V::P, Some(V::Pp), RHO, obs.as_deref_mut())?;
        self.reduce_observed(V::P, None, PNRM, obs)?;
        let s = self.read_results(RHO, 4)?;
        Ok((s[0], s[3]))
    }
}
