//! Jacobi on a GL 4.3 compute shader, in the paper's layout (§IV, Fig. 4 and Fig. 5).
//!
//! The arrays of [`FlatMatrix`] go to read-only SSBOs (the GL counterpart of the paper's
//! `tex1Dfetch` textures); each iteration is one dispatch of `fem-storage/jacobi.comp` (rows
//! in a grid-stride loop as in Fig. 5, one row per invocation up to [`MAX_GROUPS`] groups,
//! per-invocation partial norms) and one of `fem-storage/reduce.comp` (one group sums the
//! partials), after which the two norms (8 bytes) are read back for the stopping test — the
//! paper reads its two `thrust::reduce` sums back every iteration too.
//! x⁽ᵏ⁾ and x⁽ᵏ⁺¹⁾ are two buffers whose bindings swap every iteration.

use crate::gl::{Buffer, Define, Gl, Program};
use std::rc::Rc;

use super::FemError;
use super::flat::FlatMatrix;
use super::jacobi::{JacobiInfo, JacobiParams, drive};

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

/// Every program the paper's code builds, in one place: (shader file, `#define`s); both are
/// compute programs.
pub fn programs() -> Vec<(&'static str, Vec<Define>)> {
    vec![(JACOBI, defines()), (REDUCE, defines())]
}

/// The GPU Jacobi solver holding the matrix on the device.
pub struct GpuJacobi {
    gl: Gl,
    n: u32,
    groups: u32,
    sweep: Rc<Program>,
    reduce: Rc<Program>,
    idx: Buffer<u32>,
    val: Buffer<f32>,
    accm: Buffer<u32>,
    rhs: Buffer<f32>,
    x: [Buffer<f32>; 2],
    partial: Buffer<[f32; 2]>,
    norms: Buffer<[f32; 2]>,
    cur: usize,
}

impl GpuJacobi {
    /// Uploads `m` and starts from x⁽⁰⁾ = 0.
    pub fn new(gl: &Gl, m: &FlatMatrix) -> Result<GpuJacobi, FemError> {
        let n = u32::try_from(m.n())
            .map_err(|_| FemError::InvalidGrid(format!("{} rows exceed u32", m.n())))?;
        let defines = defines();
        let groups = n.div_ceil(WORK_GROUP).clamp(1, MAX_GROUPS);
        Ok(GpuJacobi {
            gl: gl.clone(),
            n,
            groups,
            sweep: Program::compute(gl, JACOBI, &defines)?,
            reduce: Program::compute(gl, REDUCE, &defines)?,
            idx: Buffer::from_slice(gl, &m.idx)?,
            val: Buffer::from_slice(gl, &m.val)?,
            accm: Buffer::from_slice(gl, &m.accm_size)?,
            rhs: Buffer::from_slice(gl, &m.rhs)?,
            x: [Buffer::zeroed(gl, m.n())?, Buffer::zeroed(gl, m.n())?],
            partial: Buffer::zeroed(gl, (groups * WORK_GROUP) as usize)?,
            norms: Buffer::zeroed(gl, 1)?,
            cur: 0,
        })
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
        self.idx.bind(0);
        self.val.bind(1);
        self.accm.bind(2);
        self.rhs.bind(3);
        self.x[self.cur].bind(4);
        self.x[1 - self.cur].bind(5);
        self.partial.bind(6);
        self.sweep.bind();
        self.sweep.set_u32("n", self.n);
        self.sweep.dispatch([self.groups, 1, 1])?;
        self.cur = 1 - self.cur;
        if !check {
            self.gl.storage_barrier();
            return Ok(None);
        }
        self.gl.storage_barrier();
        self.norms.bind(7);
        self.reduce.bind();
        self.reduce.set_u32("count", self.groups * WORK_GROUP);
        self.reduce.dispatch([1, 1, 1])?;
        let [d2, x2] = self.norms.read_range(0, 1)?[0];
        Ok(Some((d2 as f64, x2 as f64)))
    }

    /// Iterates until [`drive`] stops.
    pub fn solve(&mut self, params: &JacobiParams) -> Result<JacobiInfo, FemError> {
        drive(params, |check| self.step(check))
    }

    /// Runs `iterations` sweeps without stopping tests, then waits for the GPU (for timing).
    pub fn run_fixed(&mut self, iterations: usize) -> Result<(), FemError> {
        for _ in 0..iterations {
            self.step(false)?;
        }
        self.gl.finish();
        Ok(())
    }
}
