//! The BioFET double layer (§V.1, eqs. 6–7; [`crate::papers::bicg::biofet`]): the ion
//! simulation run to its steady state with the GL fp64 Bi-CG solving Poisson every step,
//! checked against the linear Debye–Hückel profile, the fitted screening length (1 λ_D) and
//! the conservation of ions, each within the tolerance of
//! [`crate::papers::bicg::biofet::Tolerances`] (FAILED otherwise). The paper shows the
//! double layer forming but prints no number for it.

use super::config::Config;
use crate::papers::bicg::biofet::{
    BiofetOutput, BiofetParams, BiofetReport, FIT_SPAN, Tolerances, simulate,
};
use crate::report::Column;
use crate::runner::{RunError, Session, TableWriter};

const PLOTS: [(&str, &str); 4] = [
    (
        "biofet_double_layer.png",
        "BioFET: potential along the axis after the step, forming the double layer, against \
         the linear Debye–Hückel steady state.",
    ),
    (
        "biofet_ions.png",
        "BioFET: ion densities at the steady state, cations against the Boltzmann factor of \
         the computed potential.",
    ),
    (
        "biofet_potential_slice.png",
        "BioFET: the potential ψ at the end of the run on the y–z plane through the middle of \
         x, z (electrode to electrode) across and y up in Debye lengths λ_D, one square cell \
         per mesh node; colour bar in mV (ψ = (kT/q)·ψ̂ at 300 K), from 0 (blue, grounded \
         electrode) to the step V (red, driven electrode).",
    ),
    (
        "biofet_charge_slice.png",
        "BioFET: the space charge ρ = q(n⁺ − n⁻) at the end of the run on the same plane and \
         axes; colour bar in units of q·c₀ (c₀ the bulk concentration of each ion species, so \
         the value is n̂⁺ − n̂⁻), symmetric about 0 (white): blue negative (anions gathered at \
         the driven electrode), red positive.",
    ),
];

/// The rows that say what the simulation took (unchecked).
const RUN_FACTS: [&str; 5] = [
    "Steps",
    "Simulated time (λ_D²/D)",
    "Bi-CG iterations in all",
    "Bi-CG iterations per step",
    "Wall time (s)",
];

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let params = cfg.biofet_params(*cfg.biofet.nodes.pick(s.mode));
    let tol = Tolerances::default();
    let mut t = table(s, cfg, &params, &tol)?;
    // One simulation fills the three rows: with `--resume` they are reused together (its
    // figures stay those of the run that measured them) or measured together.
    let keys: Vec<String> = [
        "Debye–Hückel agreement",
        "Fitted screening length",
        "Ion conservation",
    ]
    .into_iter()
    .chain(RUN_FACTS)
    .map(String::from)
    .collect();
    if t.reuse_all(&keys)?.is_none() {
        s.check_interrupt()?;
        t.start("simulation");
        let out = BiofetOutput {
            figures: Some(s.dir().to_path_buf()),
            frames: None,
        };
        let report = simulate(&s.gl, &params, &out).map_err(RunError::algorithm)?;
        rows(&mut t, &report, &tol)?;
    }
    t.finish()?;
    for (file, caption) in PLOTS {
        if s.dir().join(file).exists() {
            s.add_plot(file, caption);
        }
    }
    Ok(())
}

/// The table and its caption.
fn table(
    s: &Session,
    cfg: &Config,
    params: &BiofetParams,
    tol: &Tolerances,
) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "biofet",
        "BioFET double layer — steady state against Debye–Hückel (GL fp64 Bi-CG per step)",
        vec![
            Column::key("Check").text(),
            Column::ours("Measured").sci(3),
            Column::ours("Expected").sci(1),
        ],
        &(&cfg.biofet, format!("{tol:?}")),
    )?;
    t.expect_rows(3 + RUN_FACTS.len());
    t.caption(format!(
        "{}. Debye–Hückel agreement: max |ψ̂ − ψ̂_DH| / V̂ along the axis; screening length: \
         −1 / slope of ln(ψ̂ − ψ̂_mid) within {FIT_SPAN} λ_D of the driven electrode, in λ_D; ion \
         conservation: relative change of Σ n̂±. Verified: the deviation from the expected \
         value against the tolerance.",
        params.describe()
    ));
    Ok(t)
}

/// The rows of one simulation: its checks (verified where it reached the steady state) and
/// what it took (unchecked).
fn rows(t: &mut TableWriter, report: &BiofetReport, tol: &Tolerances) -> Result<(), RunError> {
    for c in report.checks(tol) {
        let row = t
            .row(c.name)
            .text("Check", c.name)
            .num("Measured", c.measured)
            .num("Expected", c.expected)
            .runs(1);
        t.push(if report.steady {
            row.verify(c.deviation, c.tolerance)
        } else {
            row.fail(format!(
                "no steady state within {} steps (max |dn/dt| = {:.2e})",
                report.steps, report.rate
            ))
        })?;
    }
    // What the run took, as rows (so that a resumed run keeps them too).
    let state = if report.steady {
        "the run reached the steady state"
    } else {
        "the run stopped at the step cap"
    };
    for (name, v) in [
        (RUN_FACTS[0], report.steps as f64),
        (RUN_FACTS[1], report.time),
        (RUN_FACTS[2], report.poisson_iterations as f64),
        (
            RUN_FACTS[3],
            report.poisson_iterations as f64 / (report.steps + 1) as f64,
        ),
        (RUN_FACTS[4], report.seconds),
    ] {
        t.push(
            t.row(name)
                .text("Check", name)
                .num("Measured", v)
                .runs(1)
                .unchecked(format!("what the simulation took; {state}")),
        )?;
    }
    Ok(())
}
