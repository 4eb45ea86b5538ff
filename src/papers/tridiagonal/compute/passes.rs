//! Beyond the paper: the fragment CR's passes as compute dispatches ([`ComputeCrPasses`],
//! `cr_pass.comp`), the levels it dispatches ([`cr_pass_levels`]) and its work
//! ([`cr_pass_work`]).

use std::rc::Rc;

use super::launch::check_launch;
use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::{Define, Format, Gl, GlError, Program, TexTarget, Texture};
use crate::papers::tridiagonal::batch::{
    BatchSolver, check_systems, find_non_finite, output_texture,
};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::fragment_cr::{FILL_FLOPS, REDUCE_FLOPS};
use crate::papers::tridiagonal::layout::{CrLayout, levels_for};

/// The shader of [`ComputeCrPasses`] (load, reduction and fill programs by `#define`).
pub const CR_PASS: &str = "tridiagonal/cr_pass.comp";

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
/// systems in place in one RGBA32F image. With the same passes as
/// [`FragmentCr`](crate::papers::tridiagonal::FragmentCr) and the same arithmetic, it
/// isolates the pipeline (dispatch, image load/store) from the algorithm's structure, which
/// [`ComputeCr`](super::ComputeCr) (one work group per system, barriers between levels)
/// changes.
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
}
