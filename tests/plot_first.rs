//! Every chart kind drawn as the first chart of a fresh process (issue 40).
//!
//! The plotting font is registered once per process, so a test binary that draws several
//! charts only ever tests the first one's path once, and the other tests in the suite draw
//! charts too. Here each chart kind is drawn by a child process of its own: this binary run
//! again with [`KIND`] set and a filter naming [`child_draws_one_chart`] alone, so the chart is
//! the first text the child measures. Before the fix, a line or bar chart with a legend
//! panicked there in plotters-bitmap ("Wrong buffer size"): its size was computed once
//! before the font was registered and once after.

use std::path::Path;
use std::process::Command;

use gpgpu_repro::report::{
    BarChart, Dot, DotChart, DotSeries, HeatMap, LineChart, RatioChart, RatioRow, Series,
};

/// The environment variable that tells a child which chart kind to draw, and where.
const KIND: &str = "GPGPU_REPRO_TEST_FIRST_CHART";
const OUT: &str = "GPGPU_REPRO_TEST_FIRST_CHART_OUT";

const KINDS: [&str; 5] = ["line", "bar", "dot", "ratio", "heatmap"];

/// Legend entries whose measured width differs from the fixed guess the old code used when
/// the font was missing (300 px a name): one name far wider, so that the measured legend
/// needs more rows than the guessed one, and a buffer sized with the guess was too small
/// for the renderer (the "Wrong buffer size" panic).
const NAMES: [&str; 3] = [
    "a legend entry long enough to be measured far wider than any guess of its width",
    "paper",
    "CPU",
];

fn draw(kind: &str, path: &Path) {
    match kind {
        "line" => {
            let mut chart = LineChart::new("first line chart", "n", "time (ms)").log_x();
            for (i, name) in NAMES.iter().enumerate() {
                let y = 1.0 + i as f64;
                chart = chart.series(Series::ours(*name, vec![(1.0, y), (10.0, 2.0 * y)]));
            }
            chart.save(path).expect("a line chart draws");
        }
        "bar" => {
            let chart = BarChart {
                title: "first bar chart".into(),
                x_label: "variant".into(),
                y_label: "time (ms)".into(),
                categories: vec!["a".into(), "b".into()],
                series: NAMES
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (n.to_string(), vec![Some(1.0 + i as f64), None]))
                    .collect(),
            };
            chart.save(path).expect("a bar chart draws");
        }
        "dot" => {
            let chart = DotChart {
                title: "first dot chart".into(),
                category_label: "variant".into(),
                value_label: "time (ms, log)".into(),
                log: true,
                categories: vec!["a".into(), "b".into()],
                series: NAMES
                    .iter()
                    .enumerate()
                    .map(|(i, n)| DotSeries {
                        name: n.to_string(),
                        dots: vec![Some(Dot::new(1.0 + i as f64, Some((0.5, 4.0)))), None],
                        paper: i == 1,
                    })
                    .collect(),
            };
            chart.save(path).expect("a dot chart draws");
        }
        "ratio" => {
            let chart = RatioChart {
                title: "first ratio chart".into(),
                x_label: "legacy / compute".into(),
                below: "legacy faster".into(),
                above: "compute faster".into(),
                rows: [
                    (
                        "row one, its label across the line at 1",
                        0.95,
                        0.7,
                        1.2,
                        true,
                    ),
                    ("row two", 2.0, 1.5, 2.5, true),
                    ("too few runs: not a 95 % interval", 2.2, 1.8, 2.6, false),
                    ("one run each: no interval", 1.3, 1.3, 1.3, false),
                ]
                .map(|(label, ratio, lo, hi, covered)| RatioRow {
                    label: label.into(),
                    ratio,
                    lo,
                    hi,
                    covered,
                })
                .into(),
            };
            chart.save(path).expect("a ratio chart draws");
        }
        "heatmap" => {
            let (nx, ny) = (9, 5);
            let chart = HeatMap {
                title: "first heat map".into(),
                x_label: "x".into(),
                y_label: "y".into(),
                bar_label: "u".into(),
                nx,
                ny,
                h: 0.25,
                values: (0..nx * ny).map(|k| k as f64).collect(),
                range: (0.0, (nx * ny) as f64),
            };
            chart.save(path).expect("a heat map draws");
        }
        other => panic!("unknown chart kind {other}"),
    }
}

/// The child's part: draws the chart [`KIND`] names at [`OUT`]; does nothing when run as an
/// ordinary test (neither is set).
#[test]
fn child_draws_one_chart() {
    let (Ok(kind), Ok(out)) = (std::env::var(KIND), std::env::var(OUT)) else {
        return;
    };
    let path = Path::new(&out);
    draw(&kind, path);
    let img = image::open(path).expect("a PNG").to_rgb8();
    assert!(
        img.width() >= 800 && img.height() >= 200,
        "{kind}: {:?}",
        img.dimensions()
    );
}

#[test]
fn every_chart_kind_draws_as_the_first_chart_of_a_fresh_process() {
    let exe = std::env::current_exe().expect("the test binary");
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut failed = vec![];
    for kind in KINDS {
        let out = dir.path().join(format!("{kind}.png"));
        let res = Command::new(&exe)
            .args(["--exact", "child_draws_one_chart", "--test-threads=1"])
            .env(KIND, kind)
            .env(OUT, &out)
            .output()
            .expect("the child runs");
        if !res.status.success() || !out.is_file() {
            failed.push(format!(
                "{kind}: {} {}",
                res.status,
                String::from_utf8_lossy(&res.stdout)
                    .lines()
                    .chain(String::from_utf8_lossy(&res.stderr).lines())
                    .filter(|l| l.contains("panicked")
                        || l.contains("Error")
                        || l.contains("error"))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "first charts that failed:\n{}",
        failed.join("\n")
    );
}
