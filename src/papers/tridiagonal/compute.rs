//! Beyond the paper: cyclic reduction and parallel cyclic reduction in GL 4.3 compute
//! shaders (Zhang, Cohen & Owens, "Fast Tridiagonal Solvers on the GPU", PPoPP 2010 style).
//!
//! One work group per system reads its row of the systems texture (`imageLoad`), solves in
//! shared memory, and writes `x` with `imageStore`. A system too big for shared memory (the
//! device's `GL_MAX_COMPUTE_SHARED_MEMORY_SIZE`) takes the global-memory path: the same
//! shader with its arrays in a scratch SSBO (one slice per work group), the barriers made
//! visible with `memoryBarrierBuffer`.
//!
//! - **CR** (`cr.comp`): eq. (15)/(16) in place, `2(q-1)+1` barrier-separated steps, `O(n)`
//!   work; `n` padded to `2^q - 1` with identity rows.
//! - **PCR** (`pcr.comp`): every step reduces every equation (`d = 1, 2, 4, …`),
//!   `⌈log₂ n⌉` steps, `O(n log n)` work, no fill phase; any `n`.
//!
//! The parts, in `compute/`: `work.rs` (the work of a CR and a PCR solve on either path),
//! `passes.rs` ([`ComputeCrPasses`]: the fragment CR's passes as one dispatch per level).

use std::rc::Rc;

mod passes;
mod work;

pub use passes::{CR_PASS, ComputeCrPasses, PassLevel, cr_pass_levels, cr_pass_work};
pub use work::{cr_work, pcr_work};

use super::layout::levels_for;
use super::{BatchSolver, TridiagonalError, check_systems, find_non_finite, output_texture};
use crate::bench::Work;
use crate::gl::{Buffer, Define, Gl, Program, Texture};

/// Where a compute solver keeps its working arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// `shared` arrays (the fast path).
    Shared,
    /// A scratch SSBO (systems too big for shared memory).
    Global,
}

/// Default invocations per work group (CR, PCR), for the simulations' solvers. The paper's
/// experiments do not use it: they tune the size on the device that runs them (the
/// tridiagonal `tuning` table), since the best size differs between a CPU rasterizer
/// (llvmpipe runs a group's invocations as SIMD lanes and switches coroutines at every
/// barrier, so small groups pay less) and a GPU (see [`ComputeCr::with_options`]).
pub const DEFAULT_LOCAL: [usize; 2] = [8, 32];

/// The invocations per work group a solver of `n` unknowns runs with when asked for
/// `local`: CR clamped to half the padded length `2^q / 2` (the most equations a reduction
/// level updates), PCR to the padded length `2^⌈log₂ n⌉` (one invocation per equation).
pub fn clamped_local(n: usize, pcr: bool, local: usize) -> usize {
    if pcr {
        local.min(n.next_power_of_two())
    } else {
        local.min((1usize << levels_for(n)) / 2).max(1)
    }
}

/// Refuses a work-group size the device cannot launch and an empty batch, before anything is
/// built.
fn check_launch(gl: &Gl, n: usize, batch: usize, local: usize) -> Result<(), TridiagonalError> {
    let max_local = gl.info().max_work_group_invocations as usize;
    if local == 0 || local > max_local {
        return Err(TridiagonalError::Unsupported(format!(
            "work-group size {local}: must be 1..={max_local}"
        )));
    }
    if n == 0 || batch == 0 {
        return Err(TridiagonalError::Shape(format!(
            "{n} unknowns × {batch} systems: both must be at least 1"
        )));
    }
    Ok(())
}

struct ComputeSolver {
    gl: Gl,
    n: usize,
    batch: usize,
    program: Rc<Program>,
    memory: Memory,
    scratch: Vec<Buffer<f32>>,
    out: Texture,
    name: String,
    check_finite: bool,
    pcr: bool,
}

impl ComputeSolver {
    fn new(
        gl: &Gl,
        n: usize,
        batch: usize,
        pcr: bool,
        force: Option<Memory>,
        local_size: usize,
    ) -> Result<ComputeSolver, TridiagonalError> {
        check_launch(gl, n, batch, local_size)?;
        let max_groups = gl.info().max_work_group_count[0] as usize;
        if batch > max_groups {
            return Err(TridiagonalError::Unsupported(format!(
                "{batch} systems: one work group per system, at most {max_groups}"
            )));
        }
        let shared_bytes = gl.info().max_shared_memory_bytes as usize;
        let local = clamped_local(n, pcr, local_size);
        let (file, defines, need_shared, scratch_floats) = if pcr {
            let elems = n.div_ceil(local);
            (
                "tridiagonal/pcr.comp",
                vec![Define::new("LOCAL", local), Define::new("ELEMS", elems)],
                16 * local * elems,
                vec![4 * local * elems * batch],
            )
        } else {
            let np = 1usize << levels_for(n);
            (
                "tridiagonal/cr.comp",
                vec![Define::new("LOCAL", local), Define::new("NP", np)],
                16 * np + 4 * (np + 1),
                vec![4 * np * batch, (np + 1) * batch],
            )
        };
        let memory = force.unwrap_or(if need_shared <= shared_bytes {
            Memory::Shared
        } else {
            Memory::Global
        });
        if memory == Memory::Shared && need_shared > shared_bytes {
            return Err(TridiagonalError::Unsupported(format!(
                "{n} unknowns need {need_shared} bytes of shared memory; the device has {shared_bytes}"
            )));
        }
        let mut defines = defines;
        let scratch = if memory == Memory::Global {
            defines.push(Define::flag("GLOBAL"));
            scratch_floats
                .iter()
                .map(|&len| Buffer::<f32>::zeroed(gl, len))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            vec![]
        };
        let program = Program::compute(gl, file, &defines)?;
        let out = output_texture(gl, n, batch)?;
        let name = format!(
            "{} compute ({})",
            if pcr { "PCR" } else { "CR" },
            match memory {
                Memory::Shared => "shared",
                Memory::Global => "global",
            }
        );
        Ok(ComputeSolver {
            gl: gl.clone(),
            n,
            batch,
            program,
            memory,
            scratch,
            out,
            name,
            check_finite: true,
            pcr,
        })
    }

    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        check_systems(systems, self.n, self.batch)?;
        let p = &self.program;
        p.bind_image(0, systems, crate::gl::image_access::READ_ONLY);
        p.bind_image(1, &self.out, crate::gl::image_access::WRITE_ONLY);
        p.set_i32("u_n", self.n as i32);
        for (i, b) in self.scratch.iter().enumerate() {
            b.bind(i as u32);
        }
        p.dispatch([self.batch as u32, 1, 1])?;
        self.gl.image_barrier();
        if self.check_finite {
            find_non_finite(&self.out, self.n)?;
        }
        Ok(&self.out)
    }
}

macro_rules! compute_solver {
    ($name:ident, $pcr:expr, $doc:literal) => {
        #[doc = $doc]
        pub struct $name(ComputeSolver);

        impl $name {
            /// A solver for `batch` systems of `n` unknowns; shared memory when they fit.
            pub fn new(gl: &Gl, n: usize, batch: usize) -> Result<Self, TridiagonalError> {
                Ok($name(ComputeSolver::new(
                    gl,
                    n,
                    batch,
                    $pcr,
                    None,
                    DEFAULT_LOCAL[$pcr as usize],
                )?))
            }
            /// With a chosen path (`None`: shared when it fits) and work-group size.
            pub fn with_options(
                gl: &Gl,
                n: usize,
                batch: usize,
                memory: Option<Memory>,
                local_size: usize,
            ) -> Result<Self, TridiagonalError> {
                Ok($name(ComputeSolver::new(
                    gl, n, batch, $pcr, memory, local_size,
                )?))
            }
            /// Forces the shared or the global-memory path (an error if shared does not fit).
            pub fn with_memory(
                gl: &Gl,
                n: usize,
                batch: usize,
                memory: Memory,
            ) -> Result<Self, TridiagonalError> {
                Ok($name(ComputeSolver::new(
                    gl,
                    n,
                    batch,
                    $pcr,
                    Some(memory),
                    DEFAULT_LOCAL[$pcr as usize],
                )?))
            }
            /// The path in use.
            pub fn memory(&self) -> Memory {
                self.0.memory
            }
            /// Turns the finite check after each solve on or off (on by default).
            pub fn set_check_finite(&mut self, on: bool) {
                self.0.check_finite = on;
            }
        }

        impl BatchSolver for $name {
            fn name(&self) -> &str {
                &self.0.name
            }
            fn shape(&self) -> (usize, usize) {
                (self.0.n, self.0.batch)
            }
            fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
                self.0.solve(systems)
            }
            fn output(&self) -> &Texture {
                &self.0.out
            }
            fn set_check_finite(&mut self, on: bool) {
                self.0.check_finite = on;
            }
            fn work(&self) -> Option<Work> {
                let w = if self.0.pcr { pcr_work } else { cr_work };
                Some(w(self.0.n, self.0.batch, self.0.memory))
            }
        }
    };
}

compute_solver!(
    ComputeCr,
    false,
    "Cyclic reduction in a compute shader, one work group per system (module docs)."
);
compute_solver!(
    ComputePcr,
    true,
    "Parallel cyclic reduction in a compute shader, one work group per system (module docs)."
);
