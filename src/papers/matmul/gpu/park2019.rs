//! The paper's multiplication, Algorithms 1 + 2 ([`Park2019`]): its parameters, its
//! operands in SSBOs and its dispatch loop.

use std::rc::Rc;

use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::{Buffer, Define, Gl, Program};
use crate::papers::matmul::error::MatmulError;
use crate::papers::matmul::matrix::{Matrix, dims};

/// The paper's kernel (Algorithm 2).
pub const PARK2019: &str = "matmul/park2019.comp";
/// Parameters of Algorithm 1/2.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Park2019Params {
    /// Tile edge and work-group edge (32 in the paper: 32×32 = 1024 invocations).
    pub block: u32,
    /// Most work groups per dispatch along x and y (64×64 in the paper, for Windows TDR).
    pub max_groups: u32,
    /// `false` (the paper's kernel): each dispatch launches the work groups its sub-matrix
    /// needs — §2.2: "the number of work groups is the matrix size divided by the number of
    /// work items", §3.1: *at most* 64×64 — which is also the only reading the paper's own
    /// times allow (at N = 128 a full 64×64 grid is 1.07 TFLOP of work, 3.46 TFLOPS in its
    /// 0.31 ms on a 486-GFLOPS Quadro 4000). `true`: Algorithm 1 *as printed*, which calls
    /// `glDispatchCompute(gsize.x, gsize.y, 1)` with the full 64×64 grid every time (the
    /// extra groups load zero tiles and store nothing): a labelled variant.
    pub full_grid: bool,
}

impl Default for Park2019Params {
    fn default() -> Self {
        Park2019Params {
            block: 32,
            max_groups: 64,
            full_grid: false,
        }
    }
}

impl Park2019Params {
    /// The work of one run of Algorithm 1's dispatch loop on an m×n by n×l product
    /// (module docs).
    pub fn work(&self, m: usize, n: usize, l: usize) -> Work {
        let (b, gs) = (self.block as usize, self.max_groups as usize);
        let wcnt = [l.div_ceil(b), m.div_ceil(b)];
        let dispatches = wcnt[0].div_ceil(gs) * wcnt[1].div_ceil(gs);
        let needed = (wcnt[0] * wcnt[1]) as f64;
        let launched = if self.full_grid {
            (dispatches * gs * gs) as f64
        } else {
            needed
        };
        let steps = n.div_ceil(b) as f64;
        let b = b as f64;
        Work {
            bytes: Bytes::of(&[
                (Access::SsboRead, needed * steps * 2.0 * b * b * 4.0),
                (Access::SsboWrite, steps * (m * l * 4) as f64),
            ]),
            flops32: launched * steps * 2.0 * b * b * b,
            flops64: 0.0,
            passes: 0,
            dispatches: dispatches as u64,
            kind: Kind::Compute,
        }
    }
    /// Algorithm 1 as printed: the full 64×64 grid on every dispatch.
    pub fn as_printed() -> Park2019Params {
        Park2019Params {
            full_grid: true,
            ..Default::default()
        }
    }
    /// The `#define`s of `park2019.comp` for these parameters.
    pub fn defines(&self) -> Vec<Define> {
        vec![Define::new("BLOCK_SIZE", self.block)]
    }
}

/// Operands resident on the GPU.
pub struct Operands {
    m: usize,
    n: usize,
    l: usize,
    a: Buffer<f32>,
    b: Buffer<f32>,
    r: Buffer<f32>,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Info {
    /// `glDispatchCompute` calls (one per sub-matrix).
    pub dispatches: u32,
    /// Work groups launched in all.
    pub groups: u64,
}

/// Algorithms 1 and 2.
pub struct Park2019 {
    gl: Gl,
    prog: Rc<Program>,
    params: Park2019Params,
}

impl Park2019 {
    pub fn new(gl: &Gl, params: Park2019Params) -> Result<Park2019, MatmulError> {
        let prog = Program::compute(gl, PARK2019, &params.defines())?;
        Ok(Park2019 {
            gl: gl.clone(),
            prog,
            params,
        })
    }

    /// `glOpenBuffer` + `glWriteBuffer` for A, B and R.
    pub fn upload(&self, a: &Matrix, b: &Matrix) -> Result<Operands, MatmulError> {
        let (m, n, l) = dims(a, b)?;
        Ok(Operands {
            m,
            n,
            l,
            a: Buffer::from_slice(&self.gl, &a.data)?,
            b: Buffer::from_slice(&self.gl, &b.data)?,
            r: Buffer::zeroed(&self.gl, m * l)?,
        })
    }

    /// The dispatch loop of Algorithm 1 (the timed region).
    pub fn run(&self, ops: &Operands) -> Result<Info, MatmulError> {
        let p = &self.prog;
        let (bs, gs) = (self.params.block as usize, self.params.max_groups as usize);
        // wcnt: work groups the matrix needs; gcnt: sub-matrices; nelem: elements per dispatch.
        let wcnt = [ops.l.div_ceil(bs), ops.m.div_ceil(bs)];
        let gcnt = [wcnt[0].div_ceil(gs), wcnt[1].div_ceil(gs)];
        let nelem = bs * gs;
        ops.a.bind(0);
        ops.b.bind(1);
        ops.r.bind(2);
        p.set_u32("m", ops.m as u32);
        p.set_u32("n", ops.n as u32);
        p.set_u32("l", ops.l as u32);
        let mut info = Info::default();
        for yi in 0..gcnt[1] {
            let y0 = nelem * yi;
            for xi in 0..gcnt[0] {
                let x0 = nelem * xi;
                p.set_u32("x0", x0 as u32);
                p.set_u32("y0", y0 as u32);
                let groups = if self.params.full_grid {
                    [gs, gs]
                } else {
                    [(wcnt[0] - xi * gs).min(gs), (wcnt[1] - yi * gs).min(gs)]
                };
                p.dispatch([groups[0] as u32, groups[1] as u32, 1])?;
                info.dispatches += 1;
                info.groups += (groups[0] * groups[1]) as u64;
            }
        }
        Ok(info)
    }

    /// `glReadBuffer`: R back to the CPU.
    pub fn read(&self, ops: &Operands) -> Result<Matrix, MatmulError> {
        Ok(Matrix {
            rows: ops.m,
            cols: ops.l,
            data: ops.r.read()?,
        })
    }

    /// Upload, run, read.
    pub fn multiply(&self, a: &Matrix, b: &Matrix) -> Result<Matrix, MatmulError> {
        let ops = self.upload(a, b)?;
        self.run(&ops)?;
        self.read(&ops)
    }
}
