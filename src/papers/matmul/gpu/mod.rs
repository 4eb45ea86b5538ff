//! The GPU multiplications: the paper's (Algorithms 1 + 2) and two beyond it.
//!
//! Each has the same three steps, so that the experiment can time the compute alone as the
//! paper did: `upload` (the paper's `glOpenBuffer` + `glWriteBuffer`), `run` (the dispatch
//! loop, the timed region), `read` (`glReadBuffer`).
//!
//! The paper's wrapper calls, mapped onto real GL (Algorithm 1):
//! - `glOpenBuffer(ssbo)` = `glGenBuffers` — [`Buffer`](crate::gl::Buffer) creation;
//! - `glWriteBuffer(ssbo, 0, bytes, data, binding, usage)` = `glBindBuffer(GL_SHADER_STORAGE_
//!   BUFFER)` + `glBufferData(bytes, data, usage)` + `glBindBufferBase(binding)` —
//!   [`Buffer::from_slice`](crate::gl::Buffer::from_slice) /
//!   [`Buffer::zeroed`](crate::gl::Buffer::zeroed) then [`Buffer::bind`](crate::gl::Buffer::bind) (R is written with
//!   `NULL` data in the paper; we zero it so that an unwritten element cannot pass as right);
//! - `glReadBuffer(ssbo, 0, bytes, dst)` = `glGetBufferSubData` — [`Buffer::read`](crate::gl::Buffer::read) (not the
//!   GL function `glReadBuffer`, which selects a framebuffer colour buffer);
//! - `glCloseBuffer(ssbo, binding)` = `glBindBufferBase(binding, 0)` + `glDeleteBuffers` — the
//!   buffers' `Drop`.
//!
//! **Work** of one timed `run` on an m×n by n×l product (what Table 1's bound columns read;
//! every SSBO access or texture fetch counts once, no cache model; fp32, an FMA = 2 flops):
//!
//! - the paper's kernel ([`Park2019Params::work`], tile `b`): the `G = ⌈l/b⌉·⌈m/b⌉` groups
//!   the matrix needs each read their `b×b` tiles of A and B once per k-step, `S = ⌈n/b⌉`
//!   steps, and (as printed) store their R element on every step:
//!   `bytes = G·S·2b²·4 + S·m·l·4`; every invocation of every *launched* group runs the
//!   `b`-long FMA loop per step: `flops = G_launched·S·2b³` (= 2N³ for the needed-groups
//!   launch where b divides N; Algorithm 1 as printed launches 64×64 groups per dispatch,
//!   whose extra groups multiply zero tiles without reading memory); dispatches
//!   `⌈⌈l/b⌉/64⌉·⌈⌈m/b⌉/64⌉`. Ragged edge tiles are counted whole (their guarded loads
//!   read less).
//! - the blocked kernel ([`BlockedParams::work`]): `I = ⌈l₄/TN⌉·⌈m/TM⌉`
//!   invocations (l₄ = ⌈l/4⌉) each read `n·TN` vec4s of B and `n·TM` floats of A and write
//!   `TM·TN` vec4s: `bytes = I·n·(16·TN + 4·TM) + m·l₄·16`, `flops = I·n·TM·TN·8`; one
//!   dispatch. With shared-memory tiles (`kwg` > 0) the memory reads are the work groups'
//!   tiles instead: `G = ⌈l₄/(TN·WG_X)⌉·⌈m/(TM·WG_Y)⌉` groups each load `n'` = n rounded up to
//!   a multiple of `kwg` k of their `TM·WG_Y` rows of A and `TN·WG_X` vec4 columns of B:
//!   `bytes = G·n'·(16·TN·WG_X + 4·TM·WG_Y) + m·l₄·16` (shared-memory traffic not counted).
//!   The same counts whether A and B are read from SSBOs or with `texelFetch` ([`Reads`]).
//!
//! The parts: `park2019.rs` (the paper's), `blocked.rs` (the blocked kernel), `programs.rs`
//! (every program variant, in one place).

mod blocked;
mod park2019;
mod programs;
#[cfg(test)]
mod work_tests;

pub use crate::gl::Reads;
pub use blocked::{
    BLOCKED, Blocked, BlockedOperands, BlockedParams, MAX_REGISTER_BLOCK, MIN_SHARED_BYTES,
};
pub use park2019::{Info, Operands, PARK2019, Park2019, Park2019Params};
pub use programs::programs;
