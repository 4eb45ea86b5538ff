//! The paper's exact storage claims (F1–F4 of [`crate::papers::fem_storage::claims`]) judged
//! on Table 2's counts: exact verdicts ([`Finding::exact`]), nothing random in a count. Each
//! rule is also run on the paper's own Table 2 (a test: a rule the original fails is wrong).

use super::config::PaperTable2Row;
use super::table2::Counts;
use crate::report::Finding;

/// The counts a rule reads, ours or the paper's.
#[derive(Clone, Copy, Debug)]
pub struct Stored {
    pub dim: usize,
    pub nodes: f64,
    pub proposed: f64,
    pub with_indices: f64,
    pub skyline: f64,
    /// The longest row; the paper prints none (`None`).
    pub max_per_node: Option<f64>,
}

impl Stored {
    pub fn of(c: &Counts) -> Stored {
        Stored {
            dim: c.grid.dim(),
            nodes: c.nodes as f64,
            proposed: c.proposed as f64,
            with_indices: c.with_indices as f64,
            skyline: c.skyline as f64,
            max_per_node: Some(c.max_per_node as f64),
        }
    }

    /// A row of the paper's Table 2 (2D grids of side `grid`).
    pub fn paper(p: &PaperTable2Row) -> Stored {
        Stored {
            dim: 2,
            nodes: (p.grid * p.grid) as f64,
            proposed: p.proposed,
            with_indices: p.with_indices,
            skyline: p.skyline,
            max_per_node: None,
        }
    }
}

/// The nodes from which the paper says skyline needs ≥ 10× (its 16,384×16,384 matrices).
const LARGE: f64 = 16_384.0;
/// "about 1/13": within this factor of 13 either way.
const ABOUT: f64 = 1.5;

/// The findings of F1–F4 on `rows` (F1 only where the rows know their longest row).
pub fn findings(rows: &[Stored]) -> Vec<Finding> {
    let mut out = Vec::new();
    for (dim, most) in [(2, 5.0), (3, 14.0)] {
        let max = rows
            .iter()
            .filter(|r| r.dim == dim)
            .filter_map(|r| r.max_per_node)
            .reduce(f64::max);
        if let Some(m) = max {
            out.push(
                Finding::new(
                    "table2",
                    format!("at most 5 (2D) / 14 (3D) entries per node, {dim}D grids"),
                )
                .paper(format!("at most {most} (abstract)"))
                .exact("longest row", m, most, false),
            );
        }
    }
    let worst = rows
        .iter()
        .map(|r| r.with_indices / r.proposed)
        .reduce(f64::max);
    if let Some(w) = worst {
        out.push(
            Finding::new("table2", "with indices at most 2× the values, every grid")
                .paper("not over 2× (abstract)")
                .exact("max over grids of (incl. indices) / values", w, 2.0, false),
        );
    }
    if let Some(r) = rows.iter().find(|r| r.dim == 2 && r.nodes == LARGE) {
        let x = r.skyline / r.with_indices;
        for (at_least, t, side) in [
            (true, 13.0 / ABOUT, "at least 13 ÷"),
            (false, 13.0 * ABOUT, "at most 13 ×"),
        ] {
            out.push(
                Finding::new(
                    "table2",
                    format!("about 1/13 of skyline at 128×128 ({side} {ABOUT})"),
                )
                .paper("about 1/13 (§IV)")
                .exact(
                    "skyline / proposed incl. indices at 128×128",
                    x,
                    t,
                    at_least,
                ),
            );
        }
    }
    let least = rows
        .iter()
        .filter(|r| r.nodes >= LARGE)
        .map(|r| r.skyline / r.with_indices)
        .reduce(f64::min);
    if let Some(l) = least {
        out.push(
            Finding::new("table2", "skyline ≥ 10× from 16,384 nodes, every such grid")
                .paper("at least 10× (§III)")
                .exact(
                    "min over grids of skyline / proposed incl. indices",
                    l,
                    10.0,
                    true,
                ),
        );
    }
    out
}

/// Judges F1–F4 on this run's counts, the paper's value of each beside it.
pub fn run(s: &crate::runner::Session, counts: &[Counts], paper: &[PaperTable2Row]) {
    let ours: Vec<Stored> = counts.iter().map(Stored::of).collect();
    let theirs: Vec<Stored> = paper.iter().map(Stored::paper).collect();
    let paper_findings = findings(&theirs);
    for f in findings(&ours) {
        let p = paper_findings
            .iter()
            .find(|g| g.claim == f.claim)
            .and_then(|g| g.point.map(|p| p.median));
        s.finding(match p {
            Some(v) => f.paper_value(v),
            None => f,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Verdict;

    /// The paper's own Table 2, as `experiments/fem-storage.toml` holds it.
    fn paper_rows() -> Vec<PaperTable2Row> {
        let text = include_str!("../../../../experiments/fem-storage.toml");
        let cfg: super::super::config::Config =
            toml::from_str(text).expect("fem-storage.toml parses");
        cfg.table2.paper
    }

    #[test]
    fn every_rule_run_on_the_papers_own_table_2_gives_the_papers_side() {
        let rows: Vec<Stored> = paper_rows().iter().map(Stored::paper).collect();
        let f = findings(&rows);
        // F2, F3 (both sides) and F4: the paper prints no longest row, so F1 is not run.
        assert_eq!(f.len(), 4, "{f:?}");
        for x in &f {
            assert_eq!(x.verdict, Verdict::Held, "{}: {}", x.claim, x.why);
        }
    }

    #[test]
    fn a_count_over_the_bound_is_not_held() {
        let mut r = Stored::paper(&paper_rows()[4]);
        r.max_per_node = Some(6.0);
        r.with_indices = 2.5 * r.proposed;
        let f = findings(&[r]);
        assert_eq!(f[0].verdict, Verdict::NotHeld, "{}", f[0].why);
        assert_eq!(f[1].verdict, Verdict::NotHeld, "{}", f[1].why);
    }
}
