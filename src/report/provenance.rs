//! Where a set of results came from: date, commit, command, mode, device, CPU, OS.

use serde::{Deserialize, Serialize};

use super::load::RunLoad;
use crate::gl::DeviceInfo;
use crate::mode::Mode;

/// How this binary takes its times: the *Timed* paragraph of the report's *Method*. Each
/// record stores it ([`Provenance::timing`]), so that an older run re-indexed by a newer
/// binary is still described by the rules it ran under.
pub const TIMED: &str = "A timed value is the lower median of its repetitions with a \
         distribution-free 95 % confidence interval from order statistics (Le Boudec 2010; \
         6 runs at least, else the interval is `[min, max]` and marked `*`). Repetitions are \
         adaptive: at least the paper's count (budget allowing; tuning's rounds whatever they \
         take), then more until the interval's half-width is within the experiment file's \
         `ci_target` or its budget ends; the interval then \
         includes the between-run term of the row's limiter, measured by the bench's passes \
         or, where larger, by the drift probes of the run this one replaced and of its start \
         (*Threats*, *Between runs*). Variants compared \
         with each other are timed interleaved (every round runs each once, in a shuffled \
         order), and a ratio is the median of the per-round ratios, with no between-run term \
         (the rounds share their spell). Times are a monotonic \
         clock between two `glFinish()` calls around the paper's timed region, as the papers \
         timed (GL timer queries are not used: llvmpipe's under-report); what each paper's \
         timers include is in its tables' captions. A winner, a target or a verdict \
         is decided only where intervals separate. `bound` / `of bound` read a row against \
         this device's measured roofs (`bench`: bandwidth per access kind from a \
         working-set sweep, FMA throughput, launch cost).";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    pub date: String,
    pub commit: String,
    /// The build that ran: profile and rustc version.
    #[serde(default)]
    pub build: String,
    pub command: String,
    pub mode: Mode,
    pub gl_vendor: String,
    pub gl_renderer: String,
    pub gl_version: String,
    pub egl_device: String,
    pub cpu: String,
    pub os: String,
    /// Wall-clock seconds the paper's experiments took.
    #[serde(default)]
    pub seconds: f64,
    /// The machine's load average (1, 5, 15 min) when the paper's experiments started: on a
    /// shared machine every time is inflated and noisy (llvmpipe's threads share the CPU).
    #[serde(default)]
    pub load: String,
    /// The device limits the bound columns used (from `bench`), in one line.
    #[serde(default)]
    pub limits: String,
    /// The machine's load before and during the paper's run, and the tables measured while
    /// it was noisy ([`super::load`]); `None` in older records and where it was not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<RunLoad>,
    /// The default between-run term, that of timed intervals with no known limiter
    /// ([`crate::stats::between`]); `None` in older records and where the bench gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub between_run: Option<crate::stats::BetweenRun>,
    /// The two pipelines' roofs from the bench ([`DeviceShape`]); `None` in older records
    /// and without a bench.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_shape: Option<DeviceShape>,
    /// The between-run terms per limiter (a row with a bound carries its limiter's); `None`
    /// in older records (one term for every interval) and where the bench gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub between_terms: Option<crate::stats::BetweenTerms>,
    /// How the binary that ran took its times: the report's *Timed* paragraph as that code
    /// wrote it ([`TIMED`]), so a newer binary re-indexing this record describes the rules
    /// it ran under; empty in older records.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub timing: String,
}

/// The shape of the device as the bench measured it: what the legacy (fragment) pipeline
/// reaches against compute, the quantities every legacy-against-compute ratio of the papers
/// is read beside. On a software rasterizer both pipelines run on the same CPU cores; on a
/// GPU they need not (Hopper runs its graphics pipeline on a small part of the chip).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceShape {
    /// `fma.fragment.f32`, GFLOPS.
    pub fragment_fp32_gflops: Option<f64>,
    /// `fma.compute.f32`, GFLOPS.
    pub compute_fp32_gflops: Option<f64>,
    /// The fragment pipeline's best memory roof (texture reads, target writes), GB/s.
    pub fragment_gbs: Option<f64>,
    /// The compute pipeline's best memory roof (SSBO, texture path), GB/s.
    pub compute_gbs: Option<f64>,
}

impl DeviceShape {
    /// fragment / compute fp32 FMA throughput.
    pub fn fma_ratio(&self) -> Option<f64> {
        Some(self.fragment_fp32_gflops? / self.compute_fp32_gflops?)
    }
    /// fragment / compute memory roof.
    pub fn bandwidth_ratio(&self) -> Option<f64> {
        Some(self.fragment_gbs? / self.compute_gbs?)
    }
    /// The sentence (capitalised) the report puts beside legacy-against-compute ratios: each ratio as
    /// `1/k` (or `k×` where fragment is the faster) with the two roofs it comes from; empty
    /// where neither was measured.
    pub fn describe(&self) -> String {
        let part = |r: Option<f64>, what: &str, a: Option<f64>, b: Option<f64>, unit: &str| {
            let (r, a, b) = (r?, a?, b?);
            let rel = if r < 1.0 {
                format!("1/{:.3} of", 1.0 / r)
            } else {
                format!("{r:.3}× of")
            };
            Some(format!(
                "{rel} compute's {what} ({a:.4} against {b:.4} {unit})"
            ))
        };
        let parts: Vec<String> = [
            part(
                self.fma_ratio(),
                "fp32 FMA throughput",
                self.fragment_fp32_gflops,
                self.compute_fp32_gflops,
                "GFLOPS",
            ),
            part(
                self.bandwidth_ratio(),
                "memory bandwidth",
                self.fragment_gbs,
                self.compute_gbs,
                "GB/s",
            ),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            return String::new();
        }
        format!(
            "On this device fragment shaders reach {} (`bench`)",
            parts.join(" and ")
        )
    }
}

impl Provenance {
    /// Provenance of the current process on `info`'s device.
    pub fn now(info: &DeviceInfo, mode: Mode) -> Provenance {
        Provenance {
            date: chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string(),
            commit: git_commit(),
            build: build(),
            command: command_line(),
            mode,
            gl_vendor: info.vendor.clone(),
            gl_renderer: info.renderer.clone(),
            gl_version: info.version.clone(),
            egl_device: info.egl_device.clone().unwrap_or_default(),
            cpu: info.cpu.clone(),
            os: info.os.clone(),
            seconds: 0.0,
            limits: String::new(),
            load: String::new(),
            machine: None,
            between_run: None,
            device_shape: None,
            between_terms: None,
            timing: TIMED.into(),
        }
    }

    /// Markdown bullet list; with `seconds`, the paper's own run time (`seconds` is one
    /// paper's: a report of several states the whole command's from `run.json`).
    pub fn to_markdown(&self, seconds: bool) -> String {
        format!(
            "- date: {}\n- commit: `{}`\n- build: {}\n- command: `{}`\n- mode: {}\n- GL: {} / {} / {}\n\
             - EGL device: {}\n- CPU: {}\n- OS: {}\n{}{}{}{}",
            self.date,
            self.commit,
            self.build,
            self.command,
            self.mode,
            self.gl_vendor,
            self.gl_renderer,
            self.gl_version,
            self.egl_device,
            self.cpu,
            self.os,
            match (seconds, self.load.is_empty()) {
                (false, _) => String::new(),
                (true, true) => format!("- this paper's run time: {:.0} s\n", self.seconds),
                (true, false) => format!(
                    "- this paper's run time: {:.0} s (load average at its start: {})\n",
                    self.seconds, self.load
                ),
            },
            if self.limits.is_empty() {
                String::new()
            } else {
                format!("- device limits: {}\n", self.limits)
            },
            match &self.machine {
                Some(m) => format!("- machine: {}\n", m.describe()),
                None => String::new(),
            },
            match (&self.between_terms, &self.between_run) {
                (Some(t), _) => format!(
                    "- intervals: a bounded row's interval includes its limiter's between-run \
                     term, any other timed interval the default; paired ratios of variants \
                     timed in the same rounds include none. The {}\n",
                    t.describe()
                ),
                (None, Some(b)) => format!(
                    "- intervals: every timed interval includes the {}\n",
                    b.describe()
                ),
                (None, None) => String::new(),
            }
        )
    }
}

/// The build that ran, and what changed its shaders: the inexact-division test switch, and
/// edited shader files given at run time (`GPGPU_REPRO_GLSL`).
fn build() -> String {
    let mut parts = vec![env!("GPGPU_REPRO_BUILD").to_string()];
    if crate::gl::program::inexact_division() {
        parts.push(format!(
            "with {} set: every device division in the shaders was a deliberately inexact one \
             (a test switch: the results are not this device's)",
            crate::gl::program::INEXACT_DIV_DEFINE
        ));
    }
    parts.push(crate::gl::program::overrides::describe());
    parts.retain(|p| !p.is_empty());
    parts.join("; ")
}

/// The commit this binary was built from, as `build.rs` read it (`+dirty` where the sources
/// differed from it); empty where the build was not made in a git checkout.
pub const BUILD_COMMIT: &str = env!("GPGPU_REPRO_BUILD_COMMIT");

/// The commit whose code this run is: the one the binary was built from ([`BUILD_COMMIT`],
/// `+dirty` where its sources differed from that commit). The shaders and the experiment files
/// are built into the binary, so a checkout edited after the build does not change what ran,
/// and a clean build run in a checkout that has changed since is still that clean commit.
/// Where the binary was built from another commit than the checkout's, the checkout is named
/// beside it; where it was built outside a checkout, the checkout's state (`+dirty` for
/// changes outside `figures/`) is all there is. `GPGPU_REPRO_COMMIT` overrides all of it, and
/// the reports then say it was given, not read.
pub fn git_commit() -> String {
    if let Ok(c) = std::env::var("GPGPU_REPRO_COMMIT")
        && !c.trim().is_empty()
    {
        return format!("{} (given in GPGPU_REPRO_COMMIT)", c.trim());
    }
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let checkout = run(&["rev-parse", "--short=12", "HEAD"]).map(|c| {
        // Changes under figures/ are results (a run writing into the checkout), not
        // code: they do not make the commit that produced them dirty.
        let dirty = run(&[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ":/",
            ":(top,exclude)figures",
        ])
        .is_some_and(|s| !s.is_empty());
        (c, dirty)
    });
    describe_commit(
        checkout.as_ref().map(|(c, d)| (c.as_str(), *d)),
        BUILD_COMMIT,
    )
}

/// [`git_commit`]'s rule, given the checkout (its commit and whether it has changes outside
/// `figures/`; `None` outside a checkout) and the commit recorded in the binary (`""` where
/// the build was not made in a checkout).
fn describe_commit(checkout: Option<(&str, bool)>, built: &str) -> String {
    let mark = |c: &str, dirty: bool| {
        if dirty {
            format!("{c}+dirty")
        } else {
            c.to_string()
        }
    };
    match checkout {
        Some((c, dirty)) if built.is_empty() => mark(c, dirty),
        Some((c, _)) if built.trim_end_matches("+dirty") == c => built.to_string(),
        Some((c, dirty)) => format!("{} (binary built from {built})", mark(c, dirty)),
        None if !built.is_empty() => {
            format!("{built} (recorded in the binary; not run in a git checkout)")
        }
        None => "unknown (not a git checkout, and the binary was not built in one)".into(),
    }
}

/// The load average (1, 5, 15 min) now, e.g. `0.52, 0.61, 0.70`; empty where the OS has no
/// `/proc/loadavg`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(", "))
        .unwrap_or_default()
}

/// The command line as typed (program name reduced to `gpgpu-repro`).
pub fn command_line() -> String {
    let mut args: Vec<String> = std::env::args().collect();
    if let Some(first) = args.first_mut() {
        *first = "gpgpu-repro".into();
    }
    args.join(" ")
}

#[cfg(test)]
mod tests {
    use super::describe_commit;

    #[test]
    fn the_commit_is_the_binarys_whatever_the_checkout_became_after_the_build() {
        // Built clean from the checkout's commit, the checkout edited since: what ran is clean.
        assert_eq!(describe_commit(Some(("abc", true)), "abc"), "abc");
        // Built from edited sources, the edits undone since: what ran was not the commit.
        assert_eq!(
            describe_commit(Some(("abc", false)), "abc+dirty"),
            "abc+dirty"
        );
        assert_eq!(describe_commit(Some(("abc", false)), "abc"), "abc");
        // Built from another commit: both named.
        assert_eq!(
            describe_commit(Some(("def", true)), "abc"),
            "def+dirty (binary built from abc)"
        );
        // No build record: the checkout is all there is.
        assert_eq!(describe_commit(Some(("abc", true)), ""), "abc+dirty");
        assert_eq!(
            describe_commit(None, "abc"),
            "abc (recorded in the binary; not run in a git checkout)"
        );
        assert!(describe_commit(None, "").starts_with("unknown"));
    }
}
