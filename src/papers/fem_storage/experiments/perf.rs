//! Beyond the paper: the Jacobi sweep of Table 4 timed alone, GL compute (inputs read from
//! SSBOs, and through buffer textures as Fig. 5's `tex1Dfetch`) against the CPU on the same
//! flattened arrays, and against this device's SSBO streaming bandwidth. Compulsory
//! bytes per sweep ([`FlatMatrix::sweep_bytes`]): 8 B per stored entry (index + value) and
//! 16 B per row (accmSize, rhs, x_old, x_new).

use super::config::{Config, PerfConfig};
use super::threads::threads;
use crate::gl::Reads;
use crate::gl::measure::{once_cpu, once_gpu};
use crate::gl::timing::{Rounds, rounds};
use crate::mode::Mode;
use crate::papers::fem_storage::assembly::System;
use crate::papers::fem_storage::error::FemError;
use crate::papers::fem_storage::flat::FlatMatrix;
use crate::papers::fem_storage::gpu::GpuJacobi;
use crate::papers::fem_storage::jacobi::{CpuJacobi, JacobiSweeps};
use crate::papers::fem_storage::mesh::Grid;
use crate::report::{Column, RowBuilder, with_bound_columns};
use crate::runner::{Repeat, RunError, Session, TableWriter};

/// The sweep on the roofline, per way of reading the inputs.
fn kernel(reads: Reads) -> String {
    format!("Jacobi sweep (GL, {})", reads.name())
}

const GBS: &str = "GB/s (compulsory bytes)";
const FRACTION: &str = "fraction of SSBO stream";

fn columns() -> Vec<Column> {
    with_bound_columns(vec![
        Column::key("unknowns").int(),
        Column::key("solver").text(),
        Column::ours("ms/sweep").fixed(3),
        Column::ours(GBS).fixed(2),
        Column::ours(FRACTION).fixed(2),
        Column::ours("time / GL time").fixed(2),
    ])
}

/// The row key of a GL sweep.
fn gl_key(grid: &Grid, reads: Reads) -> String {
    match reads {
        Reads::Ssbo => format!("{} GL", grid.nodes()),
        Reads::Texture => format!("{} GL texture", grid.nodes()),
    }
}

/// A size's row keys: the GL sweeps, then the CPU's per thread count.
fn keys(grid: &Grid, cpu_threads: &[usize]) -> Vec<String> {
    let gl = Reads::ALL.iter().map(|&r| gl_key(grid, r));
    let cpu = cpu_threads
        .iter()
        .map(|th| format!("{} CPU {th}", grid.nodes()));
    gl.chain(cpu).collect()
}

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let p = &cfg.perf;
    let stream_mib = if s.mode == Mode::Quick { 16 } else { 64 };
    let mut t = s.table(
        "perf",
        "Jacobi sweep: GL compute vs CPU on the same flattened arrays",
        columns(),
        p,
    )?;
    let cpu_threads = if threads() == 1 {
        vec![1]
    } else {
        vec![threads(), 1]
    };
    let grids = p.grids(s.mode)?;
    // The SSBO streaming bandwidth, every row's yardstick (and the caption's): with `--resume`
    // the one of the rows reused (GB/s over the fraction), so that every row of the table has
    // the same; measured where no row is reused.
    let reused_stream = grids.iter().find_map(|g| {
        let row = t.reusable(&keys(g, &cpu_threads)[0])?;
        Some(t.value(row, GBS)? / t.value(row, FRACTION)?)
    });
    let stream = match reused_stream.filter(|v| v.is_finite() && *v > 0.0) {
        Some(v) => v,
        None => crate::bench::ssbo_stream_bandwidth(&s.gl, stream_mib)?.gb_per_s,
    };
    for grid in grids {
        s.check_interrupt()?;
        // One GL run and the CPU runs it is compared with fill a size's rows together.
        if t.reuse_all(&keys(&grid, &cpu_threads))?.is_some() {
            continue;
        }
        t.start(&keys(&grid, &cpu_threads)[0]);
        size_rows(s, cfg, &mut t, grid, &cpu_threads, stream)?;
    }
    captions(&mut t, p, p.repeat.pick(s.mode), stream_mib, stream);
    t.finish()?;
    Ok(())
}

/// A size's rows: the GL sweeps (SSBO and texture reads) and the CPU sweeps (each thread
/// count) timed interleaved on the same arrays; the GL results checked against the CPU's.
fn size_rows(
    s: &Session,
    cfg: &Config,
    t: &mut TableWriter,
    grid: Grid,
    cpu_threads: &[usize],
    stream: f64,
) -> Result<(), RunError> {
    let p = &cfg.perf;
    let sweeps = p.sweeps;
    let sys = System::assemble(grid, &cfg.problem).map_err(RunError::algorithm)?;
    let flat = FlatMatrix::from_varvec(&sys.k, &sys.f).map_err(RunError::algorithm)?;
    let bytes = flat.sweep_bytes() as f64;
    let (timed, gpus, xc) = time_sweeps(s, p, &flat, cpu_threads)?;
    let ngl = gpus.len();
    // The upload of x⁽⁰⁾ (4N bytes) is inside the GL timing; it is < 1% of the sweeps.
    // `time / GL time` is against the first GL row (SSBO reads, `Reads::ALL[0]`), paired
    // by round.
    let want: Vec<f64> = xc.iter().map(|&v| v as f64).collect();
    let total = bytes * sweeps as f64 / 1e9;
    for (i, (reads, gpu)) in Reads::ALL.into_iter().zip(&gpus).enumerate() {
        let xg = gpu.x().map_err(RunError::algorithm)?;
        let err = crate::stats::max_rel_error(&xg, &want);
        let row = gl_row(
            s,
            t,
            &grid,
            (i, reads, gpu),
            &timed,
            sweeps,
            (total, stream),
        );
        // f32 sweeps in different summation order / fma: differences stay at f32
        // rounding because Jacobi contracts them.
        t.push_variant(row.verify(err, 1e-5), Some(i))?;
    }
    for (j, &th) in cpu_threads.iter().enumerate() {
        let tc = &timed.timings[ngl + j];
        let row = t
            .row(format!("{} CPU {th}", grid.nodes()))
            .num("unknowns", grid.nodes() as f64)
            .text("solver", format!("CPU, {th} thread(s)"))
            .est("ms/sweep", tc.est().map(|ms| ms / sweeps as f64))
            .est(GBS, tc.rate(total))
            .opt_est("time / GL time", timed.ratio(ngl + j, 0))
            .runs(tc.runs)
            .unchecked("the reference the GL row is verified against");
        t.push(row)?;
    }
    Ok(())
}

/// The GL sweeps (SSBO and texture reads) and the CPU sweeps (each thread count) of
/// `flat`, `p.sweeps` from zero, interleaved in rounds: each round every solver once, in a
/// shuffled order. The rounds, the GL solvers and the first CPU solver's iterate.
fn time_sweeps(
    s: &Session,
    p: &PerfConfig,
    flat: &FlatMatrix,
    cpu_threads: &[usize],
) -> Result<(Rounds, Vec<GpuJacobi>, Vec<f32>), RunError> {
    let sweeps = p.sweeps;
    // The GL sweeps (SSBO and texture reads) and the CPU sweeps (each thread count) run
    // interleaved, in rounds: each round every solver once, in a shuffled order.
    let zeros = vec![0.0f32; flat.n()];
    let mut gpus = Reads::ALL
        .iter()
        .map(|&reads| GpuJacobi::with_reads(&s.gl, flat, reads))
        .collect::<Result<Vec<_>, _>>()
        .map_err(RunError::algorithm)?;
    let mut cpus: Vec<CpuJacobi> = cpu_threads
        .iter()
        .map(|&th| CpuJacobi::new(flat, th))
        .collect();
    let ngl = gpus.len();
    let timed = rounds(
        p.repeat.pick(s.mode).plan(),
        ngl + cpus.len(),
        |i| -> Result<f64, FemError> {
            let ((), ms) = if i < ngl {
                let gpu = &mut gpus[i];
                once_gpu(&s.gl, || {
                    gpu.set_x(&zeros)?;
                    gpu.run_fixed(sweeps).map(drop)
                })?
            } else {
                let cpu = &mut cpus[i - ngl];
                once_cpu(|| -> Result<(), FemError> {
                    cpu.set_x(&zeros);
                    for _ in 0..sweeps {
                        cpu.step();
                    }
                    Ok(())
                })?
            };
            Ok(ms)
        },
    )
    .map_err(RunError::algorithm)?;
    let xc = cpus[0].x().to_vec();
    Ok((timed, gpus, xc))
}

/// GL sweep `i` (reading its inputs by `reads`)'s row, before its check: `total` GB moved
/// by the `sweeps` sweeps, against the SSBO `stream` bandwidth and one sweep's bound.
fn gl_row(
    s: &Session,
    t: &TableWriter,
    grid: &Grid,
    (i, reads, gpu): (usize, Reads, &GpuJacobi),
    timed: &Rounds,
    sweeps: usize,
    (total, stream): (f64, f64),
) -> RowBuilder {
    let tg = &timed.timings[i];
    let work = gpu.work(1, 0);
    let how = match reads {
        Reads::Ssbo => "SSBO reads",
        Reads::Texture => "buffer-texture reads, Fig. 5's tex1Dfetch",
    };
    let per_sweep = tg.est().map(|ms| ms / sweeps as f64);
    let mut one_sweep = tg.clone();
    for v in [
        &mut one_sweep.median_ms,
        &mut one_sweep.lo_ms,
        &mut one_sweep.hi_ms,
    ] {
        *v /= sweeps as f64;
    }
    let gbs = tg.rate(total);
    t.row(gl_key(grid, reads))
        .num("unknowns", grid.nodes() as f64)
        .text(
            "solver",
            format!(
                "GL compute, {how}, {} ({})",
                grid.label(),
                s.gl.info().short()
            ),
        )
        .est("ms/sweep", per_sweep)
        .est(GBS, gbs.clone())
        .est(FRACTION, gbs.map(|g| g / stream))
        .opt_est("time / GL time", timed.ratio(i, 0))
        .runs(tg.runs)
        // One sweep against ms/sweep (the x⁽⁰⁾ upload inside the timing is left out).
        .work_timed(kernel(reads), work, &one_sweep)
}

fn captions(t: &mut TableWriter, p: &PerfConfig, rep: &Repeat, stream_mib: usize, stream: f64) {
    let sweeps = p.sweeps;
    t.caption(format!(
        "Interleaved: per size the GL sweeps (SSBO and buffer-texture reads) and the CPU sweeps \
         (each thread count) run in rounds on the same arrays (each round every solver once, \
         in a shuffled order; a GL run glFinish-bracketed): {}. ms/sweep = median [95 % \
         interval] over the rounds / sweeps (distribution-free order-statistic interval; `*`: \
         fewer than 6 rounds, [min, max]); GB/s and the fraction carry that interval; `time / \
         GL time` is the paired ratio against the SSBO row (per-round ratios, median and \
         interval).",
        rep.rule("round", "solver")
    ));
    t.caption(format!(
        "{sweeps} sweeps from x⁽⁰⁾ = 0 without stopping tests, compulsory \
         bytes per sweep = 8 B per stored entry (index + value) + 16 B per row (accmSize, rhs, \
         x_old, x_new). SSBO streaming bandwidth (bench::ssbo_stream_bandwidth, copy of \
         {stream_mib} MiB): {:.2} GB/s. The two GL rows run the same kernel on the same \
         buffers, reading the inputs from SSBOs or through buffer-texture views of them (as \
         Fig. 5 reads them with tex1Dfetch); `time / GL time` is against the SSBO row. Bound: \
         one sweep's work counted per SSBO access or texel fetch (the gathered x_old and the \
         partial norms included; src/papers/fem_storage/gpu.rs) against ms/sweep. The GL \
         rows are verified against the multithreaded CPU result.",
        stream
    ));
}
