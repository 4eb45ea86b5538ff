//! §5.1 re-run under the 2005 arithmetic model (issue 25, [`super::super::arith2005`]): the
//! eight fragment configurations built with `ARITH_2005` (every `+ − × ÷` of the elimination
//! through the model), compared with each other, with the CPU twin running the same model,
//! and with the CPU's IEEE `f32` loop; then the ablation — only division, only
//! addition/subtraction, only multiplication emulated — which finding 4's second verdict reads.

use crate::gl::PingPongMethod;
use crate::report::{Column, Row};
use crate::runner::cap::over_cap;
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;

use super::super::arith2005::Arith2005;
use super::super::cpu::{Reference, Update, diag_dominant, lu_f32, lu_f32_twin};
use super::super::fragment::{FragmentLu, Params};
use super::config::Config;
use super::forms::{ABLATION_VARIANT, configs};
use super::measured::{bit_identical, reference};
use crate::papers::lu::error::LuError;
use crate::papers::lu::fragment::Variant;

/// How far one factorization is from another: the normwise difference (max |x − y| / max |y|
/// over the packed factors, as §5.1's table) and the mean distance in ULP per entry (each
/// entry at its own scale, so that the small `L` entries, where a division's error lands
/// first, count as much as the large `U` entries).
#[derive(Clone, Copy, Debug)]
pub(super) struct Distance {
    pub normwise: f64,
    pub mean_ulps: f64,
    /// Share of entries whose bits differ.
    pub differing: f64,
}

impl Distance {
    pub(super) fn of(x: &[f32], y: &[f32]) -> Distance {
        let y64: Vec<f64> = y.iter().map(|&v| v as f64).collect();
        let ulps: Vec<f64> = x.iter().zip(y).map(|(a, b)| ulp_distance(*a, *b)).collect();
        Distance {
            normwise: max_rel_error(x, &y64),
            mean_ulps: ulps.iter().sum::<f64>() / ulps.len().max(1) as f64,
            differing: ulps.iter().filter(|&&u| u != 0.0).count() as f64 / ulps.len().max(1) as f64,
        }
    }
}

/// The number of `f32` values between `a` and `b` (0 for equal bits; finite operands).
pub(super) fn ulp_distance(a: f32, b: f32) -> f64 {
    // Map the bits to a line on which consecutive floats are consecutive integers.
    let line = |x: f32| {
        let b = x.to_bits() as i64;
        if b & 0x8000_0000 != 0 {
            -(b & 0x7fff_ffff)
        } else {
            b
        }
    };
    (line(a) - line(b)).abs() as f64
}

/// One order's results under the model: the distance of the GPU factors from the CPU's IEEE
/// `f32` loop, for the whole model and for each model of [`Arith2005::ABLATION`].
#[derive(Clone, Debug)]
pub(super) struct ModelRow {
    pub n: u32,
    pub all: Distance,
    pub ablation: [Distance; 3],
    /// Whether every GPU factorization of the order equalled its CPU twin's bits.
    pub twin: bool,
}

/// What finding 4's second verdict reads: the rows, and the first order at which the emulated
/// GPU and the CPU's IEEE loop differ (scanned as §5.1's, per model: whole, then ablation).
#[derive(Clone, Debug)]
pub(super) struct ModelResults {
    pub rows: Vec<ModelRow>,
    pub first_diff: [Option<usize>; 4],
}

/// The GPU factors of `a` with configuration `(v, m)` under `arith`.
fn gpu(
    s: &Session,
    a: &[f32],
    n: usize,
    v: Variant,
    m: PingPongMethod,
    arith: Arith2005,
) -> Result<Vec<f32>, LuError> {
    let mut p = Params::new(v, m);
    p.arith = arith;
    let mut lu = FragmentLu::new(&s.gl, a, n, p)?;
    lu.run()?;
    lu.factors()
}

/// The CPU twin's factors of `a` under `arith`.
fn twin(a: &[f32], n: usize, arith: Arith2005) -> Result<Vec<f32>, LuError> {
    twin_form(a, n, arith, Update::Stored)
}

/// The CPU twin's factors of `a` under `arith` with the update `form`.
fn twin_form(a: &[f32], n: usize, arith: Arith2005, form: Update) -> Result<Vec<f32>, LuError> {
    let mut c = a.to_vec();
    lu_f32_twin(&mut c, n, arith, form)?;
    Ok(c)
}

pub(super) fn run(s: &Session, cfg: &Config) -> Result<ModelResults, RunError> {
    let sizes = cfg.sec51_2005.sizes.pick(s.mode).clone();
    let abl = Arith2005::ABLATION;
    let mut t = s.table(
        "sec5_1_2005",
        "§5.1 under the 2005 arithmetic model — are I1–I4 bit-identical, how far are emulated GPU factors from the CPU's IEEE f32 loop as N grows, and which operation accounts for it (ablation)",
        columns(),
        &cfg.sec51_2005,
    )?;
    caption(&mut t);
    let mut rows = vec![];
    let models = [Arith2005::ALL, abl[0], abl[1], abl[2]];
    let cap = Some(*cfg.sec51_2005.max_run_s.pick(s.mode));
    // The last order measured and its measurement's milliseconds: the cap's predictor. The
    // first order measured in a process compiles the emulation's programs (seconds on a CPU
    // rasterizer, whatever N): it predicts nothing, and the prediction starts from the second
    // — or from a reused order's rows, which keep their measurement's time (`measured_ms`).
    let mut last: Option<(usize, f64)> = None;
    let mut warm = false;
    for &n in &sizes {
        // `--resume`: an order's four rows come from one measurement, reused together.
        let keys: Vec<String> = models
            .iter()
            .map(|m| format!("N={n} {}", m.name()))
            .collect();
        if let Some(old) = t.reuse_all(&keys)? {
            if let Some(ms) = old.first().and_then(|r| r.measured_ms) {
                last = Some((n as usize, ms));
            }
            rows.extend(reused(&t, &old, n));
            continue;
        }
        if let Some(why) = over_cap(
            "the order's emulated factorizations",
            last,
            n as usize,
            cap,
            3,
        ) {
            let row = t.row(format!("N={n}")).num("N", n as f64);
            t.push(row.skip(why))?;
            continue;
        }
        let r = reference(cfg, n)?;
        let started = std::time::Instant::now();
        let measured = measure(s, &r, n as usize);
        let ms = warm.then(|| started.elapsed().as_secs_f64() * 1e3);
        if let Some(ms) = ms {
            last = Some((n as usize, ms));
        }
        warm = true;
        let (identical, models) = match measured {
            Ok(x) => x,
            Err(e) => {
                let row = t.row(format!("N={n}")).num("N", n as f64);
                t.push(row.fail(format!("under the model: {e}")))?;
                continue;
            }
        };
        rows.push(push_rows(&mut t, n, &r, identical, &models, ms)?);
    }
    t.finish()?;
    let mut first_diff = [None; 4];
    for (f, m) in first_diff.iter_mut().zip(models) {
        *f = first_difference(s, cfg, m).map_err(RunError::algorithm)?;
    }
    notes(s, cfg, &models, &first_diff, &rows);
    Ok(ModelResults { rows, first_diff })
}

fn columns() -> Vec<Column> {
    vec![
        Column::key("N").int(),
        Column::key("emulated").text(),
        Column::ours("8 configs = their twins (bits)").text(),
        Column::ours("GPU = CPU twin (bits)").text(),
        Column::ours("vs CPU f32 (normwise)").sci(2),
        Column::ours("vs CPU f32 (mean ULP)").fixed(3),
        Column::ours("entries ≠ CPU f32").fixed(3),
        Column::ours("GPU vs f64").sci(2),
        Column::ours("CPU f32 vs f64").sci(2),
    ]
}

fn caption(t: &mut TableWriter) {
    t.caption(format!(
        "'emulated': which operations of the elimination go through glsl/common/arith2005.glsl (ARITH_2005 = {} for all; the model and where it is a guess: src/papers/lu/arith2005.rs, Table 5's 'emulated 2005' columns), the others IEEE. 'all': {} + copy; '8 configs = their twins': I1, I3, I4 under both methods bit-identical to it, and I2 under both methods (A_ik·A_ji/A_ii, Fig. 4's order) bit-identical to its own CPU twin; 'only X' (the ablation): {} + copy. Every row's check: the GPU factors equal the CPU twin's (the same loop under the same model) bit for bit, so the difference is the arithmetic and nothing else. vs CPU f32: the distance from the CPU's IEEE f32 loop — normwise (max |x − y| / max |y| over the packed factors, as §5.1's table) and the mean distance in ULP per entry; 'entries ≠': the share of entries whose bits differ.",
        Arith2005::ALL.bits(),
        Variant::I1,
        ABLATION_VARIANT,
    ));
}

/// Size `n`'s model row from its four reused rows (`None` where one lacks a cell).
fn reused(t: &TableWriter, old: &[Row], n: u32) -> Option<ModelRow> {
    let dist = |row| {
        Some(Distance {
            normwise: t.value(row, "vs CPU f32 (normwise)")?,
            mean_ulps: t.value(row, "vs CPU f32 (mean ULP)")?,
            differing: t.value(row, "entries ≠ CPU f32")?,
        })
    };
    let d: Option<Vec<Distance>> = old.iter().map(dist).collect();
    let d = d.filter(|d| d.len() == 4)?;
    Some(ModelRow {
        n,
        all: d[0],
        ablation: [d[1], d[2], d[3]],
        twin: old
            .iter()
            .all(|row| t.text(row, "GPU = CPU twin (bits)") == Some("yes")),
    })
}

/// A model, the GPU's factors under it and the CPU twin's.
type Factors = (Arith2005, Vec<f32>, Vec<f32>);

/// The factors of the eight configurations under the whole model (and whether they are
/// bit-identical), then the ablation's, each with its CPU twin's under the same model.
fn measure(s: &Session, r: &Reference, nn: usize) -> Result<(bool, Vec<Factors>), LuError> {
    let mut all = vec![];
    let printed = twin_form(&r.a, nn, Arith2005::ALL, Update::Printed)?;
    let mut identical = true;
    for (v, m) in configs() {
        let f = gpu(s, &r.a, nn, v, m, Arith2005::ALL)?;
        if v == Variant::I2 {
            // I2 as Fig. 4 prints it: its own twin (issue 38).
            identical &= bit_identical(&f, &printed);
        } else {
            all.push(f);
        }
    }
    identical &= all.iter().all(|f| bit_identical(f, &all[0]));
    let mut models = vec![(Arith2005::ALL, all.swap_remove(0))];
    for m in Arith2005::ABLATION {
        models.push((
            m,
            gpu(s, &r.a, nn, ABLATION_VARIANT, PingPongMethod::Copy, m)?,
        ));
    }
    let mut out = vec![];
    for (m, f) in models {
        let tw = twin(&r.a, nn, m)?;
        out.push((m, f, tw));
    }
    Ok((identical, out))
}

/// Size `n`'s four rows (each checked: the GPU equals the CPU twin bit for bit) and its
/// model row.
fn push_rows(
    t: &mut TableWriter,
    n: u32,
    r: &Reference,
    identical: bool,
    models: &[Factors],
    measured_ms: Option<f64>,
) -> Result<ModelRow, RunError> {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut d = vec![];
    let mut twin_all = true;
    for (m, f, tw) in models {
        let same = bit_identical(f, tw);
        twin_all &= same;
        let dist = Distance::of(f, &r.cpu_f32);
        d.push(dist);
        let tw64: Vec<f64> = tw.iter().map(|&x| x as f64).collect();
        let row = t
            .row(format!("N={n} {}", m.name()))
            .num("N", n as f64)
            .text("emulated", m.name())
            .text(
                "8 configs = their twins (bits)",
                if *m == Arith2005::ALL {
                    yes_no(identical)
                } else {
                    "—"
                },
            )
            .text("GPU = CPU twin (bits)", yes_no(same))
            .num("vs CPU f32 (normwise)", dist.normwise)
            .num("vs CPU f32 (mean ULP)", dist.mean_ulps)
            .num("entries ≠ CPU f32", dist.differing)
            .num("GPU vs f64", max_rel_error(f, &r.f64))
            .num("CPU f32 vs f64", max_rel_error(&r.cpu_f32, &r.f64));
        let row = match measured_ms {
            Some(ms) => row.measured_ms(ms),
            None => row,
        };
        // The check: the GPU equals the CPU twin bit for bit (difference 0).
        t.push(row.verify(max_rel_error(f, &tw64), 0.0))?;
    }
    Ok(ModelRow {
        n,
        all: d[0],
        ablation: [d[1], d[2], d[3]],
        twin: twin_all,
    })
}

/// Where the GPU and the CPU first differ under each model, and how the distance grows with N.
fn notes(
    s: &Session,
    cfg: &Config,
    models: &[Arith2005; 4],
    first_diff: &[Option<usize>; 4],
    rows: &[ModelRow],
) {
    let scan = cfg.sec51.scan;
    let text: Vec<String> = models
        .iter()
        .zip(first_diff)
        .map(|(m, f)| match f {
            Some(k) => format!("{}: N = {k}", m.name()),
            None => format!("{}: none up to {scan}", m.name()),
        })
        .collect();
    s.note(format!(
        "§5.1 under the 2005 arithmetic model: GPU (I1 switch) and CPU (the same loop in IEEE f32) factors first differ at — {} (scanned N = 1 … {scan}; the paper: never equal for N > {}).",
        text.join("; "),
        cfg.sec51.paper_equal_up_to
    ));
    if let (Some(a), Some(b)) = (rows.first(), rows.last())
        && rows.len() > 1
    {
        s.note(format!(
                "§5.1 under the model: the emulated GPU factors' normwise difference from the CPU's IEEE f32 loop grows from {:.2e} at N = {} to {:.2e} at N = {} ({:.1}× for {:.0}× the order); the mean per entry from {:.2} to {:.2} ULP.",
                a.all.normwise,
                a.n,
                b.all.normwise,
                b.n,
                b.all.normwise / a.all.normwise,
                b.n as f64 / a.n as f64,
                a.all.mean_ulps,
                b.all.mean_ulps
            ));
    }
}

/// The first N in `1 ..= scan` at which the GPU (I1 switch) under `arith` and the CPU's IEEE
/// `f32` loop differ (the matrices of §5.1's own scan).
fn first_difference(s: &Session, cfg: &Config, arith: Arith2005) -> Result<Option<usize>, LuError> {
    for n in 1..=cfg.sec51.scan {
        let a = diag_dominant(n, cfg.sec51.seed + n as u64);
        let mut c = a.clone();
        lu_f32(&mut c, n)?;
        let g = gpu(s, &a, n, Variant::I1, PingPongMethod::Switch, arith)?;
        if !bit_identical(&g, &c) {
            return Ok(Some(n));
        }
    }
    Ok(None)
}
