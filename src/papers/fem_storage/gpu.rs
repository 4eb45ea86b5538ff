//! Jacobi on a GL 4.3 compute shader, in the paper's layout (§IV, Fig. 4 and Fig. 5).
//!
//! The arrays of [`FlatMatrix`] go to buffers the sweep reads either as read-only SSBOs or,
//! as Fig. 5 reads them with `tex1Dfetch`, through buffer-texture views of the same buffers
//! ([`Reads`]; `TEXTURE` in the shader: the same loads, through the texture units). Each
//! iteration is one dispatch of `fem-storage/jacobi.comp` (rows in a grid-stride loop as in
//! Fig. 5, one row per invocation up to [`MAX_GROUPS`] groups, per-invocation partial norms)
//! and one of `fem-storage/reduce.comp` (one group sums the partials), after which the two
//! norms (8 bytes) are read back for the stopping test — the paper reads its two
//! `thrust::reduce` sums back every iteration too.
//! x⁽ᵏ⁾ and x⁽ᵏ⁺¹⁾ are two buffers whose bindings swap every iteration.
//!
//! **Work** ([`jacobi_work`], what the bound columns of Table 4 and `perf` read): with `n`
//! rows, `E` stored entries (diagonal included), `T` invocations (groups × [`WORK_GROUP`]),
//! counting every SSBO access or texel fetch once (no cache model), one sweep (`jacobi.comp`)
//! moves
//!
//! ```text
//! bytes_sweep = 8n − 4   (accm_size[i−1] and accm_size[i]; row 0 reads one)
//!             + 12(E − n) (off-diagonal: idx, val and the gathered x_old[idx])
//!             + 16n       (the diagonal val, rhs, x_old[i], x_new written)
//!             + 8T        (the partial (Δ², x²) per invocation)
//! flops_sweep = 2(E − n) + 7n   (an FMA per off-diagonal; per row rhs − Σ, ÷ diagonal,
//!                                Δ = x_new − x_old, and two FMAs into the partials)
//! ```
//!
//! and one stopping test (`reduce.comp`, one group) reads the `T` partials and writes the
//! norms: `8T + 8` bytes, `2T` flops, plus the 8-byte readback. One dispatch each; all fp32.

use crate::gl::{Buffer, BufferTexture, Define, Gl, Program, Reads};
use std::rc::Rc;

use super::error::FemError;
use super::flat::FlatMatrix;
use super::jacobi::JacobiSweeps;

/// Invocations per work group of both kernels.
pub const WORK_GROUP: u32 = 256;
/// The most work groups of a sweep; beyond, invocations loop over rows (grid stride).
pub const MAX_GROUPS: u32 = 1024;

/// The sweep kernel (Fig. 5) and the norm reduction.
pub const JACOBI: &str = "fem-storage/jacobi.comp";
pub const REDUCE: &str = "fem-storage/reduce.comp";

/// The `#define`s both kernels are built with.
pub fn defines() -> Vec<Define> {
    vec![Define::new("WG", WORK_GROUP)]
}

/// The sweep's `#define`s for `reads` (`TEXTURE`: buffer textures).
pub fn sweep_defines(reads: Reads) -> Vec<Define> {
    let mut d = defines();
    d.extend(reads.define());
    d
}

/// Every program the paper's code builds, in one place: (shader file, `#define`s); all are
/// compute programs.
pub fn programs() -> Vec<(&'static str, Vec<Define>)> {
    vec![
        (JACOBI, sweep_defines(Reads::Ssbo)),
        (JACOBI, sweep_defines(Reads::Texture)),
        (REDUCE, defines()),
    ]
}

/// The work of `sweeps` Jacobi sweeps with `checks` stopping tests on `n` rows and
/// `entries` stored entries, `invocations` invocations per sweep (module docs).
pub fn jacobi_work(
    n: usize,
    entries: usize,
    invocations: usize,
    sweeps: usize,
    checks: usize,
    reads: Reads,
) -> crate::bench::Work {
    use crate::bench::{Access, Bytes};
    let (n, e, t) = (n as f64, entries as f64, invocations as f64);
    // The sweep's loads (through `reads`) and its stores: x_new and the partials.
    let (sweeps, checks) = (sweeps as f64, checks as f64);
    let sweep_loads = 8.0 * n - 4.0 + 12.0 * (e - n) + 12.0 * n;
    let sweep_stores = 4.0 * n + 8.0 * t;
    let sweep_flops = 2.0 * (e - n) + 7.0 * n;
    let load = match reads {
        Reads::Ssbo => Access::SsboRead,
        Reads::Texture => Access::ImageRead,
    };
    // A stopping test loads the partials and stores the norms (read back: 8 more loads).
    let bytes = Bytes::of(&[
        (load, sweeps * sweep_loads),
        (Access::SsboWrite, sweeps * sweep_stores + checks * 8.0),
        (Access::SsboRead, checks * (8.0 * t + 8.0)),
    ]);
    crate::bench::Work {
        bytes,
        flops32: sweeps * sweep_flops + checks * 2.0 * t,
        flops64: 0.0,
        passes: 0,
        dispatches: (sweeps + checks) as u64,
        kind: crate::bench::Kind::Compute,
    }
}

/// The GPU Jacobi solver holding the matrix on the device.
pub struct GpuJacobi {
    gl: Gl,
    n: u32,
    /// Stored entries of the matrix (for [`GpuJacobi::work`]).
    entries: usize,
    groups: u32,
    sweep: Rc<Program>,
    reduce: Rc<Program>,
    /// With [`Reads::Texture`]: buffer-texture views of idx, val, accm, rhs, x[0], x[1]
    /// (declared before the buffers, so dropped before them).
    views: Option<Views>,
    idx: Buffer<u32>,
    val: Buffer<f32>,
    accm: Buffer<u32>,
    rhs: Buffer<f32>,
    x: [Buffer<f32>; 2],
    partial: Buffer<[f32; 2]>,
    norms: Buffer<[f32; 2]>,
    cur: usize,
}

/// The buffer-texture views the `TEXTURE` sweep reads its inputs through.
struct Views {
    idx: BufferTexture,
    val: BufferTexture,
    accm: BufferTexture,
    rhs: BufferTexture,
    x: [BufferTexture; 2],
}

impl GpuJacobi {
    /// Uploads `m` and starts from x⁽⁰⁾ = 0, the inputs read from SSBOs.
    pub fn new(gl: &Gl, m: &FlatMatrix) -> Result<GpuJacobi, FemError> {
        Self::with_reads(gl, m, Reads::Ssbo)
    }

    /// Uploads `m` and starts from x⁽⁰⁾ = 0, the sweep reading its inputs as `reads` says
    /// ([`Reads::Texture`]: buffer textures, Fig. 5's `tex1Dfetch`).
    pub fn with_reads(gl: &Gl, m: &FlatMatrix, reads: Reads) -> Result<GpuJacobi, FemError> {
        let n = u32::try_from(m.n())
            .map_err(|_| FemError::InvalidGrid(format!("{} rows exceed u32", m.n())))?;
        let groups = n.div_ceil(WORK_GROUP).clamp(1, MAX_GROUPS);
        let idx = Buffer::from_slice(gl, &m.idx)?;
        let val = Buffer::from_slice(gl, &m.val)?;
        let accm = Buffer::from_slice(gl, &m.accm_size)?;
        let rhs = Buffer::from_slice(gl, &m.rhs)?;
        let x = [Buffer::zeroed(gl, m.n())?, Buffer::zeroed(gl, m.n())?];
        let views = match reads {
            Reads::Ssbo => None,
            Reads::Texture => Some(Views {
                idx: BufferTexture::new(gl, &idx)?,
                val: BufferTexture::new(gl, &val)?,
                accm: BufferTexture::new(gl, &accm)?,
                rhs: BufferTexture::new(gl, &rhs)?,
                x: [
                    BufferTexture::new(gl, &x[0])?,
                    BufferTexture::new(gl, &x[1])?,
                ],
            }),
        };
        Ok(GpuJacobi {
            gl: gl.clone(),
            n,
            entries: m.entries(),
            groups,
            sweep: Program::compute(gl, JACOBI, &sweep_defines(reads))?,
            reduce: Program::compute(gl, REDUCE, &defines())?,
            views,
            idx,
            val,
            accm,
            rhs,
            x,
            partial: Buffer::zeroed(gl, (groups * WORK_GROUP) as usize)?,
            norms: Buffer::zeroed(gl, 1)?,
            cur: 0,
        })
    }

    /// How the sweep reads its inputs.
    pub fn reads(&self) -> Reads {
        if self.views.is_some() {
            Reads::Texture
        } else {
            Reads::Ssbo
        }
    }

    /// The work of `sweeps` sweeps with `checks` stopping tests on this matrix
    /// ([`jacobi_work`]).
    pub fn work(&self, sweeps: usize, checks: usize) -> crate::bench::Work {
        let t = (self.groups * WORK_GROUP) as usize;
        jacobi_work(
            self.n as usize,
            self.entries,
            t,
            sweeps,
            checks,
            self.reads(),
        )
    }

    /// Replaces the current iterate.
    pub fn set_x(&mut self, x: &[f32]) -> Result<(), FemError> {
        Ok(self.x[self.cur].upload(x)?)
    }

    /// Reads the current iterate back.
    pub fn x(&self) -> Result<Vec<f32>, FemError> {
        Ok(self.x[self.cur].read()?)
    }

    /// One iteration; with `check`, reduces the norms on the GPU and reads them back.
    pub fn step(&mut self, check: bool) -> Result<Option<(f64, f64)>, FemError> {
        let p = &self.sweep;
        match &self.views {
            None => {
                self.idx.bind(0);
                self.val.bind(1);
                self.accm.bind(2);
                self.rhs.bind(3);
                self.x[self.cur].bind(4);
            }
            Some(v) => {
                p.bind_buffer_texture(0, "u_idx", &v.idx);
                p.bind_buffer_texture(1, "u_val", &v.val);
                p.bind_buffer_texture(2, "u_accm", &v.accm);
                p.bind_buffer_texture(3, "u_rhs", &v.rhs);
                p.bind_buffer_texture(4, "u_x_old", &v.x[self.cur]);
            }
        }
        self.x[1 - self.cur].bind(5);
        self.partial.bind(6);
        p.bind();
        p.set_u32("n", self.n);
        p.dispatch([self.groups, 1, 1])?;
        self.cur = 1 - self.cur;
        // x_new is read by the next sweep (through its view with TEXTURE), the partials by
        // the reduction.
        if self.views.is_some() {
            self.gl.fetch_barrier();
        } else {
            self.gl.storage_barrier();
        }
        if !check {
            return Ok(None);
        }
        self.norms.bind(7);
        self.reduce.bind();
        self.reduce.set_u32("count", self.groups * WORK_GROUP);
        self.reduce.dispatch([1, 1, 1])?;
        let [d2, x2] = self.norms.read_range(0, 1)?[0];
        Ok(Some((d2 as f64, x2 as f64)))
    }
}

impl JacobiSweeps for GpuJacobi {
    fn sweep(&mut self, check: bool) -> Result<Option<(f64, f64)>, FemError> {
        self.step(check)
    }
    fn gl(&self) -> &Gl {
        &self.gl
    }
}

#[cfg(test)]
mod tests {
    use super::jacobi_work;
    use crate::bench::Access;
    use crate::gl::Reads;

    #[test]
    fn work_of_a_two_row_sweep_by_hand() {
        // Rows [d0, o01] and [d1, o10]. Row 0: accm_size[0], d0, rhs, x_old[0], x_new[0]
        // (20 B) + o01 with its idx and gathered x_old (12 B); row 1 reads accm_size twice:
        // 24 + 12 B. Flops: one FMA per off-diagonal (2 + 2), 7 per row.
        let w = jacobi_work(2, 4, 0, 1, 0, Reads::Ssbo);
        assert_eq!((w.bytes.total(), w.flops32, w.dispatches), (68.0, 18.0, 1));
        // Through SSBOs: x_new's 8 B stored, the rest loaded.
        assert_eq!(w.bytes.get(Access::SsboWrite), 8.0);
        // A stopping test over 256 partials: 2048 B read, 8 written, 8 read back.
        let c = jacobi_work(2, 4, 256, 0, 1, Reads::Texture);
        assert_eq!(
            (c.bytes.total(), c.flops32, c.dispatches),
            (2064.0, 512.0, 1)
        );
    }
}
