//! The shared-memory (or global-memory) CR and PCR solvers, one work group per system
//! ([`ComputeCr`], [`ComputePcr`]: the parent module's docs).

use std::rc::Rc;

use super::launch::{DEFAULT_LOCAL, Memory, check_launch, clamped_local};
use super::work::{cr_work, pcr_work};
use crate::bench::Work;
use crate::gl::{Buffer, Define, Gl, Program, Texture};
use crate::papers::tridiagonal::batch::{
    BatchSolver, check_systems, find_non_finite, output_texture,
};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::layout::levels_for;

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
