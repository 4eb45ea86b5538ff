//! LU without pivoting in fragment-shader passes: the paper's implementations I1–I4 (§3.3–3.5)
//! under the copy and the switch method (§3.3), with the instrumentation of §4.1.
//!
//! # Layouts
//! - **Scalar** (I1, I2): an `N × N` rectangle texture, texel `(k, j)` holding `A_jk` in its
//!   red channel. The paper's textures were RGBA with one channel used (§3.6 counts 16 bytes
//!   per element); [`Params::scalar_format`] picks RGBA32F (the paper) or R32F.
//! - **Vector** (I3, I4, §3.5, Fig. 5(d)): an `N/4 × N` RGBA32F texture, texel `(b, k)`
//!   holding rows `4b … 4b+3` of column `k`. `N` that is not a multiple of 4 is padded to
//!   `N' = 4⌈N/4⌉` with an identity block (`diag(A, I)` factors as `diag(L, I)·diag(U, I)`).
//!
//! # Passes of step `i` (0-based; the paper numbers steps from 1)
//! - I1 (Fig. 3): L pass over column `i` below the pivot (`N−i−1` texels), then U pass over
//!   the trailing block (`(N−i−1)²` texels): two programs, chosen by the CPU.
//! - I2 (Fig. 4): one pass over the L column and the trailing block (`(N−i)(N−i−1)`
//!   texels); the fragment branches on `k == i`. Its update is `A_jk − A_ik·A_ji/A_ii` in
//!   the order Fig. 4 prints it (the product, then the division), so its factors need not
//!   equal I1's; [`I2Order::DivideFirst`] is the labelled I2 that does (issue 38).
//! - I3: I1 on the vector layout. The pass's left-edge texel column `b₀ = ⌊(i+1)/4⌋` holds
//!   rows `≤ i` in its first `s = (i+1) mod 4` channels, which must not change: the CPU draws
//!   the edge with one of four programs (RGBA, GBA, BA, A) and the rest with the RGBA one.
//! - I4: I3 with one program per pass that branches on the fragment's position instead.
//!
//! The last step (`i = N−1`) has nothing to update and issues no pass: we run `2(N−1)` passes
//! for I1, where the paper's Table 1 counts `2N` (its sums run over `i = 1 … N`).
//!
//! # The two methods as the paper ran them, and the labelled alternatives (issue 38)
//! [`Feed::Paper`] (the default) is the paper's; [`Feed::Alt`] keeps the forms this module
//! first built, labelled "copy (rendered only)" and "switch (carry)" ([`method_label`]).
//!
//! **Copy method (§3.3, Table 1).** Table 1's copied bytes are `32N(N²−1)/3` for I1 — at 16
//! bytes per element, *twice* the `S_L + S_U = N(N²−1)/3` elements the L and U passes render
//! (eqs. 1–2) — and `16N(N²−1)/3` for I2, exactly its region (eq. 3). Table 4 agrees: T(I1)
//! ≈ 2·T(I2) at every N ≥ 256. The paper's I1 therefore copies, after *each* of its two
//! passes, the step's whole active block (the bounding rectangle of the L column and the
//! trailing block, Fig. 5(c): `(N−i)(N−i−1)` elements at step `i`, 0-based), summing to
//! `2N(N²−1)/3` elements. We do that (the copy-method render buffer starts holding the matrix
//! too, so that step 0's L pass copies valid texels). For I3/I4 the same rule copies
//! `2·16·(ΣL_i + ΣU_i)` bytes (eqs. 4–5) `= 2N(4N²+3N−4)/3 + 4N(N+2)`, where the paper's
//! formula `2N(4N²+3N−4)/3 = 2·16·ΣU_i` leaves out the L row (`4N(N+2)` bytes, an `O(N²)`
//! term: 5 % at N = 32, 0.07 % at N = 2048) — the only disagreement between the formulas and
//! the rule; Table 4's T(I3) ≈ T(I1)/4 fits both. The alternative ("copy (rendered only)")
//! copies exactly each pass's own rectangle: half the bytes for I1, I3, I4; for I2 the two
//! are the same.
//!
//! **Switch method (§3.3).** The text: "one texture for input and one for output, their roles
//! switched at every draw", and Table 1: no copies. Under it a pass renders into the texture
//! written *two* passes ago; texels outside its rectangle are stale. I2 is not hurt: each pass
//! reads only texels the previous pass wrote (its rectangle is the previous one's minus a
//! row and a column), so its two textures suffice; each finished entry then stays in the
//! texture of the last pass that wrote it, and the readback gathers them (`layout::merge`;
//! upload and readback are outside A). I1, I3 and I4 are: step `i`'s U pass reads what
//! step `i`'s L pass wrote (the L column) *and* what step `i−1`'s U pass wrote (the trailing
//! block), and with two textures one of the two is its own render target (a feedback loop,
//! undefined in GL without GL 4.5's texture barrier). Two textures work only if each L pass
//! also redraws the previous trailing block — about `N³/3` texels over the run, what the copy
//! method copies — and the paper's times say it did not: G(switch) / G(copy) is 0.52 (I1)
//! and 0.55 (I2) at N = 2048, the same for the two-pass I1 as for I2, which carries nothing
//! (`experiments/lu.toml`, `table4.paper`), and G(I1 switch) < G(I2 switch) at every N ≥ 64;
//! with a carry I1-switch would draw about as many texels as the whole copy method moves.
//! The measurements and a correct result together need a third texture, which the text does
//! not mention: here the L passes write the L column into an L texture (reading the last U
//! output), the U passes read the last U output and the L texture (`L_TEXTURE` in
//! `u.frag`) and alternate between the two others; no texel is drawn twice, and the readback
//! gathers L from the L texture and each row of U from the texture its finishing pass wrote.
//! The alternative ("switch (carry)") has two textures: every pass also draws, through a
//! trivial program (`copy.frag`), the texels the previous pass computed and this one does not
//! (`carried` fragments, their own draw call, timed apart): two thin strips per step for I2,
//! the previous trailing block for each L pass of I1, I3, I4.
//!
//! Both methods compute every entry with the same operations in the same order under either
//! feed: the factors are bit-identical across the four forms.
//!
//! # Timing (§4.1, Table 4)
//! With [`Params::profile`] every draw call and every copy is bracketed by `glFinish`: `G` is
//! the time in the draw calls (`glDrawArrays`, with the one target-size uniform that
//! [`QuadBatch::draw`](crate::gl::QuadBatch::draw) sets just before it), `T` the time in `glCopyTexSubImage2D`, `A` the
//! whole decomposition (upload and readback excluded), and `C = A − G − T` everything else,
//! as the paper defines it: binding the output, program and texture binds, uniform and vertex
//! uploads, and the `glFinish` calls of the instrumentation. The carried texels' draws are
//! draw calls (in `G`) and are also reported on their own ([`LuInfo::g_carry_ms`]).
//!
//! # Zero pivots
//! Passes are not synchronised with the CPU, so a zero pivot is found after the last pass:
//! a zero pivot at step `i` leaves `U_ii = 0` and fills the rest with ±∞/NaN, so the first
//! zero or non-finite `U_ii` of the result names the step ([`super::cpu::first_bad_pivot`]).
//!
//! `solver.rs` holds the decomposition ([`FragmentLu`]); what a run is in `params.rs`, what it
//! did in `info.rs`, the layouts and the passes' rectangles in `layout.rs`, the programs'
//! `#define` sets in `programs.rs`.

mod info;
mod layout;
mod lu_trace;
mod params;
mod programs;
mod solver;

pub use info::LuInfo;
pub use layout::{pack, rect_minus, unpack};
pub use params::{Feed, I2Order, Params, Variant, method_label};
pub use programs::{COPY_FRAG, L_FRAG, ONEPASS_FRAG, ProgramSet, U_FRAG};
pub use solver::FragmentLu;
