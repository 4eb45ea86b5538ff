//! The paper's experiments, one file per table or figure:
//! - `table1.rs`: Table 1, texture fetches per element (measured with instrumented shaders,
//!   against the static count and the paper's numbers), and the audit of its sums;
//! - `fig11.rs`: Fig. 11, solve times at the paper's grids (Thomas, CG n = 1, 2, 4, 8, CR),
//!   the paper's claims about them and the central claim "CR is considerably faster than
//!   Thomas" as findings;
//! - `sweep.rs`: Fig. 11 as a curve over grid sizes;
//! - `passes.rs`: where the fragment CR's time goes;
//! - `fig9.rs`: Fig. 9, 3D batches tiled into one 2D texture, timed in Fig. 11's style;
//! - `arith2005.rs`: beyond the paper, the fragment CR's and CG's errors under the 2005
//!   arithmetic model (issue 25);
//! - `notes.rs`: the reproduction notes (decisions, ambiguities);
//! - `sims/`: the ADI simulations' `stability` table, Fig. 14 and the frame sequences of
//!   Figs. 13, 16, 18, 19, configured by the paper's second file, `experiments/sims.toml`.
//!
//! Every GPU solve is read back and compared with a CPU reference in f64 (Thomas, or CG f64
//! for the same iteration count); the error is a column. Times are medians of
//! `glFinish`-bracketed repetitions (`gl::timing::repeat`) of `solve` on a systems texture
//! already on the GPU (the finite check is off while timing, on for the verified run).
//!
//! With `--resume` every table reuses the rows of an earlier run with the same configuration
//! on the same device: Table 1 per solve (a CR method's three rows, a CG packing's two),
//! Fig. 11, the sweep and Fig. 9 per row, a grid's GL rows only together with its CPU Thomas
//! row (their ratios' denominator), `passes` per row.
//!
//! Every number of the experiment file is checked when it is loaded (finite, positive where
//! it must be, counts at least 1), and every grid against the device's texture size and the
//! host's memory before anything is allocated or written.

mod arith2005;
mod fig11;
mod fig9;
mod findings;
mod notes;
mod passes;
pub mod sims;
mod sweep;
mod table1;
mod tune;

use serde::{Deserialize, Deserializer, Serialize};

use super::cpu::{Systems, thomas_batch_f32};
use super::{BatchSolver, TridiagonalError, upload};
use crate::bench::Work;
use crate::gl::DeviceInfo;
use crate::gl::timing::{measure_cpu, measure_gpu, rounds};
use crate::gl::{Gl, Need, Texture};
use crate::report::RowBuilder;
use crate::runner::{Mode, Repeat, RunError, Session, Sizes, TableSpec, TableWriter};
use crate::util::max_rel_error;

pub use findings::{Fig11Times, same_order};

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    table1: table1::Table1Config,
    fig11: fig11::Fig11Config,
    sweep: sweep::SweepConfig,
    passes: passes::PassesConfig,
    fig9: fig9::Fig9Config,
    tune: tune::TuneConfig,
    arith2005: arith2005::Arith2005Config,
}

/// Tolerance of a direct solve (CR, PCR, Thomas f32) against Thomas f64: the heat systems
/// have condition number below 1 + 4r = 5, so an f32 solve is good to ~10 ulps; 1e-4 leaves
/// room for q = 11 levels and still catches any indexing mistake.
const DIRECT_TOL: f64 = 1e-4;

fn alg(e: TridiagonalError) -> RunError {
    RunError::algorithm(e)
}

/// The paper's tables and what they need: the fetch counts of Table 1 use an SSBO counter in
/// the fragment shaders (GL 4.3); Fig. 11 and its sweep add the compute-shader CR and PCR
/// beside the paper's fragment solvers; the rest runs on GL 3.3 core.
pub const TABLES: &[TableSpec] = &[
    TableSpec::needs("table1", &[Need::FragmentSsbo]),
    TableSpec::needs("tuning", &[Need::Compute]),
    TableSpec::any("fig11").rows_need(&[Need::Compute]),
    TableSpec::any("sweep").rows_need(&[Need::Compute]),
    TableSpec::any("passes"),
    TableSpec::any("fig9"),
    TableSpec::any("arith2005"),
];

/// The paper (its file is [`Config`]; checked by the runner before any work starts).
pub struct Tridiagonal;

impl crate::runner::Paper for Tridiagonal {
    type Config = Config;

    fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
        if s.runs("table1") {
            table1::run(s, &cfg.table1)?;
        }
        // The compute solvers' work-group sizes, tuned on this device (defaults without compute:
        // their rows are skipped then).
        let local = if s.runs("tuning") {
            tune::run(s, &cfg.tune)?
        } else {
            tune::UNTUNED
        };
        let fig11 = fig11::run(s, &cfg.fig11, local)?;
        sweep::run(s, &cfg.sweep, local)?;
        passes::run(s, &cfg.passes)?;
        fig9::run(s, &cfg.fig9)?;
        arith2005::run(s, &cfg.arith2005)?;
        notes::notes(s, fig11.iter().map(|t| t.grid).max());
        // The simulations' tables and figures, from the paper's second file (`sims.toml`).
        sims::run(s)
    }
}

/// Checked by the runner before any work starts: every size against the device and the host.
impl crate::runner::Experiments for Config {
    fn validate(&self, check: &crate::runner::Check) -> Result<(), String> {
        check_sizes(check.device, self, check.mode).map_err(|e| e.to_string())
    }
}

/// Every size of the run, checked before any table allocates or writes anything.
fn check_sizes(info: &DeviceInfo, cfg: &Config, mode: Mode) -> Result<(), RunError> {
    check_batch(info, "table1", cfg.table1.n, cfg.table1.batch)?;
    for (table, grids) in [
        ("fig11", &cfg.fig11.grids),
        ("sweep", &cfg.sweep.grids),
        ("passes", &cfg.passes.grids),
        ("arith2005", &cfg.arith2005.grids),
    ] {
        for &g in grids.pick(mode) {
            check_batch(info, table, g as usize - 1, g as usize)?;
        }
    }
    let g = *cfg.tune.grid.pick(mode) as usize;
    if g < 2 {
        return Err(RunError::algorithm(TridiagonalError::Shape(format!(
            "tune.grid {g}: a grid needs at least 2 points (1 unknown)"
        ))));
    }
    check_batch(info, "tune", g - 1, g)?;
    fig9::check(info, &cfg.fig9, mode)
}

/// Bytes per unknown a table needs at most at once: the systems on the host (16) and in a
/// texture (16), the f64 references (8 + 32 for CG's vectors), one solver's buffers (the
/// fragment CG's thirteen vector textures, 52; CR's P0, P1, P2, X1, X2, x: 64), with room.
const BYTES_PER_UNKNOWN: u64 = 256;

/// Refuses grid `g` of `table` where the device or the host cannot hold it, naming the
/// limit: the widest texture (`width` texels: X buffers are `2^q + 3` per system), `height`
/// rows, and the memory for `unknowns` (MemAvailable, where the OS tells).
fn check_size(
    info: &DeviceInfo,
    table: &str,
    g: usize,
    width: u64,
    height: u64,
    unknowns: u64,
) -> Result<(), RunError> {
    let refuse = |why: String| {
        Err(RunError::algorithm(TridiagonalError::Unsupported(format!(
            "[{table}] grid {g}: {why}"
        ))))
    };
    let max = info.max_rectangle_texture_size.max(0) as u64;
    if width > max || height > max {
        return refuse(format!(
            "the solvers need a {width}×{height} texture; this device's largest rectangle \
             texture is {max}×{max}"
        ));
    }
    let need = unknowns.saturating_mul(BYTES_PER_UNKNOWN);
    if let Some(avail) = crate::util::available_memory()
        && need > avail
    {
        return refuse(format!(
            "needs about {} MiB ({BYTES_PER_UNKNOWN} bytes per unknown); {} MiB available",
            need >> 20,
            avail >> 20
        ));
    }
    Ok(())
}

/// [`check_size`] for `batch` systems of `n` unknowns side by side in one texture.
fn check_batch(info: &DeviceInfo, table: &str, n: usize, batch: usize) -> Result<(), RunError> {
    let width = (1u64 << super::layout::levels_for(n)) + 3;
    check_size(info, table, n + 1, width, batch as u64, (n * batch) as u64)
}

/// One grid's batch of heat systems, its solution by Thomas in f64 (the reference) and the
/// systems' texture: made when a row of the grid is measured, not where `--resume` reuses
/// every row of it ([`GridData::get`]).
struct GridData {
    sys: Systems,
    want: Vec<f64>,
    tex: Texture,
}

impl GridData {
    /// `batch` systems of `n` unknowns (heat, `r`, `seed`), made at the first call.
    fn get<'a>(
        slot: &'a mut Option<GridData>,
        gl: &Gl,
        (n, batch): (usize, usize),
        r: f32,
        seed: u64,
    ) -> Result<&'a GridData, RunError> {
        if slot.is_none() {
            let sys = Systems::heat(n, batch, r, seed);
            let want = super::cpu::thomas_batch_f64(&sys).map_err(alg)?;
            let tex = upload(gl, &sys)?;
            *slot = Some(GridData { sys, want, tex });
        }
        Ok(slot.as_ref().expect("made above"))
    }
}

/// Pure CPU Thomas f32 on a grid's systems, the denominator of every ratio of the grid, and
/// whether its row (`<grid> Thomas CPU f32`, then the key cells `cells`) was reused: with
/// `--resume` the grid's other rows are reused only together with it, so that every ratio
/// has the same denominator. `data` makes the systems and their f64 solution, only where the
/// row is measured.
fn thomas_row<'d>(
    t: &mut TableWriter,
    grid: &str,
    cells: &[(&str, &str)],
    repeat: &Repeat,
    data: impl FnOnce() -> Result<(&'d Systems, &'d [f64]), RunError>,
) -> Result<(f64, bool), RunError> {
    let key = format!("{grid} Thomas CPU f32");
    let reused = t.reuse(&key)?.and_then(|row| t.value(&row, TIME));
    let ms = match reused {
        Some(ms) => ms,
        None => {
            t.start(&key);
            let (sys, want) = data()?;
            let th = time_thomas_cpu(sys, want, repeat)?;
            let mut row = t.row(&key).text("grid", grid);
            for (name, v) in [("solver", "Thomas CPU f32")].iter().chain(cells) {
                row = row.text(name, *v);
            }
            t.push(timed_row(row, &th, th.ms, None))?;
            th.ms
        }
    };
    Ok((ms, reused.is_some()))
}

/// `row` verified against its tolerance, or failed with the solver's error.
fn verified_row(row: RowBuilder, err: &Result<f64, String>, tol: f64) -> RowBuilder {
    match err {
        Ok(e) => row.verify(*e, tol),
        Err(e) => row.fail(e.clone()),
    }
}

/// CPU Thomas f32 on `sys` (one thread, host data, no transfers), the denominator of every
/// ratio in Fig. 11, its sweep and Fig. 9: median time over `repeat`, timed runs, and the
/// error of its solution against `want`.
fn time_thomas_cpu(sys: &Systems, want: &[f64], repeat: &Repeat) -> Result<Measured, RunError> {
    let mut x = vec![0f32; sys.n * sys.batch];
    thomas_batch_f32(sys, &mut x).map_err(alg)?;
    let err = max_rel_error(&x, want);
    let th = measure_cpu(repeat.plan(), || thomas_batch_f32(sys, &mut x)).map_err(alg)?;
    Ok(Measured {
        ms: th.median_ms,
        runs: th.runs,
        timing: th,
        err: Ok(err),
        work: None,
        ratio: None,
    })
}

/// The columns every Fig. 11-style table (fig11, sweep, fig9) shares.
const TIME: &str = "time";
const RATIO: &str = "× Thomas CPU f32";
const ERR: &str = "max rel error vs Thomas f64";

/// `row` (its key cells filled) completed with measurement `m` checked against Thomas f64:
/// its time, the ratio to CPU Thomas's `th_ms`, the error and the timed runs, verified within
/// [`DIRECT_TOL`]. `input` names the systems solved, for the legacy-vs-compute table (the
/// fragment and compute CR of one input meet there).
fn timed_row(row: RowBuilder, m: &Measured, th_ms: f64, input: Option<&str>) -> RowBuilder {
    let row = time_cells(row, m, th_ms)
        .opt(ERR, m.err.as_ref().ok().copied())
        .runs(m.runs);
    verified_row(with_work(row, m, input), &m.err, DIRECT_TOL)
}

/// `row` with `m`'s time (median [95 % interval]) and its ratio to CPU Thomas's `th_ms`: the
/// paired ratio where the two were timed in rounds, else the ratio of the medians (CPU
/// Thomas's own row: 1).
fn time_cells(row: RowBuilder, m: &Measured, th_ms: f64) -> RowBuilder {
    let row = if m.timing.runs > 0 {
        row.timed(TIME, &m.timing)
    } else {
        row.num(TIME, m.ms)
    };
    match &m.ratio {
        Some(r) => row.est(RATIO, r.clone()),
        None => row.num(RATIO, m.ms / th_ms),
    }
}

/// `row` with `m`'s work and time recorded for the bound columns (GPU solvers that were
/// timed; CPU rows and failed solves get none); a CR kernel (fragment or compute) of a named
/// `input` also joins the legacy-vs-compute table.
fn with_work(row: RowBuilder, m: &Measured, input: Option<&str>) -> RowBuilder {
    match &m.work {
        Some((kernel, w)) if m.ms.is_finite() => {
            let row = row.work_timed(kernel.clone(), *w, &m.timing);
            match input {
                Some(i) if kernel.starts_with("CR ") => row.versus("cyclic reduction", i),
                _ => row,
            }
        }
        _ => row,
    }
}

/// The roofline's name of a solver's kernel, short enough for the figure: `fragment` and
/// the shared-memory path (the default) are dropped, CG's iteration count too (every n and
/// the converged run are one kernel; its point is the run with the most work), and Fig. 9's
/// untiled batch is the plain switch CR (its tiled batch, whatever the columns, one kernel).
fn kernel_name(solver: &str) -> String {
    let s = solver.split(" n=").next().unwrap_or(solver);
    let s = s.strip_suffix(" converged").unwrap_or(s);
    let s = s.strip_suffix(", untiled").unwrap_or(s);
    let s = match s.split_once(", tiled") {
        Some((head, _)) => format!("{head} tiled"),
        None => s.to_string(),
    };
    s.replace("CR fragment ", "CR ")
        .replace("CG fragment ", "CG ")
        .replace(" (shared)", "")
}

/// One timed solver: median ms, runs, error against the reference.
struct Measured {
    ms: f64,
    runs: usize,
    /// The timed runs (empty where the row was not timed).
    timing: crate::gl::Timing,
    err: Result<f64, String>,
    /// The kernel's roofline name and the work of one timed run (GPU solvers).
    work: Option<(String, Work)>,
    /// time / CPU Thomas f32's time, from rounds that time both interleaved (paired).
    ratio: Option<crate::stats::Estimate>,
}

/// Verifies one solve of `solver` against `want`, then times `solve` (finite check off).
fn time_solver(
    gl: &Gl,
    solver: &mut dyn BatchSolver,
    tex: &Texture,
    want: &[f64],
    repeat: &Repeat,
    thomas: Option<&Systems>,
) -> Result<Measured, RunError> {
    let err = match solver.solve(tex) {
        Ok(x) => Ok(max_rel_error(&x.read()?, want)),
        Err(e) => Err(e.to_string()),
    };
    if err.is_err() {
        return Ok(Measured {
            ms: f64::NAN,
            runs: 0,
            timing: Default::default(),
            err,
            work: None,
            ratio: None,
        });
    }
    let (t, ratio) = match thomas {
        None => (
            measure_gpu(gl, repeat.plan(), || solver.solve(tex).map(|_| ())).map_err(alg)?,
            None,
        ),
        Some(sys) => {
            // The solver and CPU Thomas f32 in rounds: the ratio is paired.
            let mut x = vec![0f32; sys.n * sys.batch];
            let r = rounds(repeat.plan(), 2, |i| -> Result<f64, RunError> {
                gl.finish();
                let t0 = std::time::Instant::now();
                if i == 0 {
                    solver.solve(tex).map_err(alg)?;
                    gl.finish();
                } else {
                    thomas_batch_f32(sys, &mut x).map_err(alg)?;
                }
                Ok(t0.elapsed().as_secs_f64() * 1e3)
            })?;
            (r.timings[0].clone(), r.ratio(0, 1))
        }
    };
    Ok(Measured {
        ms: t.median_ms,
        runs: t.runs,
        timing: t,
        err,
        work: solver.work().map(|w| (kernel_name(solver.name()), w)),
        ratio,
    })
}

// ---- Checks of the experiment file, run by serde as it is loaded (the error names the
// ---- file, the line and the key).

fn bad<E: serde::de::Error>(what: impl std::fmt::Display) -> E {
    E::custom(what)
}

/// A finite `f32` > 0.
fn positive_f32<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    let v = f32::deserialize(d)?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(bad(format!("{v}: must be a finite number > 0")))
    }
}

/// A finite `f64` > 0.
fn positive_f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(bad(format!("{v}: must be a finite number > 0")))
    }
}

/// A finite `f64` (a number printed in the paper).
fn finite_f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(bad(format!("{v}: must be a finite number")))
    }
}

/// A count ≥ 1.
fn count<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let v = usize::deserialize(d)?;
    if v >= 1 {
        Ok(v)
    } else {
        Err(bad("0: must be at least 1"))
    }
}

/// Counts ≥ 1, at least one of them.
fn counts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<usize>, D::Error> {
    let v = Vec::<usize>::deserialize(d)?;
    if v.is_empty() || v.contains(&0) {
        Err(bad(format!(
            "{v:?}: needs at least one count, each at least 1"
        )))
    } else {
        Ok(v)
    }
}

/// Grid sizes `N ≥ 2` (systems of `N − 1 ≥ 1` unknowns), for both modes.
fn grids<'de, D: Deserializer<'de>>(d: D) -> Result<Sizes, D::Error> {
    let v = Sizes::deserialize(d)?;
    match v.full.iter().chain(&v.quick).find(|&&g| g < 2) {
        Some(g) => Err(bad(format!(
            "grid {g}: every grid needs at least 2 points (1 unknown)"
        ))),
        None => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::kernel_name;

    #[test]
    fn kernel_names_group_the_runs_of_one_kernel() {
        for (solver, kernel) in [
            ("CR fragment (copy)", "CR (copy)"),
            ("CR fragment (switch), untiled", "CR (switch)"),
            (
                "CR fragment (switch), tiled (8 columns)",
                "CR (switch) tiled",
            ),
            ("CG fragment scalar n=4", "CG scalar"),
            ("CG fragment RGBA converged", "CG RGBA"),
            ("CR compute (shared)", "CR compute"),
            ("CR compute (passes)", "CR compute (passes)"),
            ("PCR compute (global)", "PCR compute (global)"),
        ] {
            assert_eq!(kernel_name(solver), kernel);
        }
    }
}
