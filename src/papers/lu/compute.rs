//! Beyond the paper: LU in OpenGL 4.3 compute shaders, blocked right-looking (LAPACK `getrf`
//! order), with optional partial pivoting on the GPU — the data-dependent branch the paper
//! names as open work (§5.3).
//!
//! The matrix lives row-major in one SSBO. For each panel of `nb` columns `[p, p+nb)`:
//! 1. for each column `i` of the panel: (pivoting) `c_argmax` reduces `max_j≥i |A_ji|` in one
//!    work group and records the row in `piv[i]`, `c_swap` swaps rows `i` and `piv[i]`
//!    (whole rows); `c_panel` divides the column by the pivot and updates the panel's
//!    remaining columns (one thread per row);
//! 2. `c_trsm`: `U12 ← L11⁻¹·A12` (forward substitution, one thread per column);
//! 3. `c_gemm`: `A22 ← A22 − L21·U12`, a tiled matmul (64 × 64 tiles, 4 × 4 per thread,
//!    `L21`/`U12` tiles in shared memory).
//!
//! The result is the packed LU of `P·A` (`P = I` without pivoting). A zero pivot is found on
//! the result as for the fragment variants (first zero or non-finite `U_ii`).

use std::rc::Rc;
use std::time::Instant;

use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::{Buffer, Define, Gl, Program};

use super::error::LuError;

/// The work of one [`ComputeLu`] run of order `n`, panel width `nb`, from the dispatches of
/// [`ComputeLu::run`] and the shaders (f32, 4 B; a division counts 2, as the paper's §3.6).
/// Per panel `[p, p_e)` of `k_b = p_e − p` columns with `m = n − p_e` trailing rows:
///
/// ```text
/// panel  (column i, r = n − i − 1 rows, w = p_e − i − 1):  bytes 4·r·(3 + 3w),  flops r·(2 + 2w)
/// trsm   (m columns):                  bytes 4·m·(2(k_b − 1) + k_b(k_b − 1)),  flops m·k_b(k_b − 1)
/// gemm   (⌈m/64⌉² tiles of 64 × 64):   bytes 4·(2·m·k_b·⌈m/64⌉ + 2m²),         flops 2·m²·k_b
/// pivoting (column i): argmax 4·(n − i) + 4, swap 4·n (+ 16·n per swap made)
/// ```
///
/// The gemm's global traffic is its tiles' loads into shared memory (each `L21` row block
/// once per column tile, each `U12` column block once per row tile) and the read-modify-write
/// of `A22`; shared-memory accesses are not counted. No cache model otherwise: the panel's
/// pivot row, re-read by every thread, is counted per thread. Without pivoting the flops add
/// up to `2n(n² − 1)/3` ([`super::theory::lu_flops`]).
pub fn compute_work(n: usize, nb: usize, pivoting: bool, swaps: u64) -> Work {
    // Loads and stores (every access is a shader-storage access of `a` or `piv`).
    let (mut rd, mut wr, mut flops, mut dispatches) = (0f64, 0f64, 0f64, 0u64);
    let nf = n as f64;
    let mut p = 0;
    while p < n {
        let pe = (p + nb.max(1)).min(n);
        for i in p..pe {
            if pivoting {
                // argmax reads the column and writes the pivot; the swap reads its row pair.
                rd += 4.0 * (n - i) as f64 + 4.0 * nf;
                wr += 4.0;
                dispatches += 2;
            }
            if i + 1 < n {
                // Per row: a and the pivot read, l written; per column: a and u read, a written.
                let (r, w) = ((n - i - 1) as f64, (pe - i - 1) as f64);
                rd += 4.0 * r * (2.0 + 2.0 * w);
                wr += 4.0 * r * (1.0 + w);
                flops += r * (2.0 + 2.0 * w);
                dispatches += 1;
            }
        }
        if pe < n {
            let (m, kb) = ((n - pe) as f64, (pe - p) as f64);
            // trsm: one store per updated element, the rest loads.
            wr += 4.0 * m * (kb - 1.0);
            rd += 4.0 * m * ((kb - 1.0) + kb * (kb - 1.0));
            flops += m * kb * (kb - 1.0);
            // gemm: the tiles' loads, and A22 read and written.
            rd += 4.0 * (2.0 * m * kb * (m / 64.0).ceil() + m * m);
            wr += 4.0 * m * m;
            flops += 2.0 * m * m * kb;
            dispatches += 2;
        }
        p = pe;
    }
    // A swap made reads and writes both rows.
    let swapped = 8.0 * nf * swaps as f64;
    Work {
        bytes: Bytes::of(&[
            (Access::SsboRead, rd + swapped),
            (Access::SsboWrite, wr + swapped),
        ]),
        flops32: flops,
        dispatches,
        kind: Kind::Compute,
        ..Work::default()
    }
}

/// How to run the compute LU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ComputeParams {
    /// Panel width `nb` (1 … 64).
    pub block: u32,
    /// Partial pivoting (argmax + row swap per column, on the GPU).
    pub pivoting: bool,
}

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct ComputeInfo {
    /// Whole decomposition, `glFinish` on both sides (upload and readback excluded), ms.
    pub ms: f64,
    pub dispatches: u64,
    /// Row swaps made (pivoting), counted after the run from the pivot record.
    pub swaps: u64,
}

/// The compute programs and their `#define`s for panel width `block`: argmax, swap, panel,
/// trsm, gemm (the gemm's shared tiles depend on `NB`).
pub fn program_defines(block: u32) -> [(&'static str, Vec<Define>); 5] {
    [
        ("lu/c_argmax.comp", vec![]),
        ("lu/c_swap.comp", vec![]),
        ("lu/c_panel.comp", vec![]),
        ("lu/c_trsm.comp", vec![]),
        ("lu/c_gemm.comp", vec![Define::new("NB", block)]),
    ]
}

/// A compute-shader LU of one matrix.
pub struct ComputeLu {
    gl: Gl,
    n: usize,
    params: ComputeParams,
    a: Buffer<f32>,
    piv: Buffer<i32>,
    argmax: Rc<Program>,
    swap: Rc<Program>,
    panel: Rc<Program>,
    trsm: Rc<Program>,
    gemm: Rc<Program>,
}

impl ComputeLu {
    pub fn new(gl: &Gl, a: &[f32], n: usize, params: ComputeParams) -> Result<ComputeLu, LuError> {
        LuError::check_square(a, n)?;
        if !(1..=64).contains(&params.block) {
            return Err(LuError::Size(format!(
                "panel width {} not in 1 … 64",
                params.block
            )));
        }
        let mut progs = program_defines(params.block)
            .into_iter()
            .map(|(file, d)| Program::compute(gl, file, &d));
        let mut next = || progs.next().expect("five programs");
        let (argmax, swap, panel, trsm, gemm) = (next()?, next()?, next()?, next()?, next()?);
        Ok(ComputeLu {
            gl: gl.clone(),
            n,
            params,
            a: Buffer::from_slice(gl, a)?,
            piv: Buffer::from_slice(gl, &(0..n as i32).collect::<Vec<_>>())?,
            argmax,
            swap,
            panel,
            trsm,
            gemm,
        })
    }

    /// Replaces the matrix.
    pub fn upload(&mut self, a: &[f32]) -> Result<(), LuError> {
        LuError::check_square(a, self.n)?;
        self.a.upload(a)?;
        self.piv.upload(&(0..self.n as i32).collect::<Vec<_>>())?;
        Ok(())
    }

    /// Factors the uploaded matrix in place.
    pub fn run(&mut self) -> Result<ComputeInfo, LuError> {
        let n = self.n as i32;
        let nb = self.params.block as i32;
        let mut dispatches = 0u64;
        self.a.bind(0);
        self.piv.bind(1);
        self.gl.finish();
        let t0 = Instant::now();
        let mut p = 0;
        while p < n {
            let pe = (p + nb).min(n);
            for i in p..pe {
                if self.params.pivoting {
                    self.argmax.set_i32("u_n", n);
                    self.argmax.set_i32("u_i", i);
                    self.argmax.dispatch([1, 1, 1])?;
                    self.gl.storage_barrier();
                    self.swap.set_i32("u_n", n);
                    self.swap.set_i32("u_i", i);
                    self.swap.dispatch_1d(n as u32)?;
                    self.gl.storage_barrier();
                    dispatches += 2;
                }
                if i + 1 < n {
                    self.panel.set_i32("u_n", n);
                    self.panel.set_i32("u_i", i);
                    self.panel.set_i32("u_pe", pe);
                    self.panel.dispatch_1d((n - i - 1) as u32)?;
                    self.gl.storage_barrier();
                    dispatches += 1;
                }
            }
            if pe < n {
                for prog in [&self.trsm, &self.gemm] {
                    prog.set_i32("u_n", n);
                    prog.set_i32("u_p", p);
                    prog.set_i32("u_pe", pe);
                }
                self.trsm.dispatch_1d((n - pe) as u32)?;
                self.gl.storage_barrier();
                let tiles = ((n - pe) as u32).div_ceil(64);
                self.gemm.dispatch([tiles, tiles, 1])?;
                self.gl.storage_barrier();
                dispatches += 2;
            }
            p = pe;
        }
        self.gl.finish();
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let swaps = self
            .piv
            .read()?
            .iter()
            .enumerate()
            .filter(|&(i, &p)| p as usize != i)
            .count() as u64;
        Ok(ComputeInfo {
            ms,
            dispatches,
            swaps,
        })
    }

    /// The packed factors of `P·A`; a zero or non-finite pivot becomes [`LuError::Pivot`].
    pub fn factors(&self) -> Result<Vec<f32>, LuError> {
        let lu = self.a.read()?;
        super::cpu::checked_factors(lu, self.n)
    }

    /// The pivot rows chosen (`piv[i]` = row swapped with row `i` at step `i`).
    pub fn pivots(&self) -> Result<Vec<usize>, LuError> {
        Ok(self.piv.read()?.into_iter().map(|p| p as usize).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compute_work_adds_up_to_lu_flops_and_counts_the_dispatches() {
        for (n, nb) in [(1, 1), (2, 1), (7, 3), (64, 16), (100, 32), (129, 64)] {
            let w = compute_work(n, nb, false, 0);
            assert_eq!(
                w.flops32,
                super::super::theory::lu_flops(n as f64),
                "n = {n}"
            );
            // panel: one per column but the last; trsm + gemm: two per panel but the last.
            let panels = n.div_ceil(nb) as u64;
            assert_eq!(w.dispatches, (n as u64 - 1) + 2 * (panels - 1), "n = {n}");
            let wp = compute_work(n, nb, true, 0);
            assert_eq!(wp.dispatches, w.dispatches + 2 * n as u64);
        }
    }
}
