//! The vector passes of [`FragmentBicg`]: one full-texture quad into the switch-method
//! ping-pong of the vector it writes — `frag_axpy` (a + s·b), `frag_asolve` (r / diag A) and
//! `frag_spmv` (A x or Aᵀ x over the ELLPACK-R textures) — each tallied into the solver's
//! work from the texels it reads and writes (the module docs of [`super`] give the counts).

use super::solver::FragmentBicg;
use crate::bench::{Access, Bytes};
use crate::gl::{GlError, Program, Rect, Texture};
use crate::papers::bicg::linbcg::V;

impl FragmentBicg {
    /// A full-size pass's work: `fetched` bytes of R32F fetches, `written` bytes of target.
    pub(super) fn tally(&self, fetched: f64, written: f64, flops: f64) {
        let mut w = self.work.get();
        w.bytes += Bytes::of(&[(Access::TexScalar, fetched), (Access::Target, written)]);
        w.flops32 += flops;
        w.passes += 1;
        self.work.set(w);
    }

    pub(super) fn tex(&self, v: V) -> &Texture {
        self.vecs[v as usize].input()
    }

    /// One full-size pass of `prog` into `dst` with `textures` bound in order.
    pub(super) fn pass(
        &mut self,
        prog: &Program,
        dst: V,
        textures: &[(&str, V)],
    ) -> Result<(), GlError> {
        self.vecs[dst as usize].bind_output();
        prog.bind();
        for (unit, &(name, v)) in textures.iter().enumerate() {
            prog.bind_texture(unit as u32, name, self.tex(v));
        }
        self.full.draw(prog, self.w, self.h)?;
        self.vecs[dst as usize].end_pass(Rect::full(self.w, self.h))
    }

    /// `dst = a + s·b`.
    pub(super) fn axpy(&mut self, a: V, s: f64, b: V, dst: V) -> Result<(), GlError> {
        let p = self.prog.axpy.clone();
        p.bind();
        p.set_f32("u_s", s as f32);
        self.pass(&p, dst, &[("u_a", a), ("u_b", b)])?;
        let n = self.n as f64;
        self.tally(8.0 * n, 4.0 * n, 2.0 * n);
        Ok(())
    }

    /// `dst = r / diag A`.
    pub(super) fn asolve(&mut self, r: V, dst: V) -> Result<(), GlError> {
        let p = self.prog.asolve.clone();
        p.bind();
        p.bind_texture(1, "u_diag", &self.diag);
        self.pass(&p, dst, &[("u_r", r)])?;
        let n = self.n as f64;
        self.tally(8.0 * n, 4.0 * n, n);
        Ok(())
    }

    /// `dst = A x` (or `Aᵀ x`).
    pub(super) fn spmv(&mut self, transpose: bool, x: V, dst: V) -> Result<(), GlError> {
        let p = self.prog.spmv.clone();
        let m = match (&self.at, transpose) {
            (Some(at), true) => at,
            _ => &self.a,
        };
        p.bind();
        p.bind_texture(0, "u_val", &m.val);
        p.bind_texture(1, "u_col", &m.col);
        p.bind_texture(2, "u_rl", &m.rl);
        p.set_i32("u_n", self.n as i32);
        p.set_i32("u_rows", self.h as i32);
        self.vecs[dst as usize].bind_output();
        p.bind_texture(3, "u_x", self.tex(x));
        self.full.draw(&p, self.w, self.h)?;
        self.vecs[dst as usize].end_pass(Rect::full(self.w, self.h))?;
        let (n, nnz) = (self.n as f64, self.nnz as f64);
        self.tally(4.0 * (n + 3.0 * nnz), 4.0 * n, 2.0 * nnz);
        Ok(())
    }
}
