//! Building a [`FragmentCg`]: the shape check, the programs of every pass (as
//! [`cg_programs`] lists them), the vectors (scalar or RGBA-packed), the 1×1 scalars and the
//! chain of 2×2 reduction targets that ends in one texel.

use super::params::{CgInfo, CgParams};
use super::solver::{FragmentCg, Programs, chain_quad};
use crate::gl::{Buffer, Format, Gl, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::programs::cg_programs;

impl FragmentCg {
    pub fn with_params(
        gl: &Gl,
        n: usize,
        batch: usize,
        params: CgParams,
    ) -> Result<FragmentCg, TridiagonalError> {
        if n == 0 || batch == 0 {
            return Err(TridiagonalError::Shape(format!(
                "{n} unknowns × {batch} systems: both must be at least 1"
            )));
        }
        let lanes = params.packing.lanes();
        let w = (n as u32).div_ceil(lanes);
        let b = batch as u32;
        let prog = Programs::new(gl, lanes, &params)?;
        let fmt = params.packing.format();
        let vec = || RenderTexture::new(gl, TexTarget::Rect, fmt, w, b, None);
        let one = || RenderTexture::new(gl, TexTarget::Rect, fmt, 1, 1, None);
        let (chain, chain_quads) = reduction_chain(gl, fmt, w, b)?;
        let counter = if params.count_fetches {
            Some(Buffer::<u32>::zeroed(gl, 2)?)
        } else {
            None
        };
        let name = solver_name(&params);
        Ok(FragmentCg {
            gl: gl.clone(),
            n,
            batch,
            w,
            params,
            name,
            prog,
            coef: [vec()?, vec()?, vec()?, vec()?],
            x: [vec()?, vec()?],
            r: [vec()?, vec()?],
            p: [vec()?, vec()?],
            q: vec()?,
            prod: vec()?,
            chain,
            rho: [one()?, one()?],
            pq: one()?,
            knorm: one()?,
            out: RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n as u32, b, None)?,
            full: QuadBatch::new(gl, &[Quad::identity(Rect::full(w, b))])?,
            chain_quads,
            out_quad: QuadBatch::new(gl, &[Quad::identity(Rect::full(n as u32, b))])?,
            counter,
            info: CgInfo::default(),
        })
    }
}

impl Programs {
    /// Every program of a solve on vectors of `lanes` lanes.
    fn new(gl: &Gl, lanes: u32, params: &CgParams) -> Result<Programs, TridiagonalError> {
        let progs = cg_programs(lanes, params.count_fetches, params.arith)
            .map(|(file, defs)| Program::fragment(gl, file, &defs));
        let [
            p0,
            p1,
            p2,
            p3,
            unpack,
            residual,
            matvec,
            square,
            mul,
            reduce,
            direction,
            add,
            sub,
        ] = progs;
        Ok(Programs {
            pack: vec![p0?, p1?, p2?, p3?],
            unpack: unpack?,
            residual: residual?,
            matvec: matvec?,
            square: square?,
            mul: mul?,
            reduce: reduce?,
            direction: direction?,
            add: add?,
            sub: sub?,
        })
    }
}

/// The targets of the 2×2 reduction passes from a `w × b` vector down to one texel, and
/// their quads (none when the vector is one texel).
fn reduction_chain(
    gl: &Gl,
    fmt: Format,
    w: u32,
    b: u32,
) -> Result<(Vec<RenderTexture>, Vec<QuadBatch>), TridiagonalError> {
    let mut chain = vec![];
    let mut chain_quads = vec![];
    let (mut cw, mut ch) = (w, b);
    while cw > 1 || ch > 1 {
        let (nw, nh) = (cw.div_ceil(2), ch.div_ceil(2));
        chain.push(RenderTexture::new(gl, TexTarget::Rect, fmt, nw, nh, None)?);
        chain_quads.push(QuadBatch::new(gl, &[chain_quad(nw, nh)])?);
        (cw, ch) = (nw, nh);
    }
    Ok((chain, chain_quads))
}

/// The solver's name in the tables: its packing and its fixed iteration count, or
/// "converged".
fn solver_name(params: &CgParams) -> String {
    match params.tolerance {
        None => format!(
            "CG fragment {} n={}",
            params.packing.lanes_name(),
            params.iterations
        ),
        Some(_) => format!("CG fragment {} converged", params.packing.lanes_name()),
    }
}
