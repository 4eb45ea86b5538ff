//! The batched tridiagonal solvers an ADI half-step can use: `papers::tridiagonal`'s
//! [`BatchSolver`]s, used as they are (no adapter, no copy).
//!
//! A batch is an RGBA32F rectangle texture `n` wide and `batch` high: row `j` is one system,
//! texel `(i, j)` = `(a_i, b_i, c_i, k_i)` (sub-diagonal, diagonal, super-diagonal, right-hand
//! side; `a_0` and `c_{n-1}` are ignored). The solution is the solver's R32F rectangle texture
//! of the same shape, [`BatchSolver::output`], valid until the next `solve`: the simulations
//! read their state from there. The finite check (a readback per solve) is turned off: the
//! data stays on the GPU.
//!
//! The paper's solvers — fragment-shader cyclic reduction (§3.2), fragment CG for a fixed
//! number of iterations, CPU Thomas with readback and upload — and the compute-shader CR/PCR
//! come from `papers::tridiagonal`. This module adds [`GpuThomas`], the Thomas algorithm in a
//! compute shader (one invocation per system), a GPU-resident baseline beyond the paper.
//!
//! Names for `--solver`: `cr` (fragment CR, switch method — the paper's pbuffer surfaces),
//! `cr-copy` (copy method), `cgN` (fragment CG, N fixed iterations, scalar textures; `cg` =
//! `cg4`), `thomas` (CPU), `compute-cr`, `compute-pcr`, `gpu-thomas`.

use crate::gl::{
    Buffer, Define, Format, Gl, GlError, Need, PingPongMethod, Program, TexTarget, Texture,
    image_access,
};
use crate::papers::tridiagonal::batch::{BatchSolver, check_systems};
use crate::papers::tridiagonal::cg::{CgParams, FragmentCg, Packing};
use crate::papers::tridiagonal::compute::{ComputeCr, ComputePcr};
use crate::papers::tridiagonal::cpu_thomas::CpuThomas;
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::fragment_cr::FragmentCr;

use crate::sim::{SimError, Solvers};

/// The solver names `--solver` accepts (`cgN` takes any N ≥ 1), first the default.
pub const SOLVER_NAMES: &[&str] = &[
    "cr",
    "cr-copy",
    "cg4",
    "thomas",
    "compute-cr",
    "compute-pcr",
    "gpu-thomas",
];

/// Beyond the paper: the build pass and a Thomas solve fused into one compute dispatch per
/// half-step (one invocation per line; `glsl/tridiagonal/sim/fused_thomas.comp`), so the systems texture
/// is never written. Not a [`BatchSolver`] (it takes no systems texture): [`super::half_step`]
/// runs it; not for shallow water.
pub const FUSED: &str = "fused-thomas";

/// What the solver called `name` needs from the device: compute shaders for the solvers
/// beyond the paper; nothing beyond GL 3.3 for the paper's fragment solvers and CPU Thomas.
pub fn needs(name: &str) -> &'static [Need] {
    match name {
        "compute-cr" | "compute-pcr" | "gpu-thomas" | FUSED => &[Need::Compute],
        _ => &[],
    }
}

/// The solver a simulation uses unless told otherwise: the paper's.
pub const DEFAULT: &str = "cr";

/// The solvers as the live viewer switches between them: [`SOLVER_NAMES`], and CPU Thomas
/// (the paper's baseline) beside any other in the split view.
pub static SOLVERS: Solvers = Solvers {
    names: SOLVER_NAMES,
    needs,
    baseline: "thomas",
};

/// Makes the solver called `name` for `n`-unknown systems, `batch` of them, with its finite
/// check off.
pub fn make(gl: &Gl, name: &str, n: u32, batch: u32) -> Result<Box<dyn BatchSolver>, SimError> {
    let (nu, bu) = (n as usize, batch as usize);
    let unknown = || SimError::UnknownSolver {
        name: name.to_string(),
        known: SOLVER_NAMES.join(", "),
    };
    let made: Result<Box<dyn BatchSolver>, TridiagonalError> = match name {
        "gpu-thomas" => GpuThomas::new(gl, n, batch).map(|s| Box::new(s) as _),
        "cr" => FragmentCr::new(gl, nu, bu, PingPongMethod::Switch).map(|s| Box::new(s) as _),
        "cr-copy" => FragmentCr::new(gl, nu, bu, PingPongMethod::Copy).map(|s| Box::new(s) as _),
        "thomas" => CpuThomas::new(gl, nu, bu).map(|s| Box::new(s) as _),
        "compute-cr" => ComputeCr::new(gl, nu, bu).map(|s| Box::new(s) as _),
        "compute-pcr" => ComputePcr::new(gl, nu, bu).map(|s| Box::new(s) as _),
        cg if cg.starts_with("cg") => {
            let iterations = cg_iterations(cg).ok_or_else(unknown)?;
            let p = CgParams::fixed(Packing::Scalar, iterations);
            FragmentCg::with_params(gl, nu, bu, p).map(|s| Box::new(s) as _)
        }
        _ => return Err(unknown()),
    };
    let mut s = made.map_err(|e| solver_error(name, e))?;
    s.set_check_finite(false);
    Ok(s)
}

/// The largest fixed CG iteration count `cgN` accepts.
pub const MAX_CG_ITERATIONS: usize = 1000;

/// N of `cgN` (`cg` alone: 4), within 1..=[`MAX_CG_ITERATIONS`].
fn cg_iterations(name: &str) -> Option<usize> {
    match name.strip_prefix("cg")? {
        "" => Some(4),
        k => k
            .parse::<usize>()
            .ok()
            .filter(|k| (1..=MAX_CG_ITERATIONS).contains(k)),
    }
}

/// Refuses a name `--solver` does not know (before any GL work).
pub fn check_name(name: &str) -> Result<(), SimError> {
    let known = SOLVER_NAMES.contains(&name)
        || name == FUSED
        || (name.starts_with("cg") && cg_iterations(name).is_some());
    if known {
        Ok(())
    } else {
        Err(SimError::UnknownSolver {
            name: name.to_string(),
            known: format!(
                "{}, {FUSED} (cgN: N fixed iterations, 1..={MAX_CG_ITERATIONS})",
                SOLVER_NAMES.join(", ")
            ),
        })
    }
}

/// The unknowns per system the solver called `name` actually solves for `n`, when it pads:
/// fragment CR pads to `N = 2^q - 1` (§3.1), the compute CR likewise inside its work group.
pub fn padded(name: &str, n: u32) -> Option<u32> {
    let full = (n + 1).next_power_of_two() - 1;
    (matches!(name, "cr" | "cr-copy" | "compute-cr") && full != n).then_some(full)
}

/// What an ADI simulation of `n × n` with the solver called `name` allocates: the widest
/// texture (texels) and the bytes of textures, buffers and host copies together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub widest: u64,
    pub bytes: u64,
}

/// An estimate from the solvers' allocations (an upper bound within a few per cent): the
/// simulation's RGBA32F systems texture, its R32F grid, previous-state and scratch textures
/// and the host copy of the initial state, plus per solver:
/// - `cr`, `cr-copy`: P0 (`N × n`, RGBA32F, when padded), the P1/P2 ping-pong and its host
///   zeros (`3 × (N′ - q - 1) × n`, RGBA32F), X (`3 × (N′ + 3) × n`, R32F), the output;
/// - `cgN`: about ten R32F vectors of `n × n` and the reduction chain;
/// - `thomas`: the systems read back (RGBA32F), `x` and the output (R32F);
/// - `compute-cr`: global scratch `(4 N′ + N′ + 1) × n` floats (when it does not fit shared
///   memory) and the output; `compute-pcr`: `4 n × n` floats; `gpu-thomas`: the R32F output and the (c′, d′)
///   scratch (two floats per unknown, in a buffer or — up to [`THOMAS_PRIVATE_MAX`] unknowns —
///   the invocations' private arrays, counted alike); `fused-thomas`: two R32F outputs and
///   that scratch.
pub fn footprint(name: &str, n: u32) -> Footprint {
    let (n64, f) = (n as u64, 4u64);
    let np = (n64 + 1).next_power_of_two();
    let q = np.trailing_zeros() as u64;
    let plane = n64 * n64 * f; // one R32F n × n
    let sim = 4 * plane + 4 * plane; // systems (RGBA) + grid, prev, scratch, host init
    let (widest, solver) = match name {
        "cr" | "cr-copy" => {
            let p0 = if np - 1 != n64 {
                4 * (np - 1) * n64 * f
            } else {
                0
            };
            let pw = (np - q - 1).max(1);
            (
                np + 3,
                p0 + 3 * 4 * pw * n64 * f + 3 * (np + 3) * n64 * f + plane,
            )
        }
        "thomas" => (n64, 4 * plane + 2 * plane),
        "compute-cr" => (n64, (5 * np + 1) * n64 * f + plane),
        "compute-pcr" => (n64, 4 * plane + plane),
        "gpu-thomas" => (n64, 3 * plane),
        FUSED => (n64, 4 * plane),
        _ => (n64, 11 * plane), // cgN
    };
    Footprint {
        widest,
        bytes: sim + solver,
    }
}

/// Refuses, before any allocation, a simulation of `n × n` with solver `name` that this
/// device cannot run or hold: a solver needing what the device lacks ([`needs`]), a texture wider than its rectangle-texture limit, or more memory than
/// the machine has available.
pub fn check_fits(gl: &Gl, name: &str, n: u32) -> Result<(), SimError> {
    check_name(name)?;
    if let Some(why) = gl.caps().lacks(needs(name)) {
        return Err(SimError::Solver {
            solver: name.to_string(),
            message: format!(
                "{why}; the paper's fragment solvers (cr, cr-copy, cgN) and thomas run on \
                 GL 3.3"
            ),
        });
    }
    let fp = footprint(name, n);
    let max = gl.info().max_rectangle_texture_size as u64;
    if fp.widest > max {
        return Err(SimError::Params(format!(
            "{n} unknowns per line with solver {name}: a texture {} texels wide, over this \
             device's rectangle-texture limit of {max}",
            fp.widest
        )));
    }
    if let Some(avail) = crate::util::available_memory()
        && fp.bytes > avail
    {
        let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
        return Err(SimError::Params(format!(
            "{n} unknowns per line with solver {name} need about {:.1} GiB of textures and \
             buffers; this machine has {:.1} GiB available (MemAvailable)",
            gib(fp.bytes),
            gib(avail)
        )));
    }
    Ok(())
}

/// A solver's error as a simulation error naming the solver.
pub fn solver_error(name: &str, e: TridiagonalError) -> SimError {
    match e {
        TridiagonalError::Gl(g) => SimError::Gl(g),
        e => SimError::Solver {
            solver: name.to_string(),
            message: e.to_string(),
        },
    }
}

/// The longest system whose Thomas sweeps keep (c′, d′) in the invocation's own array
/// (`THOMAS_PRIVATE_N`, `glsl/tridiagonal/sim/thomas.glsl`, 8 bytes an unknown) rather than in
/// a scratch buffer. On llvmpipe the private array runs the sweeps faster at every size tried
/// (its loads and stores are SIMD vectors where a buffer's go lane by lane), but LLVM takes
/// seconds to compile it at its first dispatch (Mesa's shader cache keeps it afterwards), the
/// longer the array the longer; on a GPU the array is per-thread local memory, reserved for
/// every resident thread. The limit keeps both moderate and covers the papers' grids (1023²);
/// the measurements are in issue 41's session notes (`scripts/ablate-heat.py` times the step).
pub const THOMAS_PRIVATE_MAX: u32 = 1024;

/// Where a Thomas solve of `n`-unknown systems keeps (c′, d′) ([`THOMAS_PRIVATE_MAX`]): a
/// private array (no buffer) or a scratch buffer of `n × lines` vec2 bound at 1.
pub(super) struct ThomasScratch {
    n: u32,
    buffer: Option<Buffer<[f32; 2]>>,
}

impl ThomasScratch {
    pub(super) fn new(gl: &Gl, n: u32, lines: u32) -> Result<ThomasScratch, GlError> {
        let buffer = if n <= THOMAS_PRIVATE_MAX {
            None
        } else {
            Some(Buffer::zeroed(gl, n as usize * lines as usize)?)
        };
        Ok(ThomasScratch { n, buffer })
    }

    /// The program's defines (the private array's length where there is no buffer).
    pub(super) fn defines(&self) -> Vec<Define> {
        match self.buffer {
            None => vec![Define::new("THOMAS_PRIVATE_N", self.n)],
            Some(_) => Vec::new(),
        }
    }

    /// Binds the scratch buffer, if any, before a dispatch.
    pub(super) fn bind(&self) {
        if let Some(b) = &self.buffer {
            b.bind(1);
        }
    }
}

/// Thomas algorithm in a compute shader (`glsl/tridiagonal/sim/thomas.comp`): one invocation walks one
/// system (forward elimination, back substitution), so a batch of `batch` systems runs `batch`
/// invocations. Beyond the paper (which ran Thomas on the CPU); no pivoting, so the systems
/// must be diagonally dominant (the ADI matrices are).
pub struct GpuThomas {
    gl: Gl,
    program: std::rc::Rc<Program>,
    x: Texture,
    scratch: ThomasScratch,
}

impl GpuThomas {
    pub fn new(gl: &Gl, n: u32, batch: u32) -> Result<Self, TridiagonalError> {
        let scratch = ThomasScratch::new(gl, n, batch)?;
        Ok(GpuThomas {
            gl: gl.clone(),
            program: Program::compute(gl, "tridiagonal/sim/thomas.comp", &scratch.defines())?,
            x: Texture::new(gl, TexTarget::Rect, Format::R32F, n, batch, None)?,
            scratch,
        })
    }
}

impl BatchSolver for GpuThomas {
    fn name(&self) -> &str {
        "Thomas compute (one invocation per system)"
    }
    fn shape(&self) -> (usize, usize) {
        (self.x.width() as usize, self.x.height() as usize)
    }
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        let (n, batch) = self.shape();
        check_systems(systems, n, batch)?;
        let p = &self.program;
        p.bind_texture(0, "u_sys", systems);
        p.bind_image(0, &self.x, image_access::WRITE_ONLY);
        self.scratch.bind();
        p.set_i32("u_n", n as i32);
        p.set_i32("u_lines", batch as i32);
        p.dispatch_1d(batch as u32)?;
        // Later passes sample x as a texture; the next solve rewrites the scratch.
        self.gl.image_barrier();
        self.gl.storage_barrier();
        Ok(&self.x)
    }
    fn output(&self) -> &Texture {
        &self.x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_first_and_partner_is_thomas_or_cr() {
        assert_eq!(SOLVERS.default_name(), DEFAULT);
        assert_eq!(SOLVERS.partner("cr"), "thomas");
        assert_eq!(SOLVERS.partner("gpu-thomas"), "thomas");
        assert_eq!(SOLVERS.partner("thomas"), "cr");
    }
}
