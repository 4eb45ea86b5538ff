//! Building a [`FragmentBicg`]: the layout check, A (and Aᵀ) and the diagonal as textures
//! in the slot-major layout of the module docs, one switch-method ping-pong per vector, the
//! reduction chain of halving targets, the results texture and the programs.

use super::layout::{layout, wrap};
use super::programs::{ASOLVE, AXPY, Programs, SPMV, spmv_defines};
use super::solver::{FragmentBicg, MatrixTextures, RESULTS};
use crate::bench::{Kind, Work};
use crate::gl::{
    Define, Format, Gl, GlError, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect,
    RenderTexture, TexTarget, Texture,
};
use crate::papers::bicg::ellpack::EllpackR;
use crate::papers::bicg::error::GpuBicgError;
use crate::papers::bicg::linbcg::VECTORS;
use crate::papers::bicg::reduce_trace::{REDUCE, reduce_defines};
use std::cell::Cell;

impl FragmentBicg {
    /// Uploads A (and Aᵀ unless `symmetric`) and builds the passes; refuses a matrix the
    /// layout cannot hold before allocating anything.
    pub fn new(gl: &Gl, a: &EllpackR<f32>, symmetric: bool) -> Result<FragmentBicg, GpuBicgError> {
        let n = a.n;
        let (w, h) = layout(n, a.m, gl.info().max_texture_size)?;
        let diag = a.diagonal()?;
        let vecs = vectors(gl, w, h)?;
        let chain = reduction_chain(gl, w, h)?;
        let prog = Programs::new(gl, w)?;
        let tex = |data: Vec<f32>, rows: u32| {
            Texture::new(gl, TexTarget::Tex2D, Format::R32F, w, rows, Some(&data))
        };
        Ok(FragmentBicg {
            gl: gl.clone(),
            n,
            nnz: a.nnz(),
            w,
            h,
            a: MatrixTextures::new(gl, a, w, h)?,
            at: if symmetric {
                None
            } else {
                Some(MatrixTextures::new(gl, &a.transpose(), w, h)?)
            },
            diag: tex(wrap(diag.iter().map(|&d| d as f32), w, h, 1.0), h)?,
            vecs,
            chain,
            results: RenderTexture::new(gl, TexTarget::Tex2D, Format::R32F, RESULTS, 1, None)?,
            slots: (0..RESULTS)
                .map(|s| QuadBatch::new(gl, &[Quad::identity(Rect::new(s, 0, 1, 1))]))
                .collect::<Result<_, _>>()?,
            full: QuadBatch::new(gl, &[Quad::identity(Rect::full(w, h))])?,
            prog,
            work: Cell::new(Work {
                kind: Kind::Fragment,
                ..Default::default()
            }),
        })
    }
}

impl MatrixTextures {
    /// `m`'s `val` and `col` as `w × (slots·h)` textures, slot k of row i at
    /// (i mod w, k·h + i div w), and `rl` as a `w × h` vector.
    fn new(gl: &Gl, m: &EllpackR<f32>, w: u32, h: u32) -> Result<MatrixTextures, GlError> {
        let n = m.n;
        let tex = |data: Vec<f32>, rows: u32| {
            Texture::new(gl, TexTarget::Tex2D, Format::R32F, w, rows, Some(&data))
        };
        let slots = m.m.max(1) as u32;
        let (mut val, mut col) = (Vec::new(), Vec::new());
        for k in 0..m.m {
            let range = k * n..(k + 1) * n;
            val.extend(wrap(m.val[range.clone()].iter().copied(), w, h, 0.0));
            col.extend(wrap(m.col[range].iter().map(|&c| c as f32), w, h, 0.0));
        }
        val.resize((w * h * slots) as usize, 0.0);
        col.resize((w * h * slots) as usize, 0.0);
        Ok(MatrixTextures {
            val: tex(val, h * slots)?,
            col: tex(col, h * slots)?,
            rl: tex(wrap(m.rl.iter().map(|&r| r as f32), w, h, 0.0), h)?,
        })
    }
}

impl Programs {
    /// The programs of a build whose vectors are `w` texels wide.
    fn new(gl: &Gl, w: u32) -> Result<Programs, GlError> {
        let frag = |file: &str, d: &[Define]| Program::fragment(gl, file, d);
        let r = |max, first| frag(REDUCE, &reduce_defines(max, first));
        Ok(Programs {
            spmv: frag(SPMV, &spmv_defines(w))?,
            axpy: frag(AXPY, &[])?,
            asolve: frag(ASOLVE, &[])?,
            reduce: [
                r(false, true)?,
                r(false, false)?,
                r(true, true)?,
                r(true, false)?,
            ],
        })
    }
}

/// One switch-method ping-pong of zeros per vector of the state.
fn vectors(gl: &Gl, w: u32, h: u32) -> Result<Vec<PingPong>, GlError> {
    let zeros = vec![0.0f32; (w * h) as usize];
    (0..VECTORS)
        .map(|_| {
            PingPong::new(
                gl,
                PingPongMethod::Switch,
                TexTarget::Tex2D,
                Format::R32F,
                w,
                h,
                &zeros,
            )
        })
        .collect()
}

/// The reduction chain: render targets of halving size below `w × h` (down to 2×2), with
/// their quads.
fn reduction_chain(gl: &Gl, w: u32, h: u32) -> Result<Vec<(RenderTexture, QuadBatch)>, GlError> {
    let mut chain = Vec::new();
    let (mut cw, mut ch) = (w, h);
    while cw > 2 || ch > 2 {
        (cw, ch) = (cw.div_ceil(2), ch.div_ceil(2));
        chain.push((
            RenderTexture::new(gl, TexTarget::Tex2D, Format::R32F, cw, ch, None)?,
            QuadBatch::new(gl, &[Quad::identity(Rect::full(cw, ch))])?,
        ));
    }
    Ok(chain)
}
