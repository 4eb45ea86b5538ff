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

use std::rc::Rc;

use super::fragment_cr::{FILL_FLOPS, REDUCE_FLOPS};
use super::layout::CrLayout;
use super::layout::levels_for;
use super::{BatchSolver, TridiagonalError, check_systems, find_non_finite, output_texture};
use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::{Buffer, Define, Format, Gl, GlError, Program, TexTarget, Texture};

/// The shader of [`ComputeCrPasses`] (load, reduction and fill programs by `#define`).
pub const CR_PASS: &str = "tridiagonal/cr_pass.comp";

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

/// The work of one [`ComputeCr`] solve (`cr.comp`, one dispatch) of `b` systems of `n`
/// unknowns, padded to `N' − 1 = 2^q − 1`:
///
/// ```text
/// bytes = b·(16·n + 4·n)                                   imageLoad of P, imageStore of x
///       + global path: b·(16·(N'−1) + 8 + 64·Σ_s PC_s + 28·(N'−1) + 4·n)
/// flops = b·(12·Σ_s PC_s + 5·(N' − 1))
/// ```
///
/// Shared-memory accesses are not device-memory traffic and are not counted; on the global
/// path every scratch access is (the initial store of P and the two boundary x, 3 loads and a
/// store of 16 B per reduced equation, a P load, 2 x loads and an x store per unknown of the
/// fill, the final x loads). No cache model.
pub fn cr_work(n: usize, b: usize, memory: Memory) -> Work {
    let l = CrLayout::new(n, 1);
    let red: f64 = l.levels.iter().map(|v| v.pc as f64).sum();
    let unknowns = l.padded() as f64;
    let (n, b) = (n as f64, b as f64);
    // Global scratch: stores of P and the boundary x, of each reduced equation and each
    // unknown; loads of 3 P per reduced equation, a P and 2 x per unknown, the final x.
    let (loads, stores) = match memory {
        Memory::Shared => (0.0, 0.0),
        Memory::Global => (
            48.0 * red + 24.0 * unknowns + 4.0 * n,
            16.0 * unknowns + 8.0 + 16.0 * red + 4.0 * unknowns,
        ),
    };
    let bytes = Bytes::of(&[
        (Access::ImageRead, 16.0 * n),
        (Access::ImageWrite, 4.0 * n),
        (Access::SsboRead, loads),
        (Access::SsboWrite, stores),
    ]);
    Work {
        bytes: bytes.scale(b),
        flops32: b * (REDUCE_FLOPS * red + FILL_FLOPS * unknowns),
        dispatches: 1,
        kind: Kind::Compute,
        ..Work::default()
    }
}

/// The work of one [`ComputePcr`] solve (`pcr.comp`, one dispatch) of `b` systems of `n`
/// unknowns, in `S = ⌈log₂ n⌉` steps that each reduce every equation:
///
/// ```text
/// bytes = b·(16·n + 4·n)  + global path: b·(16·n + 64·n·S + 16·n)
/// flops = b·(12·n·S + n)
/// ```
///
/// (the last term: `x_i = k_i / b_i`). Shared-memory accesses are not counted; on the
/// global path the initial store, 3 loads and a store per equation and step, and the final
/// load are. No cache model.
pub fn pcr_work(n: usize, b: usize, memory: Memory) -> Work {
    let steps = (n.max(1) as f64).log2().ceil();
    let (n, b) = (n as f64, b as f64);
    // Global scratch: the initial store and a store per equation and step; 3 loads per
    // equation and step and the final load.
    let (loads, stores) = match memory {
        Memory::Shared => (0.0, 0.0),
        Memory::Global => (48.0 * n * steps + 16.0 * n, 16.0 * n + 16.0 * n * steps),
    };
    let bytes = Bytes::of(&[
        (Access::ImageRead, 16.0 * n),
        (Access::ImageWrite, 4.0 * n),
        (Access::SsboRead, loads),
        (Access::SsboWrite, stores),
    ]);
    Work {
        bytes: bytes.scale(b),
        flops32: b * (REDUCE_FLOPS * n * steps + n),
        dispatches: 1,
        kind: Kind::Compute,
        ..Work::default()
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

/// One pass of [`ComputeCrPasses`]: `(d, equations)`, the level's stride and how many
/// equations it updates per system.
pub type PassLevel = (usize, usize);

/// The dispatches of [`ComputeCrPasses`] for `n` unknowns padded to `N' − 1 = 2^q − 1`,
/// level for level the fragment CR's ([`CrLayout`]): the reduction levels `s = 1 … q−1` as
/// `(d, PC_s)` with `d = 2^{s−1}` (eq. 15: equations `i = 2d, 4d, … < N'`), then the fill
/// levels `s = q … 1` as `(d, N'/2d)` (eq. 16: equations `i = d, 3d, … < N'`).
pub fn cr_pass_levels(n: usize) -> (Vec<PassLevel>, Vec<PassLevel>) {
    let l = CrLayout::new(n, 1);
    let np = l.np as usize;
    let reduce = l
        .levels
        .iter()
        .map(|v| (1 << (v.s - 1), v.pc as usize))
        .collect();
    let fill = (1..=l.q).rev().map(|s| (1 << (s - 1), np >> s)).collect();
    (reduce, fill)
}

/// The work of one [`ComputeCrPasses`] solve of `b` systems of `n` unknowns (`N' = 2^q`):
///
/// ```text
/// bytes = b·(16·n + 16·(N'−1))          load pass: the systems in, the padded P out
///       + b·64·R                         per reduced equation: 3 P loads and a store
///       + b·28·(N'−1)                    per filled unknown: a P load, 2 x loads, an x store
/// flops = b·(12·R + 5·(N'−1))            R = Σ reduction levels' equations
/// dispatches = 1 + (q − 1) + q
/// ```
///
/// Every image access is counted once (no cache model), the boundary and padding loads that
/// fall outside the x image included.
pub fn cr_pass_work(n: usize, b: usize) -> Work {
    let (reduce, fill) = cr_pass_levels(n);
    let red: f64 = reduce.iter().map(|&(_, c)| c as f64).sum();
    let unknowns: f64 = fill.iter().map(|&(_, c)| c as f64).sum();
    let (n, b) = (n as f64, b as f64);
    // imageLoad: the system, 3 P per reduced equation, a P and 2 x per unknown;
    // imageStore: P over the padded range, each reduced equation, each unknown's x.
    let bytes = Bytes::of(&[
        (Access::ImageRead, 16.0 * n + 48.0 * red + 24.0 * unknowns),
        (
            Access::ImageWrite,
            16.0 * unknowns + 16.0 * red + 4.0 * unknowns,
        ),
    ]);
    Work {
        bytes: bytes.scale(b),
        flops32: b * (REDUCE_FLOPS * red + FILL_FLOPS * unknowns),
        dispatches: (1 + reduce.len() + fill.len()) as u64,
        kind: Kind::Compute,
        ..Work::default()
    }
}

/// Beyond the paper: the fragment CR's passes as compute dispatches (`cr_pass.comp`): one
/// dispatch per level over every system of the batch, in the paper's level order, the
/// systems in place in one RGBA32F image. With the same passes as [`super::FragmentCr`] and
/// the same arithmetic, it isolates the pipeline (dispatch, image load/store) from the
/// algorithm's structure, which [`ComputeCr`] (one work group per system, barriers between
/// levels) changes.
pub struct ComputeCrPasses {
    gl: Gl,
    n: usize,
    batch: usize,
    local: usize,
    load: Rc<Program>,
    reduce: Rc<Program>,
    fill: Rc<Program>,
    p: Texture,
    out: Texture,
    check_finite: bool,
}

impl ComputeCrPasses {
    /// A solver for `batch` systems of `n` unknowns, `local` systems per work group.
    pub fn new(
        gl: &Gl,
        n: usize,
        batch: usize,
        local: usize,
    ) -> Result<ComputeCrPasses, TridiagonalError> {
        check_launch(gl, n, batch, local)?;
        let np = 1usize << levels_for(n);
        let [load, reduce, fill] = Self::defines(local).map(|d| Program::compute(gl, CR_PASS, &d));
        let p = Texture::new(
            gl,
            TexTarget::Rect,
            Format::RGBA32F,
            (np - 1) as u32,
            batch as u32,
            None,
        )?;
        Ok(ComputeCrPasses {
            gl: gl.clone(),
            n,
            batch,
            local,
            load: load?,
            reduce: reduce?,
            fill: fill?,
            p,
            out: output_texture(gl, n, batch)?,
            check_finite: true,
        })
    }

    /// The `#define`s of the load, reduction and fill programs.
    pub fn defines(local: usize) -> [Vec<Define>; 3] {
        let base = || vec![Define::new("LOCAL", local)];
        let with = |flag| {
            let mut d = base();
            d.push(Define::flag(flag));
            d
        };
        [with("LOAD"), base(), with("FILL")]
    }

    /// One pass: `equations` invocations per system (y) for every system (x).
    fn pass(&self, p: &Program, d: usize, equations: usize) -> Result<(), GlError> {
        p.set_i32("u_n", self.n as i32);
        p.set_i32("u_batch", self.batch as i32);
        p.set_i32("u_d", d as i32);
        let groups = self.batch.div_ceil(self.local) as u32;
        p.dispatch([groups, equations as u32, 1])?;
        self.gl.image_barrier();
        Ok(())
    }
}

impl BatchSolver for ComputeCrPasses {
    fn name(&self) -> &str {
        "CR compute (passes)"
    }
    fn shape(&self) -> (usize, usize) {
        (self.n, self.batch)
    }
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError> {
        use crate::gl::image_access::{READ_ONLY, READ_WRITE};
        check_systems(systems, self.n, self.batch)?;
        let (reduce, fill) = cr_pass_levels(self.n);
        self.load.bind_image(0, &self.p, READ_WRITE);
        self.load.bind_image(1, systems, READ_ONLY);
        self.pass(&self.load, 0, self.p.width() as usize)?;
        self.reduce.bind_image(0, &self.p, READ_WRITE);
        for (d, count) in reduce {
            self.pass(&self.reduce, d, count)?;
        }
        self.fill.bind_image(0, &self.p, READ_WRITE);
        self.fill.bind_image(1, &self.out, READ_WRITE);
        for (d, count) in fill {
            self.pass(&self.fill, d, count)?;
        }
        if self.check_finite {
            find_non_finite(&self.out, self.n)?;
        }
        Ok(&self.out)
    }
    fn output(&self) -> &Texture {
        &self.out
    }
    fn set_check_finite(&mut self, on: bool) {
        self.check_finite = on;
    }
    fn work(&self) -> Option<Work> {
        Some(cr_pass_work(self.n, self.batch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_levels_visit_every_unknown_once() {
        // n = 7 (N' = 8): reduction d = 1 (i = 2, 4, 6), d = 2 (i = 4); fill d = 4 (i = 4),
        // d = 2 (i = 2, 6), d = 1 (i = 1, 3, 5, 7).
        let (r, f) = cr_pass_levels(7);
        assert_eq!(r, vec![(1, 3), (2, 1)]);
        assert_eq!(f, vec![(4, 1), (2, 2), (1, 4)]);
        for n in [1, 2, 3, 5, 100, 1023] {
            let np = 1usize << levels_for(n);
            let (_, f) = cr_pass_levels(n);
            assert_eq!(f.iter().map(|&(_, c)| c).sum::<usize>(), np - 1, "n = {n}");
        }
        // n = 3: one reduced equation, 3 filled; load 16·3 in + 16·3 out.
        let w = cr_pass_work(3, 2);
        assert_eq!(w.bytes.total(), 2.0 * (48.0 + 48.0 + 64.0 + 28.0 * 3.0));
        assert_eq!((w.flops32, w.dispatches), (2.0 * (12.0 + 15.0), 1 + 1 + 2));
    }

    #[test]
    fn compute_work_of_small_systems() {
        // CR, n = 3: one reduced equation (12 flops), 3 unknowns filled (5 each); the image
        // traffic is 16 B in and 4 B out per unknown.
        let w = cr_work(3, 2, Memory::Shared);
        assert_eq!(
            (w.bytes.total(), w.flops32, w.dispatches),
            (2.0 * 60.0, 2.0 * 27.0, 1)
        );
        // PCR, n = 4: 2 steps of 4 equations, then 4 divisions.
        let p = pcr_work(4, 1, Memory::Shared);
        assert_eq!((p.bytes.total(), p.flops32), (80.0, 12.0 * 8.0 + 4.0));
        // The global path adds the scratch traffic.
        assert!(cr_work(3, 1, Memory::Global).bytes.total() > 60.0);
        assert_eq!(
            pcr_work(4, 1, Memory::Global).bytes.total(),
            80.0 + 32.0 * 4.0 + 64.0 * 8.0
        );
    }
}
