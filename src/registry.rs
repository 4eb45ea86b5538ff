//! The registry: every paper and every simulation, the one table that the command line and
//! the runner share (wgpu's examples table; ripgrep's flags table).
//!
//! It sits on top of the library: it imports the papers, and through them their
//! simulations (the tridiagonal paper's ADI simulations, bicg's BioFET), listed once in
//! [`SIMS`]. Nothing below imports it: the runner is handed [`PAPERS`], the papers never see
//! it.
//!
//! Adding a paper = a folder under `src/papers/<paper>/` whose `experiments` module has a
//! type implementing [`crate::runner::Paper`] (its `Config` implements
//! [`crate::runner::Experiments`]), `experiments/<paper>.toml`, and one entry here: its file
//! as `ExperimentFile::of::<<P as Paper>::Config>` and its run as `run_paper::<P>` (for a paper
//! with one file, one `one_file_paper!` line).

use crate::papers::tridiagonal::adi::{self as adi, AdiSpec, solver};
use crate::papers::tridiagonal::experiments::sims;
use crate::papers::{bicg, fem_storage, lu, matmul, tridiagonal};
use crate::runner::{ExperimentFile, Paper, PaperEntry, run_paper};

pub static TRIDIAGONAL: PaperEntry = PaperEntry {
    key: "tridiagonal",
    title: "Kim & Lee 2005 — Fast GPU Implementation for the Solution of Tridiagonal Matrix Systems",
    files: &[
        ExperimentFile::of::<<tridiagonal::experiments::Tridiagonal as Paper>::Config>(
            "tridiagonal",
            include_str!("../experiments/tridiagonal.toml"),
        ),
        // The simulations' figures (Fig. 13–19), a second file of the paper.
        ExperimentFile::of::<sims::config::Config>(
            "sims",
            include_str!("../experiments/sims.toml"),
        ),
    ],
    // The paper's tables, then its simulations' (Fig. 13–19, run at the end of its run).
    tables: &[tridiagonal::experiments::TABLES, sims::TABLES],
    run: run_paper::<tridiagonal::experiments::Tridiagonal>,
    original: &tridiagonal::ORIGINAL,
};

/// The entry of a paper with one experiment file, `experiments/<key>.toml`: its config type,
/// tables, run and original are those of `<module>::experiments::<Type>`.
macro_rules! one_file_paper {
    ($name:ident, $key:literal, $title:expr, $module:ident::$ty:ident) => {
        pub static $name: PaperEntry = PaperEntry {
            key: $key,
            title: $title,
            files: &[ExperimentFile::of::<
                <$module::experiments::$ty as Paper>::Config,
            >(
                $key,
                include_str!(concat!("../experiments/", $key, ".toml")),
            )],
            tables: &[$module::experiments::TABLES],
            run: run_paper::<$module::experiments::$ty>,
            original: &$module::ORIGINAL,
        };
    };
}

one_file_paper!(
    MATMUL,
    "matmul",
    "Park 2019 — Parallel Algorithm for Matrix-Matrix Multiplication on the GPU",
    matmul::Matmul
);
one_file_paper!(
    LU,
    "lu",
    "Matsui, Ino & Hagihara, \"Design and Implementation of LU Decomposition on the Programmable GPU\", IPSJ 2005",
    lu::Lu
);
one_file_paper!(
    BICG,
    "bicg",
    "Park, Woo & Kim, \"CUDA-based Parallel Bi-CG Matrix Solver for BioFET Simulation\", IEIE 2011",
    bicg::Bicg
);
one_file_paper!(
    FEM_STORAGE,
    "fem-storage",
    "Boo & Kim 2012 — two-dimensional variable-length vector storage for FEM matrices",
    fem_storage::FemStorage
);

/// Every paper, in the order of the report.
pub static PAPERS: &[&PaperEntry] = &[&TRIDIAGONAL, &MATMUL, &LU, &BICG, &FEM_STORAGE];

/// The paper with this key.
pub fn paper(key: &str) -> Option<&'static PaperEntry> {
    PAPERS.iter().copied().find(|p| p.key == key)
}

/// What this device will run: per paper, each table with "runs" or why it is skipped; then
/// the simulations' solvers that are unavailable (the `info` command).
pub fn plan(caps: &crate::gl::Caps) -> String {
    let mut s = format!("What runs on this device ({}):\n", caps.summary());
    for p in PAPERS {
        s.push_str(&format!("  {}\n", p.key));
        for t in p.info().table_specs() {
            s.push_str(&format!("    {:<12} {}\n", t.id, t.plan(caps)));
        }
    }
    let (unavailable, why): (Vec<&str>, Vec<String>) = solver::SOLVER_NAMES
        .iter()
        .chain(&[solver::FUSED])
        .filter_map(|n| caps.lacks(solver::needs(n)).map(|why| (*n, why)))
        .unzip();
    s.push_str("  sim: every ADI simulation runs with the paper's fragment CR (--solver cr)");
    match why.first() {
        None => s.push_str("; every solver is available\n"),
        // Every solver that is unavailable lacks the same thing (compute shaders).
        Some(why) => s.push_str(&format!(
            "; --solver {} unavailable ({why})\n",
            unavailable.join(", ")
        )),
    }
    if let Some(why) = caps.lacks(bicg::experiments::GL_FP64) {
        s.push_str(&format!("  sim biofet: unavailable ({why})\n"));
    }
    s
}

/// What runs behind a simulation's name.
#[derive(Clone, Copy)]
pub enum SimKind {
    /// An ADI simulation of Kim & Lee 2005 on a tridiagonal solver (`papers::tridiagonal::adi`).
    Adi(&'static AdiSpec),
    /// The BioFET ion transport of the `bicg` paper (Poisson by the GL fp64 Bi-CG;
    /// `papers::bicg::biofet`).
    Biofet,
}

/// One simulation of `gpgpu-repro sim NAME`.
pub struct SimEntry {
    pub name: &'static str,
    pub about: &'static str,
    pub kind: SimKind,
}

impl SimEntry {
    /// `--size` when not given.
    pub fn default_size(&self) -> u32 {
        match self.kind {
            SimKind::Adi(_) => adi::DEFAULT_SIZE,
            SimKind::Biofet => bicg::biofet::BiofetParams::default().n as u32,
        }
    }

    /// `--steps` when not given (BioFET: at most this many; it stops at steady state).
    pub fn default_steps(&self) -> u32 {
        match self.kind {
            SimKind::Adi(a) => a.default_steps,
            SimKind::Biofet => bicg::biofet::BiofetParams::default().max_steps as u32,
        }
    }

    /// What `--size N` means for this simulation.
    pub fn size_meaning(&self) -> &'static str {
        match self.kind {
            SimKind::Adi(_) => "N × N grid",
            SimKind::Biofet => "8 × 8 × N mesh",
        }
    }

    /// The solvers `--solver` accepts, the default first; for an ADI simulation with it, the
    /// fused build-and-Thomas dispatch last ([`solver::FUSED`]).
    pub fn solvers(&self) -> Vec<&'static str> {
        match self.kind {
            SimKind::Adi(a) => {
                let mut s = solver::SOLVER_NAMES.to_vec();
                if (a.fused)(self.default_size()) {
                    s.push(solver::FUSED);
                }
                s
            }
            SimKind::Biofet => vec!["bicg"],
        }
    }
}

/// The entry of an ADI simulation: its name and line are the simulation's own.
const fn adi_entry(a: &'static AdiSpec) -> SimEntry {
    SimEntry {
        name: a.name,
        about: a.about,
        kind: SimKind::Adi(a),
    }
}

/// Every simulation, in the order `sim --help` lists them: the one list.
pub static SIMS: &[SimEntry] = &[
    adi_entry(&adi::HEAT),
    adi_entry(&adi::POLLUTANT_STREAM),
    adi_entry(&adi::POLLUTANT_VORTEX),
    adi_entry(&adi::SHALLOW_WATER),
    SimEntry {
        name: "biofet",
        about: "ions + Poisson (GL fp64 Bi-CG) after a step voltage, to the double-layer steady state",
        kind: SimKind::Biofet,
    },
];

/// The simulation with this name.
pub fn simulation(name: &str) -> Option<&'static SimEntry> {
    SIMS.iter().find(|s| s.name == name)
}

/// The `sim --help` text listing every simulation with its defaults.
pub fn sims_help() -> String {
    let mut s = String::from("Simulations (NAME):\n");
    for e in SIMS {
        s.push_str(&format!(
            "  {:<17} {}\n  {:<17} --size {} ({}), --steps {}, --solver {} (of: {})\n",
            e.name,
            e.about,
            "",
            e.default_size(),
            e.size_meaning(),
            e.default_steps(),
            e.solvers()[0],
            e.solvers().join(", ")
        ));
    }
    s
}
