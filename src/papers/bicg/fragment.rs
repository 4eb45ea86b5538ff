//! Bi-CG in the legacy pipeline: the preconditioned Bi-CG of [`super::cpu`] as render-to-texture
//! fragment passes in fp32 (GL 3.3), the way Bolz et al. (2003) and Krüger & Westermann (2003)
//! ran Krylov solvers before compute shaders — beyond the paper (which used CUDA), the legacy
//! counterpart of the compute build [`super::gpu::GpuBicg`]`<f32>` on the same matrix.
//!
//! **Layout.** Every vector is an R32F 2D texture `W × H` with `W` the smallest power of two
//! with `W² ≥ n` (capped by `GL_MAX_TEXTURE_SIZE`) and `H = ⌈n/W⌉`: element i at texel
//! (i mod W, i div W), padding texels 0. The ELLPACK-R matrix ([`EllpackR`], eq. 5) keeps its
//! slot-major order: `val` and `col` are `W × (m·H)` textures, slot k of row i at
//! (i mod W, k·H + i div W) — the `val[k·N + i]` of the compute build, one block of rows per
//! slot — and `rl` and the diagonal are vectors (the diagonal padded with 1). Column indices
//! and row lengths are stored as floats, exact below 2²⁴ ([`MAX_EXACT`]).
//!
//! **Passes** (`glsl/bicg/frag_*.frag`, each a full-texture quad into a switch-method
//! [`PingPong`] of the vector it writes): `frag_spmv` (z = A p: the fragment of row i loops over
//! its `rl[i]` slots), `frag_axpy` (a + s·b: the direction and solution updates, r = b − Ax, and
//! a copy with s = 0), `frag_asolve` (z = r / diag A). A dot product or a max-norm is a chain of
//! 2×2 → 1 `frag_reduce` passes over textures of halving size, the first multiplying two
//! vectors (or taking |a|), the last rendering into one texel of a small results texture, as
//! the compute build's reductions fill its results buffer. Per iteration the host reads the
//! results back three times (ρ; z·p̄; ‖z‖∞, ‖p‖∞, ‖x‖∞ in one read) and computes β and α in
//! f64, which go to the next passes as uniforms — the same scalars, read at the same points,
//! as the compute build. One iteration is 10 vector passes and 5 reductions of
//! `⌈log₂ max(W, H)⌉` passes each.
//!
//! **Work** ([`FragmentBicg::work`]) is tallied per pass from the texels it reads and writes
//! (4 bytes each; the gathered x of the SpMV counted once per stored entry, no cache model),
//! as `gpu/work.rs` counts the compute dispatches: SpMV `4(n + 3·nnz + n)` bytes and `2·nnz`
//! flops; an axpy `12n` bytes, `2n` flops; asolve `12n` bytes, `n` flops; a reduction pass
//! over `s` source texels into `o` `4(s·k + o)` bytes (k = 2 for the product pass) and
//! `s·k` flops.

use std::cell::Cell;
use std::rc::Rc;

use super::cpu::{BicgInfo, BicgParams};
use super::ellpack::EllpackR;
use super::gpu::GpuBicgError;
use super::linbcg::{self, AKDEN, BNRM, PNRM, RHO, Slot, V, VECTORS, XNRM, ZNRM};
pub use super::reduce_trace::REDUCE;
use super::reduce_trace::reduce_defines;
use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::{
    Define, Format, Gl, GlError, PassObserver, PingPong, PingPongMethod, Program, Quad, QuadBatch,
    Rect, RenderTexture, TexTarget, Texture,
};

/// Column indices and row lengths are stored as f32: exact up to 2²⁴.
pub const MAX_EXACT: usize = 1 << 24;

/// The shaders of the fragment build.
pub const SPMV: &str = "bicg/frag_spmv.frag";
pub const AXPY: &str = "bicg/frag_axpy.frag";
pub const ASOLVE: &str = "bicg/frag_asolve.frag";

/// The SpMV's `#define`s for a layout `w` (a power of two) texels wide.
fn spmv_defines(w: u32) -> Vec<Define> {
    vec![
        Define::new("W", w),
        Define::new("LOG_W", w.trailing_zeros()),
    ]
}

/// Every program the fragment build compiles (the SpMV at one width): what the shader test
/// compiles.
pub fn programs() -> Vec<(&'static str, Vec<Define>)> {
    let mut v = vec![(SPMV, spmv_defines(1024)), (AXPY, vec![]), (ASOLVE, vec![])];
    for (max, first) in [(false, true), (false, false), (true, true), (true, false)] {
        v.push((REDUCE, reduce_defines(max, first)));
    }
    v
}

/// The vector layout `(W, H)` for `n` rows with `m` slots on a device whose largest texture
/// is `max_size`, or why it does not fit (checked before anything is allocated).
pub fn layout(n: usize, m: usize, max_size: i32) -> Result<(u32, u32), GpuBicgError> {
    if n > MAX_EXACT {
        return Err(GpuBicgError::TooLarge {
            what: format!("{n} rows"),
            limit: format!(
                "the fragment build stores column indices as f32, exact up to {MAX_EXACT}"
            ),
        });
    }
    let max = max_size.max(1) as u64;
    let cap = 1u64 << (63 - max.leading_zeros());
    let mut w = 1u64;
    while w * w < n as u64 && w < cap {
        w *= 2;
    }
    let h = (n as u64).div_ceil(w).max(1);
    let slots = h * m.max(1) as u64;
    if slots > max {
        return Err(GpuBicgError::TooLarge {
            what: format!("{n} rows × {m} slots need a {w}×{slots} texture"),
            limit: format!("GL_MAX_TEXTURE_SIZE is {max_size}"),
        });
    }
    Ok((w as u32, h as u32))
}

/// The matrix in textures.
struct MatrixTextures {
    val: Texture,
    col: Texture,
    rl: Texture,
}

const RESULTS: u32 = linbcg::RESULTS as u32;

/// The programs of one build.
struct Programs {
    spmv: Rc<Program>,
    axpy: Rc<Program>,
    asolve: Rc<Program>,
    /// `[sum first, sum, max first, max]`.
    reduce: [Rc<Program>; 4],
}

/// The fp32 Bi-CG as fragment passes, holding one matrix in textures (see the module docs).
pub struct FragmentBicg {
    gl: Gl,
    n: usize,
    nnz: usize,
    w: u32,
    h: u32,
    a: MatrixTextures,
    /// Aᵀ; `None` when A is symmetric and its own textures serve.
    at: Option<MatrixTextures>,
    diag: Texture,
    vecs: Vec<PingPong>,
    /// The reduction chain: render targets of halving size below `W × H`, with their quads.
    chain: Vec<(RenderTexture, QuadBatch)>,
    results: RenderTexture,
    /// One quad per texel of the results texture.
    slots: Vec<QuadBatch>,
    full: QuadBatch,
    prog: Programs,
    work: Cell<Work>,
}

/// `data` as f32, padded with `pad` to `w × h`.
fn wrap(data: impl Iterator<Item = f32>, w: u32, h: u32, pad: f32) -> Vec<f32> {
    let mut v: Vec<f32> = data.collect();
    v.resize(w as usize * h as usize, pad);
    v
}

impl FragmentBicg {
    /// Uploads A (and Aᵀ unless `symmetric`) and builds the passes; refuses a matrix the
    /// layout cannot hold before allocating anything.
    pub fn new(gl: &Gl, a: &EllpackR<f32>, symmetric: bool) -> Result<FragmentBicg, GpuBicgError> {
        let n = a.n;
        let (w, h) = layout(n, a.m, gl.info().max_texture_size)?;
        let diag = a.diagonal()?;
        let tex = |data: Vec<f32>, rows: u32| {
            Texture::new(gl, TexTarget::Tex2D, Format::R32F, w, rows, Some(&data))
        };
        let matrix = |m: &EllpackR<f32>| -> Result<MatrixTextures, GlError> {
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
        };
        let zeros = vec![0.0f32; (w * h) as usize];
        let vecs = (0..VECTORS)
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
            .collect::<Result<Vec<_>, _>>()?;
        let mut chain = Vec::new();
        let (mut cw, mut ch) = (w, h);
        while cw > 2 || ch > 2 {
            (cw, ch) = (cw.div_ceil(2), ch.div_ceil(2));
            chain.push((
                RenderTexture::new(gl, TexTarget::Tex2D, Format::R32F, cw, ch, None)?,
                QuadBatch::new(gl, &[Quad::identity(Rect::full(cw, ch))])?,
            ));
        }
        let frag = |file: &str, d: &[Define]| Program::fragment(gl, file, d);
        let r = |max, first| frag(REDUCE, &reduce_defines(max, first));
        let prog = Programs {
            spmv: frag(SPMV, &spmv_defines(w))?,
            axpy: frag(AXPY, &[])?,
            asolve: frag(ASOLVE, &[])?,
            reduce: [
                r(false, true)?,
                r(false, false)?,
                r(true, true)?,
                r(true, false)?,
            ],
        };
        Ok(FragmentBicg {
            gl: gl.clone(),
            n,
            nnz: a.nnz(),
            w,
            h,
            a: matrix(a)?,
            at: if symmetric {
                None
            } else {
                Some(matrix(&a.transpose())?)
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

    /// A full-size pass's work: `fetched` bytes of R32F fetches, `written` bytes of target.
    fn tally(&self, fetched: f64, written: f64, flops: f64) {
        let mut w = self.work.get();
        w.bytes += Bytes::of(&[(Access::TexScalar, fetched), (Access::Target, written)]);
        w.flops32 += flops;
        w.passes += 1;
        self.work.set(w);
    }

    fn tex(&self, v: V) -> &Texture {
        self.vecs[v as usize].input()
    }

    /// One full-size pass of `prog` into `dst` with `textures` bound in order.
    fn pass(&mut self, prog: &Program, dst: V, textures: &[(&str, V)]) -> Result<(), GlError> {
        self.vecs[dst as usize].bind_output();
        prog.bind();
        for (unit, &(name, v)) in textures.iter().enumerate() {
            prog.bind_texture(unit as u32, name, self.tex(v));
        }
        self.full.draw(prog, self.w, self.h)?;
        self.vecs[dst as usize].end_pass(Rect::full(self.w, self.h))
    }

    /// `dst = a + s·b`.
    fn axpy(&mut self, a: V, s: f64, b: V, dst: V) -> Result<(), GlError> {
        let p = self.prog.axpy.clone();
        p.bind();
        p.set_f32("u_s", s as f32);
        self.pass(&p, dst, &[("u_a", a), ("u_b", b)])?;
        let n = self.n as f64;
        self.tally(8.0 * n, 4.0 * n, 2.0 * n);
        Ok(())
    }

    /// `dst = r / diag A`.
    fn asolve(&mut self, r: V, dst: V) -> Result<(), GlError> {
        let p = self.prog.asolve.clone();
        p.bind();
        p.bind_texture(1, "u_diag", &self.diag);
        self.pass(&p, dst, &[("u_r", r)])?;
        let n = self.n as f64;
        self.tally(8.0 * n, 4.0 * n, n);
        Ok(())
    }

    /// `dst = A x` (or `Aᵀ x`).
    fn spmv(&mut self, transpose: bool, x: V, dst: V) -> Result<(), GlError> {
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

    /// Σ aᵢbᵢ (`b = Some`) or max |aᵢ| (`b = None`) into texel `slot` of the results texture.
    fn reduce(&self, a: V, b: Option<V>, slot: Slot) -> Result<(), GlError> {
        self.reduce_observed(a, b, slot, None)
    }

    /// [`Self::reduce`] with an observer called before and after every pass (the `trace`
    /// command; `reduce_trace.rs` says what each pass is). The GL work is the same.
    fn reduce_observed<'o>(
        &self,
        a: V,
        b: Option<V>,
        slot: Slot,
        mut obs: Option<&mut (dyn PassObserver + 'o)>,
    ) -> Result<(), GlError> {
        let slot = slot.index() as u32;
        let max = b.is_none();
        let progs = &self.prog.reduce;
        let (first, rest) = if max {
            (&progs[2], &progs[3])
        } else {
            (&progs[0], &progs[1])
        };
        let mut src: &Texture = self.tex(a);
        let (mut sw, mut sh) = (self.w, self.h);
        let levels = self.chain.len();
        for level in 0..=levels {
            let prog = if level == 0 { first } else { rest };
            if let Some(o) = obs.as_deref_mut() {
                o.before(&self.level_pass(max, level, (a, b), src, (sw, sh), slot))?;
            }
            prog.bind();
            prog.bind_texture(0, "u_a", src);
            if level == 0 {
                prog.bind_texture(1, "u_b", self.tex(b.unwrap_or(a)));
            }
            prog.set_vec2("u_size", [sw as f32, sh as f32]);
            let (ow, oh);
            if level == levels {
                // The last pass: one texel of the results texture.
                self.results.bind();
                prog.set_vec2("u_origin", [slot as f32, 0.0]);
                self.slots[slot as usize].draw(prog, RESULTS, 1)?;
                (ow, oh) = (1, 1);
            } else {
                let (target, quad) = &self.chain[level];
                target.bind();
                prog.set_vec2("u_origin", [0.0, 0.0]);
                (ow, oh) = (target.texture().width(), target.texture().height());
                quad.draw(prog, ow, oh)?;
                src = target.texture();
            }
            let reads = (sw * sh) as f64 * if level == 0 && !max { 2.0 } else { 1.0 };
            let mut w = self.work.get();
            w.bytes += Bytes::of(&[
                (Access::TexScalar, 4.0 * reads),
                (Access::Target, 4.0 * (ow * oh) as f64),
            ]);
            w.flops32 += reads;
            w.passes += 1;
            self.work.set(w);
            if let Some(o) = obs.as_deref_mut() {
                // `src` is now this pass's target: describe it with the source it read.
                let read = if level == 0 {
                    self.tex(a)
                } else {
                    self.chain[level - 1].0.texture()
                };
                o.after(&self.level_pass(max, level, (a, b), read, (sw, sh), slot))?;
            }
            (sw, sh) = (ow, oh);
        }
        self.gl.check("fragment reduction")
    }

    /// What pass `level` of a reduction of `(a, b)` reading `src` (`size` texels) is.
    fn level_pass<'s>(
        &'s self,
        max: bool,
        level: usize,
        (a, b): (V, Option<V>),
        src: &'s Texture,
        size: (u32, u32),
        slot: u32,
    ) -> crate::gl::PassInfo<'s> {
        let levels = self.chain.len();
        let sources = if level == 0 {
            let mut v = vec![("a".to_string(), self.tex(a))];
            if let Some(b) = b {
                v.push(("b".to_string(), self.tex(b)));
            }
            v
        } else {
            vec![(format!("level {level}"), src)]
        };
        let (label, target, quad) = if level == levels {
            let q = Quad::identity(Rect::new(slot, 0, 1, 1));
            ("results".to_string(), self.results.texture(), q)
        } else {
            let t = self.chain[level].0.texture();
            let q = Quad::identity(Rect::full(t.width(), t.height()));
            (format!("level {}", level + 1), t, q)
        };
        super::reduce_trace::level_info(
            max,
            level,
            levels,
            sources,
            size,
            (&label, target),
            quad,
            slot,
        )
    }

    /// Reads `count` results from texel `first` on, in f64.
    fn read_results(&self, first: Slot, count: u32) -> Result<Vec<f64>, GlError> {
        Ok(self
            .results
            .texture()
            .read_rect(Rect::new(first.index() as u32, 0, count, 1))?
            .into_iter()
            .map(f64::from)
            .collect())
    }

    /// Replaces the state of vector `v` with `data` (padded with zeros).
    fn upload(&mut self, v: V, data: &[f64]) -> Result<(), GlError> {
        let d = wrap(data.iter().map(|&x| x as f32), self.w, self.h, 0.0);
        self.vecs[v as usize].upload(&d)
    }

    fn read(&self, v: V) -> Result<Vec<f64>, GlError> {
        let mut x = self.vecs[v as usize].read()?;
        x.truncate(self.n);
        Ok(x.into_iter().map(f64::from).collect())
    }

    /// Solves A x = b from `x0` (NR `linbcg`, `itol = 4`: [`linbcg::solve`] over this
    /// solver's passes, as [`super::gpu::GpuBicg::solve`] over its kernels). The iterate
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

/// The passes of one `linbcg` iteration (see [`linbcg`]): scalars come back through the
/// results texture.
impl linbcg::Steps for FragmentBicg {
    fn n(&self) -> usize {
        self.n
    }

    fn start(&mut self, b: &[f64], x0: &[f64]) -> Result<(f64, f64), GpuBicgError> {
        self.upload(V::B, b)?;
        self.upload(V::X, x0)?;
        self.spmv(false, V::X, V::Tmp)?;
        self.axpy(V::B, -1.0, V::Tmp, V::R)?;
        self.axpy(V::R, 0.0, V::R, V::Rr)?;
        self.asolve(V::B, V::Z)?;
        self.reduce(V::Z, None, BNRM)?;
        self.asolve(V::R, V::Z)?;
        self.reduce(V::Z, None, ZNRM)?;
        let s = self.read_results(ZNRM, 4)?;
        Ok((s[0], s[3]))
    }

    fn rho(&mut self) -> Result<f64, GpuBicgError> {
        self.asolve(V::Rr, V::Zz)?;
        self.reduce(V::Z, Some(V::Rr), RHO)?;
        Ok(self.read_results(RHO, 1)?[0])
    }

    fn directions(&mut self, beta: Option<f64>) -> Result<(), GpuBicgError> {
        // The first p = z, p̄ = z̄ is a copy: s = 0 with b = a.
        let (bk, p, pp) = match beta {
            None => (0.0, V::Z, V::Zz),
            Some(bk) => (bk, V::P, V::Pp),
        };
        self.axpy(V::Z, bk, p, V::P)?;
        self.axpy(V::Zz, bk, pp, V::Pp)?;
        Ok(())
    }

    fn akden(&mut self) -> Result<f64, GpuBicgError> {
        self.spmv(false, V::P, V::Z)?;
        self.reduce(V::Z, Some(V::Pp), AKDEN)?;
        Ok(self.read_results(AKDEN, 1)?[0])
    }

    fn update(&mut self, ak: f64) -> Result<[f64; 3], GpuBicgError> {
        self.spmv(true, V::Pp, V::Zz)?;
        self.axpy(V::X, ak, V::P, V::X)?;
        self.axpy(V::R, -ak, V::Z, V::R)?;
        self.axpy(V::Rr, -ak, V::Zz, V::Rr)?;
        self.asolve(V::R, V::Z)?;
        self.reduce(V::Z, None, ZNRM)?;
        self.reduce(V::P, None, PNRM)?;
        self.reduce(V::X, None, XNRM)?;
        let s = self.read_results(ZNRM, 3)?;
        Ok([s[0], s[1], s[2]])
    }

    fn iterate(&mut self) -> Result<Vec<f64>, GpuBicgError> {
        Ok(self.read(V::X)?)
    }
}
