//! Beyond the paper: the Jacobi sweep as a render-to-texture fragment pass
//! ([`FragmentJacobi`], GL 3.3) against the compute shader
//! ([`GpuJacobi`], GL 4.3) on the same flattened
//! matrix — the legacy pipeline and compute on one algorithm and one input. The compute sweep
//! runs twice, its inputs read from SSBOs and through buffer textures (Fig. 5's `tex1Dfetch`);
//! the legacy-vs-compute table takes the faster. Sizes, dimension, sweeps and repetitions are
//! the `perf` table's (`[perf]`).
//!
//! Three rows per size, one per solver (fragment, compute with each way of reading), so that
//! each records its own kernel's work for the bound columns. All are timed as `perf` times the
//! compute sweep (interleaved in rounds, `glFinish` around the timed region)
//! over the same number of sweeps from x⁽⁰⁾ = 0 without stopping tests, and every iterate is
//! compared with the CPU Jacobi in f64 after the same sweeps ([`sweeps_f64`], the f32 arrays
//! widened). GB/s use the compulsory bytes of [`FlatMatrix::sweep_bytes`], as `perf`. Where
//! the device lacks compute shaders (softpipe) the compute rows are skipped with the reason,
//! and the fragment row still runs.

use super::config::{Config, PerfConfig};
use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::Timing;
use crate::gl::measure::rounds_gpu;
use crate::gl::timing::Rounds;
use crate::gl::{Need, Reads};
use crate::papers::fem_storage::assembly::System;
use crate::papers::fem_storage::flat::FlatMatrix;
use crate::papers::fem_storage::fragment::FragmentJacobi;
use crate::papers::fem_storage::gpu::GpuJacobi;
use crate::papers::fem_storage::jacobi::{JacobiSweeps, sweeps_f64};
use crate::papers::fem_storage::mesh::Grid;
use crate::report::{Column, RowBuilder, with_bound_columns};
use crate::runner::{Repeat, RunError, Session, TableWriter};

/// The algorithm both rows solve, for the legacy-vs-compute table.
const VERSUS: &str = "Jacobi sweeps on the flattened arrays (f32)";

const GBS: &str = "GB/s (compulsory bytes)";
const RATIO: &str = "time / fragment time";
const ERROR: &str = "error vs CPU f64";
/// f32 sweeps against f64 ones: Jacobi contracts rounding differences (as `perf`'s check).
const TOL: f64 = 1e-5;

/// fp32 flops of one sweep: a multiply-add per off-diagonal entry, a subtraction and a
/// division per row (2 per stored entry).
fn sweep_work(flat: &FlatMatrix, kind: Kind, reads: Reads) -> Work {
    // x_new is the one array written (4 bytes per row); the rest are loads: fragment texel
    // fetches of R32F textures, compute loads through `reads`.
    let written = 4.0 * flat.n() as f64;
    let loads = flat.sweep_bytes() as f64 - written;
    let (load, store) = match (kind, reads) {
        (Kind::Fragment, _) => (Access::TexScalar, Access::Target),
        (Kind::Compute, Reads::Ssbo) => (Access::SsboRead, Access::SsboWrite),
        (Kind::Compute, Reads::Texture) => (Access::ImageRead, Access::SsboWrite),
    };
    Work {
        bytes: Bytes::of(&[(load, loads), (store, written)]),
        flops32: 2.0 * flat.entries() as f64,
        flops64: 0.0,
        passes: u64::from(kind == Kind::Fragment),
        dispatches: u64::from(kind == Kind::Compute),
        kind,
    }
}

fn columns() -> Vec<Column> {
    with_bound_columns(vec![
        Column::key("unknowns").int(),
        Column::key("solver").text(),
        Column::ours("ms/sweep").fixed(3),
        Column::ours(GBS).fixed(2),
        Column::ours(RATIO).fixed(2),
        Column::ours(ERROR).sci(1),
    ])
}

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let p = &cfg.perf;
    let mut t = s.table(
        "legacy",
        "Jacobi sweep: fragment (render-to-texture) vs compute, same matrix",
        columns(),
        p,
    )?;
    let lacks = s.lacks(&[Need::Compute]);
    for grid in p.grids(s.mode)? {
        s.check_interrupt()?;
        size_rows(s, cfg, &mut t, grid, &lacks)?;
    }
    captions(&mut t, p, p.repeat.pick(s.mode), &lacks);
    t.finish()?;
    Ok(())
}

/// A size's rows: reused under --resume, else the fragment sweep and (where the device has
/// compute) the compute sweeps with each way of reading, timed and checked; the compute rows
/// skipped with the reason `lacks` where it has none.
fn size_rows(
    s: &Session,
    cfg: &Config,
    t: &mut TableWriter,
    grid: Grid,
    lacks: &Option<String>,
) -> Result<(), RunError> {
    let sweeps = cfg.perf.sweeps;
    let frag_key = format!("{} fragment", grid.nodes());
    let comp_keys = Reads::ALL.map(|r| comp_key(&grid, r));
    // Skipped rows are never reused (they cost nothing): reuse the fragment row alone
    // where the compute ones are skipped.
    let mut keys = vec![frag_key.clone()];
    if lacks.is_none() {
        keys.extend(comp_keys.iter().cloned());
    }
    if t.reuse_all(&keys)?.is_some() {
        if let Some(why) = lacks {
            push_skipped(t, &grid, why)?;
        }
        return Ok(());
    }
    t.start(&frag_key);
    let sys = System::assemble(grid, &cfg.problem).map_err(RunError::algorithm)?;
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).map_err(RunError::algorithm)?;
    let want = sweeps_f64(&flat, &vec![0.0; flat.n()], sweeps);
    let zeros = vec![0.0f32; flat.n()];

    // The fragment sweep and (where the device has compute) the compute sweeps with
    // each way of reading, interleaved in rounds on the same matrix.
    let mut frag = FragmentJacobi::new(&s.gl, &flat).map_err(RunError::algorithm)?;
    let mut comps = compute_solvers(s, &flat, lacks)?;
    let timed = rounds_gpu(
        &s.gl,
        cfg.perf.repeat.pick(s.mode).plan(),
        1 + comps.len(),
        |i| {
            if i == 0 {
                frag.set_x(&zeros)?;
                frag.run_fixed(sweeps)
            } else {
                comps[i - 1].set_x(&zeros)?;
                comps[i - 1].run_fixed(sweeps)
            }
        },
    )
    .map_err(RunError::algorithm)?;
    let m = Measured {
        grid: &grid,
        flat: &flat,
        timed,
        sweeps,
        total: flat.sweep_bytes() as f64 * sweeps as f64 / 1e9,
    };
    let frag_err = crate::stats::max_rel_error(&frag.x().map_err(RunError::algorithm)?, &want);
    let layout = frag.layout();
    drop(frag);
    t.push_variant(m.frag_row(t, &frag_key, frag_err, layout), Some(0))?;

    if let Some(why) = lacks {
        return push_skipped(t, &grid, why);
    }
    for (i, ((reads, key), comp)) in Reads::ALL
        .into_iter()
        .zip(&comp_keys)
        .zip(&comps)
        .enumerate()
    {
        let x = comp.x().map_err(RunError::algorithm)?;
        let comp_err = crate::stats::max_rel_error(&x, &want);
        t.push_variant(m.comp_row(t, (i, reads), key, comp_err), Some(1 + i))?;
    }
    Ok(())
}

/// The compute sweeps with each way of reading; none where the device `lacks` compute.
fn compute_solvers(
    s: &Session,
    flat: &FlatMatrix,
    lacks: &Option<String>,
) -> Result<Vec<GpuJacobi>, RunError> {
    Ok(if lacks.is_none() {
        Reads::ALL
            .iter()
            .map(|&reads| GpuJacobi::with_reads(&s.gl, flat, reads))
            .collect::<Result<Vec<_>, _>>()
            .map_err(RunError::algorithm)?
    } else {
        vec![]
    })
}

/// The compute rows of `grid`, skipped: the device lacks compute (`why`).
fn push_skipped(t: &mut TableWriter, grid: &Grid, why: &str) -> Result<(), RunError> {
    for r in Reads::ALL {
        t.push(skipped(t, r, grid, why))?;
    }
    Ok(())
}

/// A size's timed sweeps (round 0 the fragment solver's, then the compute solvers'), and
/// what its rows are computed from: the `total` GB the `sweeps` sweeps move.
struct Measured<'a> {
    grid: &'a Grid,
    flat: &'a FlatMatrix,
    timed: Rounds,
    sweeps: usize,
    total: f64,
}

impl Measured<'_> {
    /// `tm` per sweep.
    fn per_sweep(&self, tm: &Timing) -> Timing {
        let mut one = tm.clone();
        for v in [&mut one.median_ms, &mut one.lo_ms, &mut one.hi_ms] {
            *v /= self.sweeps as f64;
        }
        one
    }

    /// The fragment solver's row (its textures `w × h` texels), checked against the CPU.
    fn frag_row(&self, t: &TableWriter, key: &str, err: f64, (w, h): (u32, u32)) -> RowBuilder {
        let (grid, flat, tf) = (self.grid, self.flat, &self.timed.timings[0]);
        t.row(key)
            .num("unknowns", grid.nodes() as f64)
            .text(
                "solver",
                format!("fragment, {} ({w}×{h} texels)", grid.label()),
            )
            .est("ms/sweep", tf.est().map(|ms| ms / self.sweeps as f64))
            .est(GBS, tf.rate(self.total))
            .num(RATIO, 1.0)
            .num(ERROR, err)
            .runs(tf.runs)
            .work_timed(
                "Jacobi fragment",
                sweep_work(flat, Kind::Fragment, Reads::Ssbo),
                &self.per_sweep(tf),
            )
            .versus(VERSUS, format!("{} unknowns", flat.n()))
            .verify(err, TOL)
    }

    /// Compute solver `i` (reading as `reads`)'s row, checked against the CPU. Its work is
    /// the compulsory model of `sweep_work`, as the fragment row's.
    fn comp_row(
        &self,
        t: &TableWriter,
        (i, reads): (usize, Reads),
        key: &str,
        err: f64,
    ) -> RowBuilder {
        let (grid, flat, tc) = (self.grid, self.flat, &self.timed.timings[i + 1]);
        t.row(key)
            .num("unknowns", grid.nodes() as f64)
            .text("solver", solver(reads, grid))
            .est("ms/sweep", tc.est().map(|ms| ms / self.sweeps as f64))
            .est(GBS, tc.rate(self.total))
            .opt_est(RATIO, self.timed.ratio(i + 1, 0))
            .num(ERROR, err)
            .runs(tc.runs)
            .work_timed(
                format!("Jacobi compute ({})", reads.name()),
                sweep_work(flat, Kind::Compute, reads),
                &self.per_sweep(tc),
            )
            .versus(VERSUS, format!("{} unknowns", flat.n()))
            .verify(err, TOL)
    }
}

fn captions(t: &mut TableWriter, p: &PerfConfig, rep: &Repeat, lacks: &Option<String>) {
    let sweeps = p.sweeps;
    t.caption(format!(
        "Interleaved: per size the fragment sweep and the compute sweeps run in rounds on the \
         same matrix (each round every solver once, in a shuffled order): {}. ms/sweep = \
         median [95 % interval] over the rounds / sweeps (distribution-free order-statistic \
         interval; `*`: fewer than 6 rounds, [min, max]); GB/s carries that interval; \
         `{RATIO}` is the paired ratio (per-round ratios, median and interval).",
        rep.rule("round", "solver")
    ));
    t.caption(format!(
        "{sweeps} sweeps from x⁽⁰⁾ = 0 without stopping tests on the `perf` table's matrices, \
         glFinish-bracketed (the upload of x⁽⁰⁾ included: 8N bytes for \
         the fragment solver's two textures, 4N for the compute buffer). Fragment: one \
         full-texture quad per sweep rendering into the other texture of a switch-method \
         ping-pong pair; idx/val/accmSize/rhs/x in R32F 2D textures wrapped at 4096 texels, \
         indices and offsets as exact floats. Compute: `jacobi.comp` as in `perf`, its inputs \
         read from SSBOs (`ssbo`) or through buffer-texture views of the same buffers \
         (`texture`, Fig. 5's tex1Dfetch). Compulsory bytes per sweep as `perf`: 8 B per \
         stored entry + 16 B per row. Error: max-norm \
         difference from the CPU Jacobi in f64 after the same sweeps, relative to its max \
         norm (tolerance {TOL:.0e})."
    ));
    if let Some(why) = lacks {
        t.caption(format!("Compute rows skipped: the compute stage {why}."));
    }
}

/// The row key of the compute sweep reading as `reads` (SSBO: the key it always had).
fn comp_key(grid: &Grid, reads: Reads) -> String {
    match reads {
        Reads::Ssbo => format!("{} compute", grid.nodes()),
        Reads::Texture => format!("{} compute texture", grid.nodes()),
    }
}

fn solver(reads: Reads, grid: &Grid) -> String {
    format!("compute ({} reads), {}", reads.name(), grid.label())
}

fn skipped(
    t: &crate::runner::TableWriter,
    reads: Reads,
    grid: &Grid,
    why: &str,
) -> crate::report::RowBuilder {
    t.row(comp_key(grid, reads))
        .num("unknowns", grid.nodes() as f64)
        .text("solver", solver(reads, grid))
        .skip(why.to_string())
}
