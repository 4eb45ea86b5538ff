//! The paper's CPU baseline behind the GPU interface ([`CpuThomas`]).

use super::batch::{BatchSolver, check_systems, output_texture};
use super::cpu::{Systems, thomas_batch_f32};
use super::error::TridiagonalError;
use crate::gl::{Gl, Texture};

/// The paper's CPU baseline behind the GPU interface: reads the systems back, runs Thomas
/// in f32 on one thread, uploads `x` (the transfers are part of its time, as in Fig. 11).
pub struct CpuThomas {
    n: usize,
    batch: usize,
    host: Vec<f32>,
    x: Vec<f32>,
    out: Texture,
}

impl CpuThomas {
    pub fn new(gl: &Gl, n: usize, batch: usize) -> Result<CpuThomas, TridiagonalError> {
        let out = output_texture(gl, n, batch)?;
        Ok(CpuThomas {
            n,
            batch,
            host: vec![],
            x: vec![0.0; n * batch],
            out,
        })
    }
}

impl BatchSolver for CpuThomas {
    fn name(&self) -> &str {
        "Thomas CPU f32"
    }
    fn shape(&self) -> (usize, usize) {
        (self.n, self.batch)
    }
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        check_systems(systems, self.n, self.batch)?;
        self.host = systems.read()?;
        let sys = Systems {
            n: self.n,
            batch: self.batch,
            data: std::mem::take(&mut self.host),
        };
        let r = thomas_batch_f32(&sys, &mut self.x);
        self.host = sys.data;
        r?;
        self.out.upload(&self.x)?;
        Ok(&self.out)
    }
    fn output(&self) -> &Texture {
        &self.out
    }
}
