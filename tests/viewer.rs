//! The live viewer's GPU parts, headless: the automatic colour range's reduction against a
//! full readback, the split view's snapshot/restore (a second simulation goes on exactly as
//! the first), and its difference between CR and Thomas (float rounding). The window itself
//! is checked by `scripts/window-smoke.sh` under Xvfb.

mod common;

use gpgpu_repro::papers::tridiagonal::adi::solver::SOLVERS;
use gpgpu_repro::papers::tridiagonal::adi::{
    AdiSpec, HEAT, POLLUTANT_STREAM, POLLUTANT_VORTEX, SHALLOW_WATER,
};
use gpgpu_repro::sim::render::Renderer;
use gpgpu_repro::sim::split::{Split, max_abs_diff};

#[test]
fn min_max_reduction_equals_the_fields_range() {
    let g = common::ctx();
    // 100 unknowns per line: blocks of 4 × 4 for the 32 × 32 target, the last ones short.
    let spec = &POLLUTANT_VORTEX;
    let mut sim = (spec.make)(&g, 100, "cr").unwrap();
    for _ in 0..30 {
        sim.step().unwrap();
    }
    sim.disturb([20.0, 70.0]).unwrap();
    // A transposed state (after a y sweep of a solver's output) and the grid both read.
    let mut r = Renderer::new(&g).unwrap();
    for _ in 0..2 {
        let f = sim.read().unwrap();
        let lo = f.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = f.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert!(hi > lo, "a field with something in it");
        assert_eq!(r.min_max(sim.as_ref()).unwrap(), Some((lo, hi)));
        sim.step().unwrap();
    }
}

#[test]
fn restored_snapshot_goes_on_as_the_original() {
    let g = common::ctx();
    // Shallow water keeps the previous state, and its step count matters to the source of
    // the pollutant: both travel in the snapshot.
    for spec in [&SHALLOW_WATER, &POLLUTANT_STREAM] {
        let name = spec.name;
        let mut a = (spec.make)(&g, 31, "cr").unwrap();
        for _ in 0..7 {
            a.step().unwrap();
        }
        let mut b = (spec.make)(&g, 31, "cr").unwrap();
        b.restore(&a.snapshot().unwrap()).unwrap();
        assert_eq!(b.steps(), 7);
        for _ in 0..5 {
            a.step().unwrap();
            b.step().unwrap();
        }
        assert_eq!(a.read().unwrap(), b.read().unwrap(), "{name}");
        // A snapshot of another grid is refused, not applied.
        let c = (spec.make)(&g, 15, "cr").unwrap();
        assert!(b.restore(&c.snapshot().unwrap()).is_err());
    }
}

#[test]
fn split_view_cr_and_thomas_agree_to_rounding() {
    let g = common::ctx();
    let spec: &AdiSpec = &HEAT;
    let mut first = (spec.make)(&g, 63, "cr").unwrap();
    for _ in 0..5 {
        first.step().unwrap();
    }
    let mut split = Split::new(first.as_ref(), spec.make, &SOLVERS).unwrap();
    assert_eq!(split.other.solver_name(), "thomas");
    for _ in 0..20 {
        split.step(first.as_mut()).unwrap();
    }
    split.measure(first.as_ref()).unwrap();
    let (a, b) = (first.read().unwrap(), split.other.read().unwrap());
    let d = split.diff.unwrap();
    assert_eq!(Some(d), max_abs_diff(&a, &b));
    let scale = a.iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!(
        d <= 1e-4 * scale,
        "max difference {d} for values up to {scale}"
    );
    assert!(split.rates.iter().all(|&r| r > 0.0), "{:?}", split.rates);
    assert!(
        split
            .footer(first.as_ref())
            .starts_with("max |cr − thomas| = ")
    );
}
