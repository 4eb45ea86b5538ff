//! The solver's kernels as the profile and the build see them: [`Kernel`], the paper's
//! kernel types (Table 2) that [`Profile`] times; the program table ([`build_variants`]: each
//! shader under `glsl/bicg/` with its `#ifdef` switch, built for a precision and a
//! [`LOCAL_SIZES`] local size) and every variant the code can build ([`program_variants`]);
//! and the size checks made before anything is allocated ([`device_bytes`], [`check_fits`]).

use std::rc::Rc;

use crate::float::Real;
use crate::gl::measure::Stopwatch;
use crate::gl::{Define, Gl, GlError, Program};
use crate::papers::bicg::error::GpuBicgError;

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
    /// Kernel `k`'s time in `n` consecutive blocks of its calls ([`Stopwatch::blocks`]).
    pub fn blocks(&self, k: Kernel, n: usize) -> Vec<f64> {
        self.watches.get(&k).map_or_else(Vec::new, |w| w.blocks(n))
    }
    pub fn calls(&self, k: Kernel) -> u64 {
        self.watches.get(&k).map_or(0, |w| w.count())
    }
    pub fn total_seconds(&self) -> f64 {
        Kernel::ALL.iter().map(|&k| self.seconds(k)).sum()
    }
}

/// The solver's programs, in the order of [`PROGRAMS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Prog {
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

pub(super) struct Programs(Vec<Rc<Program>>);

impl Programs {
    pub(super) fn new(gl: &Gl, real: &str, local: u32) -> Result<Programs, GlError> {
        build_variants(real, local)
            .iter()
            .map(|(file, defines)| Program::compute(gl, file, defines))
            .collect::<Result<_, _>>()
            .map(Programs)
    }
    pub(super) fn get(&self, p: Prog) -> &Rc<Program> {
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
