//! Issue 37: a rule the original fails is wrong. Every case of every committed device run
//! whose paper prints its own value of the judged statistic (the hollow diamond of the claims'
//! forest plot, `Point::paper`) must find that value on the claim's side of the rule — inside
//! the band of a band rule, on the rule's side of the threshold otherwise. The papers' own
//! numbers run through the rules the runs applied, read from the committed records.

use gpgpu_repro::report::record::PaperRecord;

#[test]
fn every_rule_run_on_the_papers_own_value_gives_the_papers_side() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("figures");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for device in std::fs::read_dir(&root).expect("figures/ is committed") {
        let device = device.unwrap().path();
        let Ok(papers) = std::fs::read_dir(&device) else {
            continue;
        };
        for paper in papers {
            let file = paper.unwrap().path().join("paper.json");
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let record: PaperRecord =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for f in &record.findings {
                for p in f.point.iter().chain(&f.points) {
                    let Some(v) = p.paper else { continue };
                    checked += 1;
                    let side = match p.band {
                        Some([lo, hi]) => lo <= v && v <= hi,
                        None if p.at_least => v >= p.threshold,
                        None => v <= p.threshold,
                    };
                    if !side {
                        wrong.push(format!(
                            "{}: {} — the paper's {v} against {} ({})",
                            file.display(),
                            f.claim,
                            p.threshold,
                            if p.at_least { "≥" } else { "≤" }
                        ));
                    }
                }
            }
        }
    }
    // The committed llvmpipe run alone holds more than ten such cases: none found means the
    // records were not read, not that every rule passes.
    assert!(
        checked >= 10,
        "only {checked} cases with a paper value read"
    );
    assert!(
        wrong.is_empty(),
        "rules the paper's own numbers fail:\n{}",
        wrong.join("\n")
    );
}
