//! Beyond the paper: cyclic reduction and parallel cyclic reduction in GL 4.3 compute
//! shaders (Zhang, Cohen & Owens, "Fast Tridiagonal Solvers on the GPU", PPoPP 2010 style).
//!
//! One work group per system reads its row of the systems texture (`imageLoad`), solves in
//! shared memory, and writes `x` with `imageStore`. A system too big for shared memory (the
//! device's `GL_MAX_COMPUTE_SHARED_MEMORY_SIZE`) takes the global-memory path: the same
//! shader with its arrays in a scratch SSBO (one slice per work group), the barriers made
//! visible with `memoryBarrierBuffer`.
//!
//! - **CR** (`cr.comp`): eq. (15)/(16) in place, `2(q-1)+1` barrier-separated steps, `O(n)`
//!   work; `n` padded to `2^q - 1` with identity rows.
//! - **PCR** (`pcr.comp`): every step reduces every equation (`d = 1, 2, 4, …`),
//!   `⌈log₂ n⌉` steps, `O(n log n)` work, no fill phase; any `n`.
//!
//! The parts, in `compute/`: `launch.rs` (the memory path, the work-group size and the
//! launch checks), `solver.rs` ([`ComputeCr`], [`ComputePcr`]), `work.rs` (the work of a CR
//! and a PCR solve on either path), `passes.rs` ([`ComputeCrPasses`]: the fragment CR's
//! passes as one dispatch per level).

mod launch;
mod passes;
mod solver;
mod work;

pub use launch::{DEFAULT_LOCAL, Memory, clamped_local};
pub use passes::{CR_PASS, ComputeCrPasses, PassLevel, cr_pass_levels, cr_pass_work};
pub use solver::{ComputeCr, ComputePcr};
pub use work::{cr_work, pcr_work};
