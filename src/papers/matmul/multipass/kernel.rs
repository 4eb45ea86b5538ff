//! The multipass fragment kernel ([`Multipass`]) and its texture operands.

use std::rc::Rc;

use super::shader::{self, MULTIPASS};
use super::trace::pass_info;
use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::observe::Observer;
use crate::gl::{
    Define, Format, Gl, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect, TexTarget,
    Texture,
};
use crate::papers::matmul::error::MatmulError;
use crate::papers::matmul::matrix::{Matrix, dims};
use crate::papers::matmul::pack::{rgba_rect, unpack4};

/// Beyond the paper, legacy pipeline: the multipass fragment-shader matmul
/// (`multipass.frag`): matrices in RGBA32F rectangle textures, four columns per texel,
/// `⌈n / k_chunk⌉` passes ping-ponged with the switch method (render-to-texture).
pub struct Multipass {
    gl: Gl,
    prog: Rc<Program>,
    k_chunk: u32,
}

/// Operands of [`Multipass`]: textures with every dimension padded to a multiple of 4.
pub struct TextureOperands {
    m: usize,
    l: usize,
    n4: usize,
    l4: usize,
    a: Texture,
    b: Texture,
    acc: PingPong,
}

impl Multipass {
    /// The work of one run with `k_chunk` (as requested; rounded as [`Multipass::chunk`]) on
    /// an m×n by n×l product (the module docs of [`super`]).
    pub fn work(k_chunk: u32, m: usize, n: usize, l: usize) -> Work {
        let (l4, n_pad) = (l.div_ceil(4), 4 * n.div_ceil(4));
        let passes = n_pad.div_ceil(Self::chunk(k_chunk) as usize);
        let texels = (l4 * m) as f64;
        // Per pass the accumulator is fetched and written; A and B texels are fetched; the
        // last pass also writes the result.
        Work {
            bytes: Bytes::of(&[
                (
                    Access::TexRgba,
                    texels * 16.0 * (passes + 5 * n_pad / 4) as f64,
                ),
                (Access::Target, texels * 16.0 * (passes + 1) as f64),
            ]),
            flops32: texels * n_pad as f64 * 8.0,
            flops64: 0.0,
            passes: passes as u64,
            dispatches: 0,
            kind: Kind::Fragment,
        }
    }
    /// `k_chunk` k per pass, rounded up to a multiple of 4 (at least 4).
    pub fn new(gl: &Gl, k_chunk: u32) -> Result<Multipass, MatmulError> {
        let k_chunk = Self::chunk(k_chunk);
        let prog = Program::fragment(gl, MULTIPASS, &Self::defines(k_chunk))?;
        Ok(Multipass {
            gl: gl.clone(),
            prog,
            k_chunk,
        })
    }

    /// The k per pass actually used for a requested `k_chunk`.
    pub fn chunk(k_chunk: u32) -> u32 {
        shader::chunk(k_chunk)
    }

    /// The `#define`s of `multipass.frag` for a requested `k_chunk`.
    pub fn defines(k_chunk: u32) -> Vec<Define> {
        shader::defines(k_chunk)
    }

    pub fn upload(&self, a: &Matrix, b: &Matrix) -> Result<TextureOperands, MatmulError> {
        let (m, n, l) = dims(a, b)?;
        let (n4, l4) = (n.div_ceil(4), l.div_ceil(4));
        let g = &self.gl;
        Ok(TextureOperands {
            m,
            l,
            n4,
            l4,
            a: rgba_rect(g, a, m)?,
            // B padded to 4·n4 rows so that the last k-group reads zeros.
            b: rgba_rect(g, b, 4 * n4)?,
            acc: PingPong::new(
                g,
                PingPongMethod::Switch,
                TexTarget::Rect,
                Format::RGBA32F,
                l4 as u32,
                m as u32,
                &vec![0.0; l4 * m * 4],
            )?,
        })
    }

    /// The passes (the timed region). Resets the accumulator first.
    pub fn run(&self, ops: &mut TextureOperands) -> Result<u32, MatmulError> {
        self.run_observed(ops, None)
    }

    /// [`Self::run`] with an observer called before and after every pass (the `trace`
    /// command; [`super::trace`] says what each pass is). The GL work is the same.
    pub fn run_observed(
        &self,
        ops: &mut TextureOperands,
        mut obs: Observer<'_>,
    ) -> Result<u32, MatmulError> {
        let (w, h) = (ops.l4 as u32, ops.m as u32);
        let full = Rect::full(w, h);
        let quad = QuadBatch::new(&self.gl, &[Quad::identity(full)])?;
        ops.acc.upload(&vec![0.0; ops.l4 * ops.m * 4])?;
        let n_pad = 4 * ops.n4 as i32;
        let mut passes = 0;
        let p = &self.prog;
        for k0 in (0..n_pad).step_by(self.k_chunk as usize) {
            let reading = ops.acc.pair().1;
            let (kc, k, np) = (self.k_chunk, k0 as u32, n_pad as u32);
            if let Some(o) = obs.as_deref_mut() {
                o.before(&pass_info(kc, k, np, &ops.a, &ops.b, &ops.acc, reading))?;
            }
            ops.acc.pass(full, |acc| {
                p.bind_texture(0, "u_acc", acc);
                p.bind_texture(1, "u_a", &ops.a);
                p.bind_texture(2, "u_b", &ops.b);
                p.set_i32("u_k0", k0);
                p.set_i32("u_n", n_pad);
                quad.draw(p, w, h)
            })?;
            if let Some(o) = obs.as_deref_mut() {
                o.after(&pass_info(kc, k, np, &ops.a, &ops.b, &ops.acc, reading))?;
            }
            passes += 1;
        }
        Ok(passes)
    }

    pub fn read(&self, ops: &TextureOperands) -> Result<Matrix, MatmulError> {
        let t = ops.acc.read()?;
        let v: Vec<[f32; 4]> = t
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect();
        Ok(Matrix {
            rows: ops.m,
            cols: ops.l,
            data: unpack4(&v, ops.m, ops.l),
        })
    }

    pub fn multiply(&self, a: &Matrix, b: &Matrix) -> Result<Matrix, MatmulError> {
        let mut ops = self.upload(a, b)?;
        self.run(&mut ops)?;
        self.read(&ops)
    }
}
