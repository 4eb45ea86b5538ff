//! Helpers shared by the integration tests: `mod common;` at the top of a test file.
//!
//! Each test binary uses a subset of them.
#![allow(dead_code)]

use gpgpu_repro::gl::{self, DeviceSelector, Gl, Need};
use gpgpu_repro::registry::PAPERS;

/// A context on the default device (Mesa llvmpipe in CI), current on this test's thread,
/// with GL error checks in any build (a release build has them off by default).
pub fn ctx() -> Gl {
    let g = gl::headless(&DeviceSelector::Auto)
        .expect("a headless GL 3.3+ core context (Mesa llvmpipe)");
    g.enable_checks();
    g
}

/// A context that has every one of `needs`, or `None` after printing why `test` is skipped
/// (e.g. compute tests under `GALLIUM_DRIVER=softpipe`, a GL 3.3 driver).
pub fn ctx_with(test: &str, needs: &[Need]) -> Option<Gl> {
    let g = ctx();
    match g.caps().lacks(needs) {
        None => Some(g),
        Some(why) => {
            println!("skipped {test}: {why}");
            None
        }
    }
}

/// The threads of this process, from `/proc/self/status` (0 where there is no `/proc`).
pub fn thread_count() -> usize {
    status_field("Threads:")
}

/// The resident memory of this process in KiB, from `/proc/self/status`.
pub fn rss_kib() -> usize {
    status_field("VmRSS:")
}

fn status_field(key: &str) -> usize {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// What a test paper (a registry entry made up by a test) says of its original: nothing.
pub const TEST_ORIGINAL: gpgpu_repro::report::article::Original =
    gpgpu_repro::report::article::Original {
        citation: "a test paper",
        setup: "none",
        here: "none",
        omitted: &[],
        claims: &[],
    };

/// Factors `a` (order `n`) on the GPU with `p` (its `arith` the 2005 model or part of it) and
/// asserts that they equal the CPU twin's under the same model bit for bit; returns them.
pub fn lu_equals_its_2005_twin(
    g: &Gl,
    a: &[f32],
    n: usize,
    p: gpgpu_repro::papers::lu::Params,
) -> Vec<f32> {
    let mut lu = gpgpu_repro::papers::lu::FragmentLu::new(g, a, n, p).unwrap();
    lu.run().unwrap();
    let got = lu.factors().unwrap();
    let mut twin = a.to_vec();
    gpgpu_repro::papers::lu::cpu::lu_f32_twin(&mut twin, n, p.arith, p.update()).unwrap();
    let differ = got
        .iter()
        .zip(&twin)
        .filter(|(x, y)| x.to_bits() != y.to_bits())
        .count();
    assert_eq!(
        differ,
        0,
        "N={n} {:?} {:?} {}: {differ} entries differ from the CPU twin",
        p.variant,
        p.method,
        p.arith.name()
    );
    got
}

/// A copy of every built-in experiment file in a temp folder (`--experiments DIR`).
pub fn experiments_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for p in PAPERS {
        for f in p.files {
            std::fs::write(dir.path().join(format!("{}.toml", f.name)), f.builtin).unwrap();
        }
    }
    dir
}

/// [`experiments_copy`] with `edits` made: per file name (`matmul`), dotted keys and their new
/// values (TOML text, see [`set_key`]).
pub fn experiments_with(edits: &[(&str, &[(&str, &str)])]) -> tempfile::TempDir {
    let dir = experiments_copy();
    for (file, keys) in edits {
        let path = dir.path().join(format!("{file}.toml"));
        let mut text = std::fs::read_to_string(&path).unwrap();
        for (key, value) in *keys {
            text = set_key(&text, key, value);
        }
        std::fs::write(&path, text).unwrap();
    }
    dir
}

/// Bench settings of small sizes: one pass, one timed run of each kernel, no time limit (the
/// sweep's sizes are what the tests check).
pub fn tiny_bench() -> gpgpu_repro::bench::Settings {
    use gpgpu_repro::gl::timing::TimingPlan;
    use std::time::Duration;
    gpgpu_repro::bench::Settings {
        mode: gpgpu_repro::Mode::Quick,
        sweep_from: 16 << 10,
        buffer_bytes: 64 << 10,
        sweep_cap: 256 << 10,
        fma_threads: 4096,
        fixed_ops: 4,
        fixed_timing: TimingPlan::new(0, 1, Duration::ZERO),
        min_run_ms: 0.0,
        timing: TimingPlan::new(0, 1, Duration::ZERO),
        passes: 1,
        budget: Duration::from_secs(600),
        software_budget: Duration::from_secs(600),
        software_cap: 256 << 10,
        warm_cap: Duration::ZERO,
    }
}

/// `text` with the value at the dotted `path` replaced by `value` (parsed as TOML).
pub fn set_key(text: &str, path: &str, value: &str) -> String {
    let mut v: toml::Value = toml::from_str(text).unwrap();
    let new: toml::Table = format!("x = {value}").parse().unwrap();
    let keys: Vec<String> = path.split('.').map(String::from).collect();
    *at_mut(&mut v, &keys) = new.get("x").unwrap().clone();
    toml::to_string(&v).unwrap()
}

/// The value at the dotted `path` (`[i]` indexes an array).
pub fn at_mut<'a>(v: &'a mut toml::Value, path: &[String]) -> &'a mut toml::Value {
    path.iter().fold(v, |v, k| match k.strip_prefix('[') {
        Some(i) => {
            &mut v.as_array_mut().unwrap()[i.trim_end_matches(']').parse::<usize>().unwrap()]
        }
        None => v.as_table_mut().unwrap().get_mut(k).unwrap(),
    })
}
