//! The solver's state: the matrix and vectors in textures, the reduction chain, the programs;
//! uploads, read-backs and the solve over [`linbcg`].

use std::cell::Cell;

use super::layout::wrap;
use super::programs::Programs;
use crate::bench::{Kind, Work};
use crate::gl::{Gl, GlError, PassObserver, PingPong, QuadBatch, Rect, RenderTexture, Texture};
use crate::papers::bicg::cpu::{BicgInfo, BicgParams};
use crate::papers::bicg::error::GpuBicgError;
use crate::papers::bicg::linbcg::{self, PNRM, RHO, Slot, V};

/// The matrix in textures.
pub(super) struct MatrixTextures {
    pub(super) val: Texture,
    pub(super) col: Texture,
    pub(super) rl: Texture,
}

pub(super) const RESULTS: u32 = linbcg::RESULTS as u32;

/// The fp32 Bi-CG as fragment passes, holding one matrix in textures (see the module docs).
pub struct FragmentBicg {
    pub(super) gl: Gl,
    pub(super) n: usize,
    pub(super) nnz: usize,
    pub(super) w: u32,
    pub(super) h: u32,
    pub(super) a: MatrixTextures,
    /// Aᵀ; `None` when A is symmetric and its own textures serve.
    pub(super) at: Option<MatrixTextures>,
    pub(super) diag: Texture,
    pub(super) vecs: Vec<PingPong>,
    /// The reduction chain: render targets of halving size below `W × H`, with their quads.
    pub(super) chain: Vec<(RenderTexture, QuadBatch)>,
    pub(super) results: RenderTexture,
    /// One quad per texel of the results texture.
    pub(super) slots: Vec<QuadBatch>,
    pub(super) full: QuadBatch,
    pub(super) prog: Programs,
    pub(super) work: Cell<Work>,
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
    pub(super) fn read_results(&self, first: Slot, count: u32) -> Result<Vec<f64>, GlError> {
        Ok(self
            .results
            .texture()
            .read_rect(Rect::new(first.index() as u32, 0, count, 1))?
            .into_iter()
            .map(f64::from)
            .collect())
    }

    /// Replaces the state of vector `v` with `data` (padded with zeros).
    pub(super) fn upload(&mut self, v: V, data: &[f64]) -> Result<(), GlError> {
        let d = wrap(data.iter().map(|&x| x as f32), self.w, self.h, 0.0);
        self.vecs[v as usize].upload(&d)
    }

    pub(super) fn read(&self, v: V) -> Result<Vec<f64>, GlError> {
        let mut x = self.vecs[v as usize].read()?;
        x.truncate(self.n);
        Ok(x.into_iter().map(f64::from).collect())
    }

    /// Solves A x = b from `x0` (NR `linbcg`, `itol = 4`: [`linbcg::solve`] over this
    /// solver's passes, as [`crate::papers::bicg::gpu::GpuBicg::solve`] over its kernels). The iterate
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
