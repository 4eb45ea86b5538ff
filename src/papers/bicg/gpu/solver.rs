//! The solver: the matrix and vectors on the device, the preconditioned Bi-CG iteration of
//! [`linbcg`] over the passes of `passes.rs`.

use bytemuck::Pod;

use super::kernels::{Kernel, Profile, Programs, check_fits};
use super::options::GpuOptions;
use super::work;
use crate::float::Real;
use crate::gl::{Buffer, Gl, GlError};
use crate::papers::bicg::cpu::{BicgInfo, BicgParams};
use crate::papers::bicg::ellpack::EllpackR;
use crate::papers::bicg::error::GpuBicgError;
use crate::papers::bicg::linbcg::{self, AKDEN, BNRM, PNRM, RHO, V, XNRM, ZNRM};

pub(super) struct DeviceMatrix<T: Pod> {
    pub(super) val: Buffer<T>,
    pub(super) col: Buffer<u32>,
    pub(super) rl: Buffer<u32>,
}

impl<T: Real> DeviceMatrix<T> {
    fn new(gl: &Gl, a: &EllpackR<T>) -> Result<Self, GlError> {
        Ok(DeviceMatrix {
            val: Buffer::from_slice(gl, &a.val)?,
            col: Buffer::from_slice(gl, &a.col)?,
            rl: Buffer::from_slice(gl, &a.rl)?,
        })
    }
}

/// Coefficient slots for `v_plus_bu`.
pub(super) const C_BETA: u32 = 0;
pub(super) const C_ALPHA: u32 = 1;
pub(super) const C_MALPHA: u32 = 2;

/// The Bi-CG solver on the GPU for one matrix (kept on the device between solves).
pub struct GpuBicg<T: Real> {
    pub(super) gl: Gl,
    pub(super) n: usize,
    pub(super) opts: GpuOptions,
    pub(super) a: DeviceMatrix<T>,
    /// Aᵀ; `None` when A is symmetric and its own buffers serve.
    pub(super) at: Option<DeviceMatrix<T>>,
    pub(super) diag: Buffer<T>,
    pub(super) vecs: Vec<Buffer<T>>,
    pub(super) partial: Buffer<T>,
    pub(super) results: Buffer<T>,
    pub(super) coef: Buffer<T>,
    pub(super) groups: u32,
    pub(super) red_groups: u32,
    pub(super) prog: Programs,
    pub(super) profile: Option<Profile>,
    /// The sizes the dispatches' work is counted from ([`work`]).
    pub(super) shape: work::Shape,
    /// The kernel type the dispatches now running count as (set by `run`).
    pub(super) current: Kernel,
    /// Work per kernel type since the last [`GpuBicg::reset_work`].
    pub(super) tally: std::cell::RefCell<std::collections::BTreeMap<Kernel, crate::bench::Work>>,
}

impl<T: Real> GpuBicg<T> {
    /// Uploads A (and Aᵀ unless `symmetric`) and builds the kernels.
    pub fn new(
        gl: &Gl,
        a: &EllpackR<T>,
        symmetric: bool,
        opts: GpuOptions,
    ) -> Result<GpuBicg<T>, GpuBicgError> {
        let limit = gl.info().max_work_group_invocations.max(0) as u32;
        let l = opts.local_size;
        if !l.is_power_of_two() || !(32..=1024).contains(&l) || (limit > 0 && l > limit) {
            return Err(GpuBicgError::LocalSize(l, limit));
        }
        let n = a.n;
        check_fits(gl, n, a.m, std::mem::size_of::<T>())?;
        let diag: Vec<T> = a.diagonal()?.into_iter().map(T::from_f64).collect();
        let prog = Programs::new(gl, T::GLSL, l)?;
        let groups = (n as u32).div_ceil(l).clamp(1, 65_535);
        let red_groups = (n as u32).div_ceil(2 * l).clamp(1, 1024);
        let vecs = (0..9)
            .map(|_| Buffer::zeroed(gl, n))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GpuBicg {
            gl: gl.clone(),
            n,
            opts,
            a: DeviceMatrix::new(gl, a)?,
            at: if symmetric {
                None
            } else {
                Some(DeviceMatrix::new(gl, &a.transpose())?)
            },
            diag: Buffer::from_slice(gl, &diag)?,
            vecs,
            // Three runs of partials (the fused variant's max-norms); one otherwise.
            partial: Buffer::zeroed(gl, 3 * red_groups as usize)?,
            results: Buffer::zeroed(gl, linbcg::RESULTS)?,
            coef: Buffer::zeroed(gl, 4)?,
            groups,
            red_groups,
            prog,
            profile: None,
            shape: work::Shape {
                n,
                nnz: a.nnz(),
                e: std::mem::size_of::<T>(),
                invocations: (groups * l) as usize,
                red_groups: red_groups as usize,
                fp64: std::mem::size_of::<T>() == 8,
            },
            current: Kernel::HtoD,
            tally: Default::default(),
        })
    }

    /// Order of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Turns per-kernel profiling on (every call between two `glFinish`) and clears it.
    pub fn set_profiling(&mut self, on: bool) {
        self.profile = on.then(Profile::default);
    }

    /// Clears the work counted so far (see [`work`]).
    pub fn reset_work(&mut self) {
        self.tally.borrow_mut().clear();
    }

    /// The work of kernel type `k`'s dispatches since the last [`GpuBicg::reset_work`]
    /// (or since the solver was built).
    pub fn kernel_work(&self, k: Kernel) -> crate::bench::Work {
        self.tally.borrow().get(&k).copied().unwrap_or(work::none())
    }

    /// The work of every dispatch since the last [`GpuBicg::reset_work`].
    pub fn work(&self) -> crate::bench::Work {
        self.tally
            .borrow()
            .values()
            .fold(work::none(), |acc, &w| work::add(acc, w))
    }

    /// The profile gathered since profiling was turned on.
    pub fn profile(&self) -> Option<&Profile> {
        self.profile.as_ref()
    }

    /// Solves A x = b from `x0` (NR `linbcg`, `itol = 4`: [`linbcg::solve`] over these
    /// kernels; see [`crate::papers::bicg::cpu`]). The iterate comes back in f64 whether or not the solve
    /// converged; [`BicgInfo::into_result`] turns a non-converged one into an error.
    pub fn solve(
        &mut self,
        b: &[f64],
        x0: &[f64],
        params: &BicgParams,
    ) -> Result<(Vec<f64>, BicgInfo), GpuBicgError> {
        linbcg::solve(self, b, x0, params)
    }
}

/// The kernels of one `linbcg` iteration (see [`linbcg`]), fused or not
/// ([`GpuOptions::fused`]): scalars come back through the results buffer, α and β go down
/// through the coefficients buffer.
impl<T: Real> linbcg::Steps for GpuBicg<T> {
    fn n(&self) -> usize {
        self.n
    }

    fn start(&mut self, b: &[f64], x0: &[f64]) -> Result<(f64, f64), GpuBicgError> {
        let bt: Vec<T> = b.iter().map(|&v| T::from_f64(v)).collect();
        let xt: Vec<T> = x0.iter().map(|&v| T::from_f64(v)).collect();
        self.run(Kernel::HtoD, |s| {
            s.v(V::B).upload(&bt)?;
            s.v(V::X).upload(&xt)
        })?;
        self.spmv(false, V::X, V::R)?;
        self.v(V::B).bind(0);
        self.v(V::R).bind(1);
        self.v(V::R).bind(2);
        self.elementwise(Kernel::Sub, None)?;
        self.copy(V::R, V::Rr)?;
        self.asolve(V::B, V::Z)?;
        self.reduce(V::Z, true, BNRM)?;
        self.asolve(V::R, V::Z)?;
        self.reduce(V::Z, true, ZNRM)?;
        let s = self.read_results(ZNRM, 4)?;
        Ok((s[0], s[3]))
    }

    fn rho(&mut self) -> Result<f64, GpuBicgError> {
        if self.opts.fused {
            self.fused_rho()?;
        } else {
            self.asolve(V::Rr, V::Zz)?;
            self.dot(V::Z, V::Rr, RHO)?;
        }
        Ok(self.read_results(RHO, 1)?[0])
    }

    fn directions(&mut self, beta: Option<f64>) -> Result<(), GpuBicgError> {
        let Some(bk) = beta else {
            self.copy(V::Z, V::P)?;
            self.copy(V::Zz, V::Pp)?;
            return Ok(());
        };
        self.set_coef(C_BETA, &[bk])?;
        if self.opts.fused {
            self.fused_directions()?;
        } else {
            self.v_plus_bu(V::Z, V::P, C_BETA, V::P)?;
            self.v_plus_bu(V::Zz, V::Pp, C_BETA, V::Pp)?;
        }
        Ok(())
    }

    fn akden(&mut self) -> Result<f64, GpuBicgError> {
        if self.opts.fused {
            self.fused_spmv_dot()?;
        } else {
            self.spmv(false, V::P, V::Z)?;
            self.dot(V::Z, V::Pp, AKDEN)?;
        }
        Ok(self.read_results(AKDEN, 1)?[0])
    }

    fn update(&mut self, ak: f64) -> Result<[f64; 3], GpuBicgError> {
        self.set_coef(C_ALPHA, &[ak, -ak])?;
        self.spmv(true, V::Pp, V::Zz)?;
        if self.opts.fused {
            self.fused_update()?;
        } else {
            self.v_plus_bu(V::X, V::P, C_ALPHA, V::X)?;
            self.v_plus_bu(V::R, V::Z, C_MALPHA, V::R)?;
            self.v_plus_bu(V::Rr, V::Zz, C_MALPHA, V::Rr)?;
            self.asolve(V::R, V::Z)?;
            self.reduce(V::Z, true, ZNRM)?;
            self.reduce(V::P, true, PNRM)?;
            self.reduce(V::X, true, XNRM)?;
        }
        let s = self.read_results(ZNRM, 3)?;
        Ok([s[0], s[1], s[2]])
    }

    fn iterate(&mut self) -> Result<Vec<f64>, GpuBicgError> {
        let x = self.run(Kernel::DtoH, |s| s.v(V::X).read())?;
        Ok(x.into_iter().map(Into::into).collect())
    }
}

/// Single kernels on resident data, for the SpMV bandwidth benchmark and the tests.
impl<T: Real> GpuBicg<T> {
    /// y = A x through the SpMV kernel (x uploaded, y read back): the test of the kernel.
    pub fn apply(&mut self, x: &[f64], transpose: bool) -> Result<Vec<f64>, GpuBicgError> {
        if x.len() != self.n {
            return Err(GpuBicgError::Length {
                got: x.len(),
                n: self.n,
            });
        }
        let xt: Vec<T> = x.iter().map(|&v| T::from_f64(v)).collect();
        self.v(V::X).upload(&xt)?;
        self.spmv(transpose, V::X, V::Z)?;
        Ok(self.v(V::Z).read()?.into_iter().map(Into::into).collect())
    }

    /// One SpMV on the resident vectors (no transfer): what the bandwidth benchmark times.
    pub fn spmv_resident(&mut self) -> Result<(), GlError> {
        self.spmv(false, V::P, V::Z)
    }

    /// One `copy.comp` pass on resident vectors: `2·n·size_of::<T>()` bytes streamed, the
    /// device's streaming bandwidth that SpMV is compared with.
    pub fn copy_resident(&mut self) -> Result<(), GlError> {
        self.copy(V::P, V::Z)
    }

    /// Σ aᵢbᵢ and max |aᵢ| through the reduction kernels (for the tests).
    pub fn reductions(&mut self, a: &[f64], b: &[f64]) -> Result<(f64, f64), GpuBicgError> {
        let at: Vec<T> = a.iter().map(|&v| T::from_f64(v)).collect();
        let bt: Vec<T> = b.iter().map(|&v| T::from_f64(v)).collect();
        self.v(V::P).upload(&at)?;
        self.v(V::Pp).upload(&bt)?;
        self.dot(V::P, V::Pp, RHO)?;
        self.reduce(V::P, true, PNRM)?;
        let s = self.read_results(RHO, 4)?;
        Ok((s[0], s[3]))
    }
}
