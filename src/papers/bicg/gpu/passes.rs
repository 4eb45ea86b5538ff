//! The solver's passes on its resident buffers: one method per kernel of the paper's profile
//! (SpMV, V_plus_bU, asolveKernel, Copy, Sub, the two reduction stages, a dot product as
//! V_mul_U + Σ or one fused reduction), the fused variant's passes, and the scalar transfers
//! (memcpyDtoH of the reductions' results, memcpyHtoD of the coefficients). Each binds its
//! buffers, dispatches its program (`kernels::PROGRAMS`) and is timed as its
//! [`Kernel`] when profiling is on.

use super::kernels::{Kernel, Prog};
use super::solver::GpuBicg;
use crate::float::Real;
use crate::gl::{Buffer, GlError, bind_all};
use crate::papers::bicg::linbcg::{AKDEN, PNRM, RHO, Slot, V, XNRM, ZNRM};

impl<T: Real> GpuBicg<T> {
    pub(super) fn v(&self, v: V) -> &Buffer<T> {
        &self.vecs[v as usize]
    }

    /// Runs `f` as kernel `k` (timed when profiling).
    pub(super) fn run<R>(&mut self, k: Kernel, f: impl FnOnce(&Self) -> R) -> R {
        self.current = k;
        match self.profile.take() {
            None => f(self),
            Some(mut p) => {
                let w = p.watches.entry(k).or_default();
                let gl = self.gl.clone();
                let out = w.time(&gl, || f(self));
                self.profile = Some(p);
                out
            }
        }
    }

    /// Binds program `p`, sets its `uniforms` in order, dispatches `groups` work groups and
    /// issues the storage barrier that later passes and readbacks need.
    fn dispatch(&self, p: Prog, groups: u32, uniforms: &[(&str, u32)]) -> Result<(), GlError> {
        let prog = self.prog.get(p);
        prog.bind();
        for &(name, value) in uniforms {
            prog.set_u32(name, value);
        }
        prog.dispatch([groups, 1, 1])?;
        self.gl.storage_barrier();
        let w = super::work::dispatch_work(p, &self.shape);
        self.tally
            .borrow_mut()
            .entry(self.current)
            .and_modify(|t| *t = super::work::add(*t, w))
            .or_insert(w);
        Ok(())
    }

    pub(super) fn spmv(&mut self, transpose: bool, x: V, y: V) -> Result<(), GlError> {
        self.run(Kernel::SpMV, |s| {
            let m = if transpose {
                s.at.as_ref().unwrap_or(&s.a)
            } else {
                &s.a
            };
            bind_all(0, &[&m.val, &m.col, &m.rl, s.v(x), s.v(y)]);
            s.dispatch(Prog::Spmv, s.groups, &[("u_n", s.n as u32)])
        })
    }

    /// Dispatches an element-wise kernel over the buffers the caller bound.
    pub(super) fn elementwise(&mut self, k: Kernel, slot: Option<u32>) -> Result<(), GlError> {
        let prog = match k {
            Kernel::VPlusBU => Prog::VPlusBU,
            Kernel::VMulU => Prog::VMulU,
            Kernel::Asolve => Prog::Asolve,
            Kernel::Copy => Prog::Copy,
            _ => Prog::Sub,
        };
        self.run(k, |s| {
            let n = ("u_n", s.n as u32);
            match slot {
                None => s.dispatch(prog, s.groups, &[n]),
                Some(slot) => s.dispatch(prog, s.groups, &[n, ("u_slot", slot)]),
            }
        })
    }

    pub(super) fn v_plus_bu(&mut self, v: V, u: V, slot: u32, out: V) -> Result<(), GlError> {
        bind_all(0, &[self.v(v), self.v(u), self.v(out), &self.coef]);
        self.elementwise(Kernel::VPlusBU, Some(slot))
    }

    pub(super) fn asolve(&mut self, r: V, z: V) -> Result<(), GlError> {
        bind_all(0, &[self.v(r), &self.diag, self.v(z)]);
        self.elementwise(Kernel::Asolve, None)
    }

    pub(super) fn copy(&mut self, x: V, y: V) -> Result<(), GlError> {
        bind_all(0, &[self.v(x), self.v(y)]);
        self.elementwise(Kernel::Copy, None)
    }

    /// Two-stage reduction of `a` (Σ, or max |·| with `max`) into result slot `slot`.
    pub(super) fn reduce(&mut self, a: V, max: bool, slot: Slot) -> Result<(), GlError> {
        let (k6, k5) = if max {
            (Kernel::MaxReduce6, Kernel::MaxReduce5)
        } else {
            (Kernel::Reduce6, Kernel::Reduce5)
        };
        self.run(k6, |s| {
            bind_all(0, &[s.v(a), &s.partial]);
            let p = if max { Prog::Max } else { Prog::Sum };
            s.dispatch(p, s.red_groups, &[("u_n", s.n as u32)])
        })?;
        self.stage2(k5, max, slot, 0)
    }

    /// Folds the `red_groups` partials from `run` (0, 1, 2: which run of them) into `slot`.
    fn stage2(&mut self, k5: Kernel, max: bool, slot: Slot, run: u32) -> Result<(), GlError> {
        self.run(k5, |s| {
            bind_all(0, &[&s.partial, &s.results]);
            let p = if max { Prog::MaxFinal } else { Prog::SumFinal };
            s.dispatch(
                p,
                1,
                &[
                    ("u_count", s.red_groups),
                    ("u_slot", slot.index() as u32),
                    ("u_offset", run * s.red_groups),
                ],
            )
        })
    }

    /// a·b into result slot `slot`: V_mul_U then Σ (the paper), or one fused reduction.
    pub(super) fn dot(&mut self, a: V, b: V, slot: Slot) -> Result<(), GlError> {
        if self.opts.fused_dot {
            self.run(Kernel::Reduce6, |s| {
                bind_all(0, &[s.v(a), &s.partial, s.v(b)]);
                s.dispatch(Prog::Dot, s.red_groups, &[("u_n", s.n as u32)])
            })?;
            return self.stage2(Kernel::Reduce5, false, slot, 0);
        }
        bind_all(0, &[self.v(a), self.v(b), self.v(V::Tmp)]);
        self.elementwise(Kernel::VMulU, None)?;
        self.reduce(V::Tmp, false, slot)
    }

    /// Dispatches fused program `p` over the reduction grid with the buffers the caller
    /// bound, timed as kernel `k` (the paper's kernel it replaces).
    fn fused_pass(&mut self, k: Kernel, p: Prog, offsets: [u32; 2]) -> Result<(), GlError> {
        self.run(k, |s| {
            let groups = if p == Prog::FusedP {
                s.groups
            } else {
                s.red_groups
            };
            let n = ("u_n", s.n as u32);
            if matches!(p, Prog::FusedUpdateX | Prog::FusedUpdateR) {
                let a = ("u_off_a", offsets[0] * s.red_groups);
                let b = ("u_off_b", offsets[1] * s.red_groups);
                s.dispatch(p, groups, &[n, a, b])
            } else {
                s.dispatch(p, groups, &[n])
            }
        })
    }

    /// Fused: z̄ = Ã⁻ᵀ r̄ and ρ = z·r̄ into `RHO`.
    pub(super) fn fused_rho(&mut self) -> Result<(), GlError> {
        let v = |x| self.v(x);
        bind_all(0, &[v(V::Rr), &self.diag, v(V::Zz), v(V::Z), &self.partial]);
        self.fused_pass(Kernel::Asolve, Prog::FusedAsolveDot, [0, 0])?;
        self.stage2(Kernel::Reduce5, false, RHO, 0)
    }

    /// Fused: p = z + β p and p̄ = z̄ + β p̄.
    pub(super) fn fused_directions(&mut self) -> Result<(), GlError> {
        let v = |x| self.v(x);
        bind_all(0, &[v(V::Z), v(V::P), v(V::Zz), v(V::Pp), &self.coef]);
        self.fused_pass(Kernel::VPlusBU, Prog::FusedP, [0, 0])
    }

    /// Fused: z = A p and z·p̄ into `AKDEN`.
    pub(super) fn fused_spmv_dot(&mut self) -> Result<(), GlError> {
        let (a, v) = (&self.a, |x| self.v(x));
        bind_all(
            0,
            &[
                &a.val,
                &a.col,
                &a.rl,
                v(V::P),
                v(V::Z),
                v(V::Pp),
                &self.partial,
            ],
        );
        self.fused_pass(Kernel::SpMV, Prog::FusedSpmvDot, [0, 0])?;
        self.stage2(Kernel::Reduce5, false, AKDEN, 0)
    }

    /// Fused: x += α p, r −= α z, r̄ −= α z̄, z = Ã⁻¹ r, and ‖z‖∞, ‖p‖∞, ‖x‖∞ into their slots.
    pub(super) fn fused_update(&mut self) -> Result<(), GlError> {
        let v = |x| self.v(x);
        bind_all(0, &[v(V::X), v(V::P)]);
        bind_all(5, &[&self.coef, &self.partial]);
        self.fused_pass(Kernel::VPlusBU, Prog::FusedUpdateX, [1, 2])?;
        let v = |x| self.v(x);
        bind_all(0, &[v(V::R), v(V::Z), v(V::Rr), v(V::Zz), &self.diag]);
        self.fused_pass(Kernel::VPlusBU, Prog::FusedUpdateR, [0, 0])?;
        self.stage2(Kernel::MaxReduce5, true, ZNRM, 0)?;
        self.stage2(Kernel::MaxReduce5, true, PNRM, 1)?;
        self.stage2(Kernel::MaxReduce5, true, XNRM, 2)
    }

    pub(super) fn read_results(&mut self, first: Slot, count: usize) -> Result<Vec<f64>, GlError> {
        self.run(Kernel::DtoH, |s| {
            Ok(s.results
                .read_range(first.index(), count)?
                .into_iter()
                .map(Into::into)
                .collect())
        })
    }

    pub(super) fn set_coef(&mut self, slot: u32, vals: &[f64]) -> Result<(), GlError> {
        let v: Vec<T> = vals.iter().map(|&c| T::from_f64(c)).collect();
        self.run(Kernel::HtoD, |s| s.coef.upload_at(slot as usize, &v))
    }
}
