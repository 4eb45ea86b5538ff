//! The passes every step of a [`FragmentCg`] solve is made of: a full-size pass of one
//! program, a dot product (the products, then the chain of 2×2 reduction passes down to a
//! 1×1 texture), and the fetch counter and scalar read-back between them.

use super::solver::{FragmentCg, chain_quad};
use super::trace::{Step, pass_info};
use crate::gl::observe::{Observer, observed};
use crate::gl::{Program, Quad, QuadBatch, Rect, RenderTexture, Texture};
use crate::papers::tridiagonal::error::TridiagonalError;

impl FragmentCg {
    /// A full-size pass `step` of `prog` into `dst` (labelled for an observer) with
    /// `textures` (sampler, label, texture) bound in order.
    pub(super) fn pass(
        &self,
        obs: &mut Observer<'_>,
        step: Step,
        prog: &Program,
        (dst, label): (&RenderTexture, &str),
        textures: &[(&str, String, &Texture)],
    ) -> Result<(), TridiagonalError> {
        let quad = Quad::identity(Rect::full(self.w, self.batch as u32));
        let info = || pass_info(&self.params, step, textures, (label, dst.texture()), quad);
        observed(obs, info, || {
            dst.bind();
            for (unit, (name, _, t)) in textures.iter().enumerate() {
                prog.bind_texture(unit as u32, name, t);
            }
            self.full.draw(prog, self.w, self.batch as u32)?;
            Ok(())
        })
    }

    /// `dst = u·u` per system: the squares into `prod`, then [`Self::reduce_into`].
    pub(super) fn square_sum_into(
        &self,
        obs: &mut Observer<'_>,
        of: &'static str,
        (u, u_label): (&Texture, String),
        dst: (&RenderTexture, &str),
    ) -> Result<(), TridiagonalError> {
        let terms = format!("{u_label}·{u_label} terms");
        let src = [("u_u", u_label, u)];
        let step = Step::Square;
        self.pass(obs, step, &self.prog.square, (&self.prod, &terms), &src)?;
        self.reduce_into(obs, of, &terms, dst)
    }

    /// `dst = Σ prod` (labelled `terms`) through the reduction chain (the last step renders
    /// into `dst`); `of` names the dot product for an observer.
    pub(super) fn reduce_into(
        &self,
        obs: &mut Observer<'_>,
        of: &'static str,
        terms: &str,
        (dst, dst_label): (&RenderTexture, &str),
    ) -> Result<(), TridiagonalError> {
        let mut src = self.prod.texture();
        let mut src_label = terms.to_string();
        let mut size = [self.w as f32, self.batch as f32];
        let levels = self.chain.len();
        for (i, (t, quad)) in self.chain.iter().zip(&self.chain_quads).enumerate() {
            let last = i + 1 == levels;
            let target = if last { dst } else { t };
            let label = if last {
                dst_label.to_string()
            } else {
                format!("{of}: level {}", i + 1)
            };
            let tw = t.texture().width();
            let th = t.texture().height();
            let step = Step::Reduce {
                of,
                level: i,
                levels,
            };
            let sources = [("u_src", src_label.clone(), src)];
            let q = chain_quad(tw, th);
            let info = || pass_info(&self.params, step, &sources, (&label, target.texture()), q);
            observed(obs, info, || {
                target.bind();
                self.prog.reduce.bind_texture(0, "u_src", src);
                self.prog.reduce.set_vec2("u_size", size);
                quad.draw(&self.prog.reduce, tw, th)?;
                Ok::<(), TridiagonalError>(())
            })?;
            src = target.texture();
            src_label = label;
            size = [tw as f32, th as f32];
        }
        if self.chain.is_empty() {
            // One texel in all: copy it.
            dst.bind();
            self.prog.reduce.bind_texture(0, "u_src", src);
            self.prog.reduce.set_vec2("u_size", size);
            QuadBatch::new(
                &self.gl,
                &[Quad::mapped(Rect::full(1, 1), [-0.5, -0.5, 1.5, 1.5])],
            )?
            .draw(&self.prog.reduce, 1, 1)?;
        }
        Ok(())
    }

    /// Adds the fetch counter's increments since it was last reset to `acc` and resets it
    /// (instrumented builds; nothing otherwise).
    pub(super) fn counted(&self, acc: &mut [u64; 2]) -> Result<(), TridiagonalError> {
        if let Some(c) = &self.counter {
            self.gl.storage_barrier();
            let v = c.read()?;
            acc[0] += v[0] as u64;
            acc[1] += v[1] as u64;
            c.upload(&[0, 0])?;
        }
        Ok(())
    }

    /// The value of a 1×1 scalar texture: the sum of its lanes (an RGBA-packed dot product
    /// ends in four partial sums).
    pub(super) fn read_scalar(&self, t: &RenderTexture) -> Result<f64, TridiagonalError> {
        Ok(t.texture().read()?.iter().map(|&v| v as f64).sum())
    }
}
