//! The `stability` table: simulation 2's ADI scheme (eq. 8) in the rotating flow at time
//! steps far above the explicit limit, on the CPU f64 twin; and the simulations' reproduction
//! notes (grid convention, fused transposition, our parameters, stability, Kass & Miller's
//! matrix).

use crate::report::table::Column;
use crate::runner::{RunError, Session};

use super::config::Stability;
use crate::papers::tridiagonal::adi::pollutant::{Flow, PollutantParams};
use crate::papers::tridiagonal::adi::scheme::AdiCpu;

/// max |C| after `steps` steps of the rotating-flow scheme at Δt = `mult` × the explicit
/// limit, from a unit Gaussian, on the CPU twin; and ω Δt (radians per step).
fn stability(st: &Stability, mult: f64) -> Result<(f64, f64), RunError> {
    let mut p = PollutantParams::vortex_ours(st.n);
    p.source = None;
    p.flow = Flow::Vortex(st.omega as f32);
    p.diffusion = st.diffusion as f32;
    p.dt = (mult * p.explicit_limit()) as f32;
    let n = st.n as usize;
    let (c, sigma) = (0.3 * st.n as f64, 0.06 * st.n as f64);
    p.initial = Some(
        (0..n * n)
            .map(|k| {
                let (x, y) = ((k % n) as f64 + 0.5 - c, (k / n) as f64 + 0.5 - c);
                (-(x * x + y * y) / (2.0 * sigma * sigma)).exp() as f32
            })
            .collect(),
    );
    let turn = st.omega * p.dt as f64;
    let u = AdiCpu::run(p, st.steps).map_err(RunError::algorithm)?;
    let max = u.iter().fold(0.0f64, |m, v| {
        if v.is_finite() {
            m.max(v.abs())
        } else {
            f64::INFINITY
        }
    });
    Ok((max, turn))
}

/// Simulation 2's stability in the rotating flow: max |C| after a few steps of the CPU f64
/// twin at multiples of the explicit time-step limit (a property of the scheme, measured on
/// the CPU; nothing to verify against).
pub(super) fn table(s: &Session, st: &Stability) -> Result<(), RunError> {
    if !s.runs("stability") {
        return Ok(());
    }
    let mut t = s.table(
        "stability",
        "Simulation 2 (eq. 8): the ADI scheme in the rotating flow, CPU f64 twin",
        vec![
            Column::key("× explicit limit").fixed(1),
            Column::ours("ω Δt").unit("rad/step").fixed(2),
            Column::ours("max |C|").sci(3),
            Column::ours("grows").text(),
        ],
        st,
    )?;
    t.caption(format!(
        "{n}² grid, ω = {w}, D = {d}, a unit Gaussian, {k} steps; max |C| > 1 means growth.",
        n = st.n,
        w = st.omega,
        d = st.diffusion,
        k = st.steps,
    ));
    for &m in &st.multiples {
        let key = format!("{m}");
        if t.reuse(&key)?.is_some() {
            continue;
        }
        let (max, turn) = stability(st, m)?;
        t.push(
            t.row(key)
                .num("× explicit limit", m)
                .num("ω Δt", turn)
                .num("max |C|", max)
                .text("grows", if max > 1.0 { "yes" } else { "no" })
                .unchecked("a property of the scheme, measured on its CPU f64 twin"),
        )?;
    }
    t.finish()?;
    Ok(())
}

pub(super) fn notes(s: &Session, st: &Stability) -> Result<(), RunError> {
    s.note(
        "Simulations: `--size` and the tables count the grid as the paper does for CR (§3.1): \
         its \"1024×1024\" is N' = 1024 points per line, N = N' - 1 unknowns between the two \
         boundary values; the tables' N is the unknowns per line (2^q - 1, unpadded for \
         fragment CR, which pads other sizes to 2^q - 1 with identity rows).",
    );
    s.note(
        "Simulations: the transposition between the x and y half-steps is fused into the next \
         build pass, which reads the previous solution with swapped coordinates; the state stays \
         in the solver's output texture between steps (read in place, no copy) and is never \
         read back (only for frames and checks).",
    );
    s.note(
        "Simulation parameters the paper does not give are ours: Δt, the diffusivities c and \
         D, the velocities and ω, g, τ, the bottom's shape, the sources' and the push's \
         positions, sizes, rates and durations (src/papers/tridiagonal/adi/ \
         heat.rs, pollutant.rs, shallow_water.rs, `*_ours`).",
    );
    s.note(format!(
        "Simulation 2 (eq. 8): with a constant velocity the upwind-implicit/central-explicit \
         ADI stays bounded far above the explicit time-step limit (tests/sims.rs), as the \
         paper says. In the rotating flow the x and y operators do not commute: table \
         `stability` runs the CPU f64 twin ({n}², ω = {w}, D = {d}, a unit Gaussian, {k} \
         steps) at multiples of the explicit limit; a maximum above 1 means growth, so \
         \"unconditionally stable\" holds for constant coefficients only where it does. The \
         scheme is not positivity-preserving at large Δt either (the explicit central half \
         undershoots where the cell Péclet number exceeds 2).",
        n = st.n,
        w = st.omega,
        d = st.diffusion,
        k = st.steps,
    ));
    s.note(
        "Simulation 3: e_i = 1 + gΔt²(d_{i-1} + 2d_i + d_{i+1})/(2Δh²), with the factor 2 on \
         d_i that the seed's rendering lost: Kass & Miller's matrix has rows that sum to one \
         (a flat surface stays flat, volume is conserved; tests/sims.rs checks both). The \
         depth comes from h^{n-1} in both sweeps; the diagonal disturbance is a moving \
         Gaussian depression imposed as a displacement (second difference in time), so it \
         adds no net volume.",
    );
    Ok(())
}
