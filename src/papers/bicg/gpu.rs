//! The GPU solver: the preconditioned Bi-CG of [`super::cpu`] as GL 4.3 compute shaders,
//! one shader per kernel the paper's profile names (Table 2): `spmv.comp` (SpMV),
//! `v_plus_bu.comp` (V_plus_bU), `v_mul_u.comp` (V_mul_U), `asolve.comp` (asolveKernel),
//! `copy.comp` (Copy), `sub.comp` (Sub), and the two reduction stages profiled as
//! reduceKernel6/5 (with `OP_MAX`, MaxreduceKernel6/5): `reduce_grid_stride.comp`, a
//! grid-stride reduction (Harris's #7, multiple elements per thread, without the warp
//! unrolling of his #5/#6 that GLSL cannot express), and `reduce_partials.comp`, one work group
//! folding the partials (Harris's #4, the first combine during the load). The paper's "6"
//! and "5" are the CUDA SDK kernel numbers it used; ours keep the names in the profile only.
//! [`build_variants`] lists every shader with its switches in one place.
//!
//! As in the paper (§III.1) the matrix and vectors live on the device for the whole solve;
//! per iteration only scalars cross the bus: the three reductions' results are read back
//! (ρ; z·p̄; ‖z‖∞, ‖p‖∞, ‖x‖∞ — the paper's memcpyDtoH) and the host computes β and α in
//! f64 and writes them into a small coefficient buffer (memcpyHtoD) that `v_plus_bu` reads.
//! A dot product is V_mul_U into a scratch vector, then the two reduction stages, which is
//! what the paper's profile implies (as many V_mul_U calls as reduceKernel calls).
//!
//! `Real` picks the precision: `f64` (the paper) or `f32` (the single-precision build that
//! the paper says fails to converge on this problem).

use std::rc::Rc;

use bytemuck::Pod;

use super::cpu::{BicgError, BicgInfo, BicgParams, Stop, nr_error_estimate};
use super::ellpack::{EllpackError, EllpackR};
use crate::gl::timing::Stopwatch;
use crate::gl::{Buffer, Define, Gl, GlError, Program};

/// A floating-point type the shaders can be built for.
pub trait Real: Pod + Copy + Default + Into<f64> + PartialEq + std::fmt::Debug + 'static {
    /// The GLSL type name (`REAL`).
    const GLSL: &'static str;
    fn from_f64(v: f64) -> Self;
}
impl Real for f64 {
    const GLSL: &'static str = "double";
    fn from_f64(v: f64) -> Self {
        v
    }
}
impl Real for f32 {
    const GLSL: &'static str = "float";
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

/// The kernel types of the paper's profile (Table 2), in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kernel {
    SpMV,
    VPlusBU,
    Asolve,
    MaxReduce6,
    VMulU,
    Reduce6,
    Copy,
    HtoD,
    DtoH,
    MaxReduce5,
    Reduce5,
    Sub,
}

impl Kernel {
    pub const ALL: [Kernel; 12] = [
        Kernel::SpMV,
        Kernel::VPlusBU,
        Kernel::Asolve,
        Kernel::MaxReduce6,
        Kernel::VMulU,
        Kernel::Reduce6,
        Kernel::Copy,
        Kernel::HtoD,
        Kernel::DtoH,
        Kernel::MaxReduce5,
        Kernel::Reduce5,
        Kernel::Sub,
    ];
    /// The paper's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::SpMV => "SpMV",
            Kernel::VPlusBU => "V_plus_bU",
            Kernel::Asolve => "asolveKernel",
            Kernel::MaxReduce6 => "MaxreduceKernel6",
            Kernel::VMulU => "V_mul_U",
            Kernel::Reduce6 => "reduceKernel6",
            Kernel::Copy => "Copy",
            Kernel::HtoD => "memcpyHtoD",
            Kernel::DtoH => "memcpyDtoH",
            Kernel::MaxReduce5 => "MaxreduceKernel5",
            Kernel::Reduce5 => "reduceKernel5",
            Kernel::Sub => "Sub",
        }
    }
    /// Vectors of length n an element-wise kernel streams per call (read and written): what
    /// one call costs in a memory-bound profile. `None` for the other kernels.
    pub fn vectors_streamed(self) -> Option<u32> {
        match self {
            Kernel::VPlusBU | Kernel::VMulU | Kernel::Asolve | Kernel::Sub => Some(3),
            Kernel::Copy => Some(2),
            _ => None,
        }
    }
}

/// Per-kernel time and call count, each call bracketed by `glFinish`.
#[derive(Clone, Debug, Default)]
pub struct Profile {
    pub watches: std::collections::BTreeMap<Kernel, Stopwatch>,
}

impl Profile {
    pub fn seconds(&self, k: Kernel) -> f64 {
        self.watches
            .get(&k)
            .map_or(0.0, |w| w.total().as_secs_f64())
    }
    pub fn calls(&self, k: Kernel) -> u64 {
        self.watches.get(&k).map_or(0, |w| w.count())
    }
    pub fn total_seconds(&self) -> f64 {
        Kernel::ALL.iter().map(|&k| self.seconds(k)).sum()
    }
}

/// Build options of the GPU solver.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GpuOptions {
    /// Invocations per work group ("threads per block", 256 in the paper's Fig. 4): a power
    /// of two from 32 to the device's limit.
    pub local_size: u32,
    /// Dot products by one fused reduction (Σ aᵢbᵢ) instead of V_mul_U + reduction: a
    /// variant beyond the paper.
    pub fused_dot: bool,
    /// The fused variant, beyond the paper: the SpMV with its dot product, the
    /// preconditioner with ρ, both direction updates in one pass, and the x / r / r̄ / z
    /// updates with their max-norms in two (12 dispatches per iteration instead of 20).
    pub fused: bool,
}

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions {
            local_size: 256,
            fused_dot: false,
            fused: false,
        }
    }
}

/// Errors of the GPU solver.
#[derive(Debug, thiserror::Error)]
pub enum GpuBicgError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error(transparent)]
    Matrix(#[from] EllpackError),
    #[error("local size {0} is not a power of two in 32..=1024 within the device limit {1}")]
    LocalSize(u32, u32),
    #[error("vector of length {got} for a matrix of order {n}")]
    Length { got: usize, n: usize },
    #[error(transparent)]
    NotConverged(#[from] BicgError),
    #[error("too large for this device: {what}, but {limit}")]
    TooLarge { what: String, limit: String },
}

struct DeviceMatrix<T: Pod> {
    val: Buffer<T>,
    col: Buffer<u32>,
    rl: Buffer<u32>,
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

/// The solver's programs, in the order of [`PROGRAMS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prog {
    Spmv,
    VPlusBU,
    VMulU,
    Asolve,
    Copy,
    Sub,
    Sum,
    Max,
    Dot,
    SumFinal,
    MaxFinal,
    FusedAsolveDot,
    FusedP,
    FusedSpmvDot,
    FusedUpdateX,
    FusedUpdateR,
}

/// This paper's program variants in one place: each program as (shader file under
/// `glsl/bicg/`, the `#ifdef` switch it is built with). Every one is built for
/// `REAL` ∈ {double, float} and `LOCAL_SIZE` ∈ [`LOCAL_SIZES`] ([`program_variants`]).
/// Stage 1 of a reduction is `reduce_grid_stride.comp` (the paper's reduceKernel6 /
/// MaxreduceKernel6), stage 2 `reduce_partials.comp` (reduceKernel5 / MaxreduceKernel5).
const PROGRAMS: [(Prog, &str, Option<&str>); 16] = [
    (Prog::Spmv, "spmv", None),
    (Prog::VPlusBU, "v_plus_bu", None),
    (Prog::VMulU, "v_mul_u", None),
    (Prog::Asolve, "asolve", None),
    (Prog::Copy, "copy", None),
    (Prog::Sub, "sub", None),
    (Prog::Sum, "reduce_grid_stride", None),
    (Prog::Max, "reduce_grid_stride", Some("OP_MAX")),
    (Prog::Dot, "reduce_grid_stride", Some("FUSED_DOT")),
    (Prog::SumFinal, "reduce_partials", None),
    (Prog::MaxFinal, "reduce_partials", Some("OP_MAX")),
    (Prog::FusedAsolveDot, "fused_asolve_dot", None),
    (Prog::FusedP, "fused_p_update", None),
    (Prog::FusedSpmvDot, "fused_spmv_dot", None),
    (Prog::FusedUpdateX, "fused_update", Some("UPDATE_X")),
    (Prog::FusedUpdateR, "fused_update", None),
];

/// The local sizes ("threads per block") the solver accepts: powers of two in 32..=1024
/// (and within the device's limit).
pub const LOCAL_SIZES: [u32; 6] = [32, 64, 128, 256, 512, 1024];

/// The (file, defines) of every program of one build: precision `real` (GLSL type name)
/// and `local` invocations per group.
pub fn build_variants(real: &str, local: u32) -> Vec<(String, Vec<Define>)> {
    PROGRAMS
        .iter()
        .map(|&(_, file, flag)| {
            let mut d = vec![
                Define::new("REAL", real),
                Define::new("LOCAL_SIZE", format!("{local}u")),
            ];
            d.extend(flag.map(Define::flag));
            (format!("bicg/{file}.comp"), d)
        })
        .collect()
}

/// Every program variant the code can build: [`build_variants`] for both precisions and
/// every local size of [`LOCAL_SIZES`] (what the shader test compiles).
pub fn program_variants() -> Vec<(String, Vec<Define>)> {
    [f64::GLSL, f32::GLSL]
        .iter()
        .flat_map(|real| {
            LOCAL_SIZES
                .iter()
                .flat_map(move |&l| build_variants(real, l))
        })
        .collect()
}

struct Programs(Vec<Rc<Program>>);

impl Programs {
    fn new(gl: &Gl, real: &str, local: u32) -> Result<Programs, GlError> {
        build_variants(real, local)
            .iter()
            .map(|(file, defines)| Program::compute(gl, file, defines))
            .collect::<Result<_, _>>()
            .map(Programs)
    }
    fn get(&self, p: Prog) -> &Rc<Program> {
        debug_assert_eq!(
            PROGRAMS[p as usize].0, p,
            "PROGRAMS is in the order of Prog"
        );
        &self.0[p as usize]
    }
}

/// Device memory of one solver: A (and Aᵀ unless `symmetric`) as m·n values and indices plus
/// n row lengths, the diagonal and the nine work vectors; `elem` is the size of a value.
pub fn device_bytes(n: usize, m: usize, elem: usize, symmetric: bool) -> u64 {
    let (n, m, elem) = (n as u64, m as u64, elem as u64);
    let matrix = m * n * (elem + 4) + 4 * n;
    let copies = if symmetric { 1 } else { 2 };
    copies * matrix + 10 * n * elem
}

/// Refuses a matrix that the shaders or the device cannot hold, before anything is
/// allocated: the shaders index `val[k·n + i]` with 32-bit integers, and the largest buffer
/// (the m·n values) must fit `GL_MAX_SHADER_STORAGE_BLOCK_SIZE`.
pub fn check_fits(gl: &Gl, n: usize, m: usize, elem: usize) -> Result<(), GpuBicgError> {
    check_fits_on(gl.info(), n, m, elem)
}

/// [`check_fits`] against a device's limits (before any context work).
pub fn check_fits_on(
    info: &crate::gl::DeviceInfo,
    n: usize,
    m: usize,
    elem: usize,
) -> Result<(), GpuBicgError> {
    let entries = (n as u64) * (m as u64);
    if entries > u32::MAX as u64 {
        return Err(GpuBicgError::TooLarge {
            what: format!("{n} rows × {m} slots = {entries} stored entries"),
            limit: format!("the shaders' 32-bit index limit {}", u32::MAX),
        });
    }
    let bytes = entries * elem as u64;
    let max = info.max_ssbo_bytes;
    if max > 0 && bytes > max as u64 {
        return Err(GpuBicgError::TooLarge {
            what: format!("the value buffer of {n} rows × {m} slots needs {bytes} bytes"),
            limit: format!("GL_MAX_SHADER_STORAGE_BLOCK_SIZE is {max} bytes"),
        });
    }
    Ok(())
}

/// Vector names of the solver's device state.
#[derive(Clone, Copy)]
enum V {
    B,
    X,
    R,
    Rr,
    Z,
    Zz,
    P,
    Pp,
    Tmp,
}

/// Result slots of the reductions.
const RHO: usize = 0;
const AKDEN: usize = 1;
const ZNRM: usize = 2;
const PNRM: usize = 3;
const XNRM: usize = 4;
const BNRM: usize = 5;
/// Coefficient slots for `v_plus_bu`.
const C_BETA: u32 = 0;
const C_ALPHA: u32 = 1;
const C_MALPHA: u32 = 2;

/// The Bi-CG solver on the GPU for one matrix (kept on the device between solves).
pub struct GpuBicg<T: Real> {
    gl: Gl,
    n: usize,
    opts: GpuOptions,
    a: DeviceMatrix<T>,
    /// Aᵀ; `None` when A is symmetric and its own buffers serve.
    at: Option<DeviceMatrix<T>>,
    diag: Buffer<T>,
    vecs: Vec<Buffer<T>>,
    partial: Buffer<T>,
    results: Buffer<T>,
    coef: Buffer<T>,
    groups: u32,
    red_groups: u32,
    prog: Programs,
    profile: Option<Profile>,
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
            results: Buffer::zeroed(gl, 8)?,
            coef: Buffer::zeroed(gl, 4)?,
            groups,
            red_groups,
            prog,
            profile: None,
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

    /// The profile gathered since profiling was turned on.
    pub fn profile(&self) -> Option<&Profile> {
        self.profile.as_ref()
    }

    fn v(&self, v: V) -> &Buffer<T> {
        &self.vecs[v as usize]
    }

    /// Runs `f` as kernel `k` (timed when profiling).
    fn run<R>(&mut self, k: Kernel, f: impl FnOnce(&Self) -> R) -> R {
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

    fn spmv(&mut self, transpose: bool, x: V, y: V) -> Result<(), GlError> {
        self.run(Kernel::SpMV, |s| {
            let m = if transpose {
                s.at.as_ref().unwrap_or(&s.a)
            } else {
                &s.a
            };
            m.val.bind(0);
            m.col.bind(1);
            m.rl.bind(2);
            s.v(x).bind(3);
            s.v(y).bind(4);
            s.prog.get(Prog::Spmv).bind();
            s.prog.get(Prog::Spmv).set_u32("u_n", s.n as u32);
            s.prog.get(Prog::Spmv).dispatch([s.groups, 1, 1])?;
            s.gl.storage_barrier();
            Ok(())
        })
    }

    /// Dispatches an element-wise kernel over the buffers the caller bound.
    fn elementwise(&mut self, k: Kernel, slot: Option<u32>) -> Result<(), GlError> {
        let prog = match k {
            Kernel::VPlusBU => Prog::VPlusBU,
            Kernel::VMulU => Prog::VMulU,
            Kernel::Asolve => Prog::Asolve,
            Kernel::Copy => Prog::Copy,
            _ => Prog::Sub,
        };
        let prog = self.prog.get(prog).clone();
        let gl = self.gl.clone();
        let (n, groups) = (self.n as u32, self.groups);
        let go = || -> Result<(), GlError> {
            prog.bind();
            prog.set_u32("u_n", n);
            if let Some(s) = slot {
                prog.set_u32("u_slot", s);
            }
            prog.dispatch([groups, 1, 1])?;
            gl.storage_barrier();
            Ok(())
        };
        match self.profile.as_mut() {
            None => go(),
            Some(p) => p.watches.entry(k).or_default().time(&self.gl, go),
        }
    }

    fn v_plus_bu(&mut self, v: V, u: V, slot: u32, out: V) -> Result<(), GlError> {
        self.v(v).bind(0);
        self.v(u).bind(1);
        self.v(out).bind(2);
        self.coef.bind(3);
        self.elementwise(Kernel::VPlusBU, Some(slot))
    }

    fn asolve(&mut self, r: V, z: V) -> Result<(), GlError> {
        self.v(r).bind(0);
        self.diag.bind(1);
        self.v(z).bind(2);
        self.elementwise(Kernel::Asolve, None)
    }

    fn copy(&mut self, x: V, y: V) -> Result<(), GlError> {
        self.v(x).bind(0);
        self.v(y).bind(1);
        self.elementwise(Kernel::Copy, None)
    }

    /// Two-stage reduction of `a` (Σ, or max |·| with `max`) into result slot `slot`.
    fn reduce(&mut self, a: V, max: bool, slot: usize) -> Result<(), GlError> {
        let (k6, k5) = if max {
            (Kernel::MaxReduce6, Kernel::MaxReduce5)
        } else {
            (Kernel::Reduce6, Kernel::Reduce5)
        };
        self.run(k6, |s| {
            let p = s.prog.get(if max { Prog::Max } else { Prog::Sum });
            s.v(a).bind(0);
            s.partial.bind(1);
            p.bind();
            p.set_u32("u_n", s.n as u32);
            p.dispatch([s.red_groups, 1, 1])?;
            s.gl.storage_barrier();
            Ok::<_, GlError>(())
        })?;
        self.stage2(k5, max, slot, 0)
    }

    /// Folds the `red_groups` partials from `run` (0, 1, 2: which run of them) into `slot`.
    fn stage2(&mut self, k5: Kernel, max: bool, slot: usize, run: u32) -> Result<(), GlError> {
        self.run(k5, |s| {
            let p = s
                .prog
                .get(if max { Prog::MaxFinal } else { Prog::SumFinal });
            s.partial.bind(0);
            s.results.bind(1);
            p.bind();
            p.set_u32("u_count", s.red_groups);
            p.set_u32("u_slot", slot as u32);
            p.set_u32("u_offset", run * s.red_groups);
            p.dispatch([1, 1, 1])?;
            s.gl.storage_barrier();
            Ok(())
        })
    }

    /// a·b into result slot `slot`: V_mul_U then Σ (the paper), or one fused reduction.
    fn dot(&mut self, a: V, b: V, slot: usize) -> Result<(), GlError> {
        if self.opts.fused_dot {
            self.run(Kernel::Reduce6, |s| {
                s.v(a).bind(0);
                s.partial.bind(1);
                s.v(b).bind(2);
                let p = s.prog.get(Prog::Dot);
                p.bind();
                p.set_u32("u_n", s.n as u32);
                p.dispatch([s.red_groups, 1, 1])?;
                s.gl.storage_barrier();
                Ok::<_, GlError>(())
            })?;
            return self.stage2(Kernel::Reduce5, false, slot, 0);
        }
        self.v(a).bind(0);
        self.v(b).bind(1);
        self.v(V::Tmp).bind(2);
        self.elementwise(Kernel::VMulU, None)?;
        self.reduce(V::Tmp, false, slot)
    }

    /// Dispatches fused program `p` over the reduction grid with the buffers the caller
    /// bound, timed as kernel `k` (the paper's kernel it replaces).
    fn fused_pass(&mut self, k: Kernel, p: Prog, offsets: [u32; 2]) -> Result<(), GlError> {
        self.run(k, |s| {
            let prog = s.prog.get(p);
            prog.bind();
            prog.set_u32("u_n", s.n as u32);
            if matches!(p, Prog::FusedUpdateX | Prog::FusedUpdateR) {
                prog.set_u32("u_off_a", offsets[0] * s.red_groups);
                prog.set_u32("u_off_b", offsets[1] * s.red_groups);
            }
            let groups = if p == Prog::FusedP {
                s.groups
            } else {
                s.red_groups
            };
            prog.dispatch([groups, 1, 1])?;
            s.gl.storage_barrier();
            Ok(())
        })
    }

    /// Fused: z̄ = Ã⁻ᵀ r̄ and ρ = z·r̄ into `RHO`.
    fn fused_rho(&mut self) -> Result<(), GlError> {
        self.v(V::Rr).bind(0);
        self.diag.bind(1);
        self.v(V::Zz).bind(2);
        self.v(V::Z).bind(3);
        self.partial.bind(4);
        self.fused_pass(Kernel::Asolve, Prog::FusedAsolveDot, [0, 0])?;
        self.stage2(Kernel::Reduce5, false, RHO, 0)
    }

    /// Fused: p = z + β p and p̄ = z̄ + β p̄.
    fn fused_directions(&mut self) -> Result<(), GlError> {
        self.v(V::Z).bind(0);
        self.v(V::P).bind(1);
        self.v(V::Zz).bind(2);
        self.v(V::Pp).bind(3);
        self.coef.bind(4);
        self.fused_pass(Kernel::VPlusBU, Prog::FusedP, [0, 0])
    }

    /// Fused: z = A p and z·p̄ into `AKDEN`.
    fn fused_spmv_dot(&mut self) -> Result<(), GlError> {
        self.a.val.bind(0);
        self.a.col.bind(1);
        self.a.rl.bind(2);
        self.v(V::P).bind(3);
        self.v(V::Z).bind(4);
        self.v(V::Pp).bind(5);
        self.partial.bind(6);
        self.fused_pass(Kernel::SpMV, Prog::FusedSpmvDot, [0, 0])?;
        self.stage2(Kernel::Reduce5, false, AKDEN, 0)
    }

    /// Fused: x += α p, r −= α z, r̄ −= α z̄, z = Ã⁻¹ r, and ‖z‖∞, ‖p‖∞, ‖x‖∞ into their slots.
    fn fused_update(&mut self) -> Result<(), GlError> {
        self.v(V::X).bind(0);
        self.v(V::P).bind(1);
        self.coef.bind(5);
        self.partial.bind(6);
        self.fused_pass(Kernel::VPlusBU, Prog::FusedUpdateX, [1, 2])?;
        self.v(V::R).bind(0);
        self.v(V::Z).bind(1);
        self.v(V::Rr).bind(2);
        self.v(V::Zz).bind(3);
        self.diag.bind(4);
        self.fused_pass(Kernel::VPlusBU, Prog::FusedUpdateR, [0, 0])?;
        self.stage2(Kernel::MaxReduce5, true, ZNRM, 0)?;
        self.stage2(Kernel::MaxReduce5, true, PNRM, 1)?;
        self.stage2(Kernel::MaxReduce5, true, XNRM, 2)
    }

    fn read_results(&mut self, first: usize, count: usize) -> Result<Vec<f64>, GlError> {
        self.run(Kernel::DtoH, |s| {
            Ok(s.results
                .read_range(first, count)?
                .into_iter()
                .map(Into::into)
                .collect())
        })
    }

    fn set_coef(&mut self, slot: u32, vals: &[f64]) -> Result<(), GlError> {
        let v: Vec<T> = vals.iter().map(|&c| T::from_f64(c)).collect();
        self.run(Kernel::HtoD, |s| s.coef.upload_at(slot as usize, &v))
    }

    /// Solves A x = b from `x0` (NR `linbcg`, `itol = 4`; see [`super::cpu`]). The iterate
    /// comes back in f64 whether or not the solve converged; [`BicgInfo::into_result`]
    /// turns a non-converged one into an error.
    pub fn solve(
        &mut self,
        b: &[f64],
        x0: &[f64],
        params: &BicgParams,
    ) -> Result<(Vec<f64>, BicgInfo), GpuBicgError> {
        let n = self.n;
        for len in [b.len(), x0.len()] {
            if len != n {
                return Err(GpuBicgError::Length { got: len, n });
            }
        }
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
        let (mut znrm, bnrm) = (s[0], s[3]);
        let mut history = Vec::new();
        let stop = |iterations, err, history, stop| BicgInfo {
            iterations,
            err,
            history,
            stop,
        };
        if bnrm == 0.0 {
            return Ok((vec![0.0; n], stop(0, 0.0, history, Stop::Converged)));
        }
        let mut err = znrm / bnrm;
        let mut bkden = 1.0;
        let mut info = None;
        let fused = self.opts.fused;
        for iter in 1..=params.max_iter {
            if fused {
                self.fused_rho()?;
            } else {
                self.asolve(V::Rr, V::Zz)?;
                self.dot(V::Z, V::Rr, RHO)?;
            }
            let bknum = self.read_results(RHO, 1)?[0];
            if !bknum.is_finite() {
                info = Some(stop(
                    iter,
                    err,
                    std::mem::take(&mut history),
                    Stop::NonFinite,
                ));
                break;
            }
            if bknum == 0.0 {
                info = Some(stop(
                    iter,
                    err,
                    std::mem::take(&mut history),
                    Stop::BreakdownRho,
                ));
                break;
            }
            if iter == 1 {
                self.copy(V::Z, V::P)?;
                self.copy(V::Zz, V::Pp)?;
            } else {
                self.set_coef(C_BETA, &[bknum / bkden])?;
                if fused {
                    self.fused_directions()?;
                } else {
                    self.v_plus_bu(V::Z, V::P, C_BETA, V::P)?;
                    self.v_plus_bu(V::Zz, V::Pp, C_BETA, V::Pp)?;
                }
            }
            bkden = bknum;
            if fused {
                self.fused_spmv_dot()?;
            } else {
                self.spmv(false, V::P, V::Z)?;
                self.dot(V::Z, V::Pp, AKDEN)?;
            }
            let akden = self.read_results(AKDEN, 1)?[0];
            if akden == 0.0 || !akden.is_finite() {
                let why = if akden == 0.0 {
                    Stop::BreakdownAlpha
                } else {
                    Stop::NonFinite
                };
                info = Some(stop(iter, err, std::mem::take(&mut history), why));
                break;
            }
            let ak = bknum / akden;
            self.set_coef(C_ALPHA, &[ak, -ak])?;
            self.spmv(true, V::Pp, V::Zz)?;
            if fused {
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
            let zm1nrm = znrm;
            znrm = s[0];
            let testable;
            (err, testable) = nr_error_estimate(znrm, zm1nrm, ak, s[1], s[2], bnrm);
            history.push(err);
            if !err.is_finite() {
                info = Some(stop(
                    iter,
                    err,
                    std::mem::take(&mut history),
                    Stop::NonFinite,
                ));
                break;
            }
            if testable && err <= params.tol {
                info = Some(stop(
                    iter,
                    err,
                    std::mem::take(&mut history),
                    Stop::Converged,
                ));
                break;
            }
        }
        let info = info.unwrap_or_else(|| stop(params.max_iter, err, history, Stop::IterationCap));
        let x = self.run(Kernel::DtoH, |s| s.v(V::X).read())?;
        Ok((x.into_iter().map(Into::into).collect(), info))
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
