//! Claims B1 and B2 on Fig. 4's rows: the GPU against one CPU core, at the two meshes the
//! paper prints times for (`fig4.paper` in `experiments/bicg.toml`). B2 (§V): at 16³ the CPU
//! beats the GPU — GPU time / CPU time ≥ 1; B1 (abstract, §VI): the GPU about 30× faster at
//! the large meshes — CPU time / GPU time ≥ 1 at the largest printed mesh (the 30× is a
//! GTX 285 against an i7 core; what a device can say is the side of 1). Both compare a GPU
//! with a CPU: *not testable here* on a software rasterizer ([`Finding::gpu_vs_cpu`]). The
//! two times are separate rows' runs, so each ratio's interval is the conservative one of two
//! independent estimates ([`Estimate::ratio_unpaired`]). Above `fig4.cpu_scaled_above` nodes
//! the CPU time is six runs of a fixed number of iterations, scaled to the whole solve's
//! (`fig4.rs`), so that 128³ has an interval too.

use super::config::{Config, PaperTime};
use crate::report::{Finding, Table};
use crate::runner::Session;
use crate::stats::Estimate;

/// B1 and B2 from `table` (Fig. 4's rows); nothing for a mesh this run did not time.
pub(super) fn speed_findings(s: &Session, cfg: &Config, table: &Table) {
    let time = |p: &PaperTime, col: &str| {
        let r = table.rows.iter().find(|r| r.key == p.mesh.0.label())?;
        r.values[table.col(col)].estimate().cloned()
    };
    let printed = &cfg.fig4.paper;
    // B2 at the smallest printed mesh (GPU / CPU ≥ 1), B1 at the largest (CPU / GPU ≥ 1).
    let cases = [
        (printed.iter().min_by_key(|p| p.mesh.0.nodes()), false),
        (printed.iter().max_by_key(|p| p.mesh.0.nodes()), true),
    ];
    for (p, gpu_faster) in cases {
        let Some(p) = p else { continue };
        let (Some(g), Some(c)) = (time(p, "GPU time"), time(p, "CPU time")) else {
            continue;
        };
        let label = p.mesh.0.label();
        let times = format!("CPU {} ms, GPU {} ms", p.cpu_ms, p.gpu_ms);
        let (claim, paper, name, ratio, paper_ratio) = if gpu_faster {
            let about = p.speedup.unwrap_or(p.cpu_ms / p.gpu_ms);
            (
                "the GPU Bi-CG is about 30× faster than one CPU core (abstract, §VI)",
                format!("about {about}× (§V: {times})"),
                "CPU time / GPU time",
                Estimate::ratio_unpaired(&c, &g),
                p.cpu_ms / p.gpu_ms,
            )
        } else {
            (
                "at 16³ the CPU beats the GPU (Fig. 4, §V)",
                format!("{times} (§V)"),
                "GPU time / CPU time",
                Estimate::ratio_unpaired(&g, &c),
                p.gpu_ms / p.cpu_ms,
            )
        };
        let f = Finding::new("fig4", format!("{claim}, {label}"))
            .paper(paper)
            .judge(name, &ratio, 1.0, true)
            .paper_value(paper_ratio);
        s.finding(f.gpu_vs_cpu(s.gl.info().software));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::finding::Verdict;
    use crate::report::finding::decide;

    /// B1's and B2's rules, run on the paper's own printed times (`experiments/bicg.toml`),
    /// give the paper's side: a rule the original fails is wrong.
    #[test]
    fn b1_and_b2_on_the_papers_printed_times_give_the_papers_side() {
        let cfg: Config = toml::from_str(include_str!("../../../../experiments/bicg.toml"))
            .expect("bicg.toml parses");
        let printed = &cfg.fig4.paper;
        let small = printed.iter().min_by_key(|p| p.mesh.0.nodes()).unwrap();
        let large = printed.iter().max_by_key(|p| p.mesh.0.nodes()).unwrap();
        assert_eq!(small.mesh.0.label(), "16×16×16");
        let exact = |v: f64| Estimate::of(&[v; 6]).unwrap();
        let b2 = decide("r", &exact(small.gpu_ms / small.cpu_ms), 1.0, true).0;
        let b1 = decide("r", &exact(large.cpu_ms / large.gpu_ms), 1.0, true).0;
        assert_eq!((b1, b2), (Verdict::Held, Verdict::Held));
    }
}
