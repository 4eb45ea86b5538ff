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
//! [`PingPong`](crate::gl::PingPong) of the vector it writes): `frag_spmv` (z = A p: the fragment of row i loops over
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
//! The parts, in `fragment/`: `solver.rs` (the solver's state, uploads and read-backs),
//! `layout.rs` (the texel layout), `programs.rs` (the shaders and their `#define`s), `build.rs`
//! (the textures, chain and programs), `passes.rs` (the vector passes), `reduce.rs` (the
//! reduction chains), `steps.rs` (the passes as the steps of [`linbcg`](super::linbcg)).

mod build;
mod layout;
mod passes;
mod programs;
mod reduce;
mod solver;
mod steps;

pub use super::reduce_trace::REDUCE;
pub use layout::{MAX_EXACT, layout};
pub use programs::{ASOLVE, AXPY, SPMV, programs};
pub use solver::FragmentBicg;
