//! The layering holds (issue 26): no circle of imports between the top-level folders of
//! `src/` (`gl`, `report`, `bench`, `runner`, `papers`, `sim`, `trace`). An edge A → B is any
//! `crate::B` path in code (comments and doc links aside) of a file under `src/A/`; a circle
//! of any length fails with the files that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules a line of code names through `crate::X` or `crate::{X, Y}`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        // `$crate::`, `gpgpu_repro_crate::`… are not this crate's paths.
        let ident_before = rest[..i]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if !ident_before {
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                names.extend(
                    group[..end]
                        .split(',')
                        .map(|s| s.trim().split("::").next().unwrap_or_default().to_string()),
                );
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
            }
        }
        rest = after;
    }
    names
}

/// Folder → the folders it imports, with one file that makes each edge.
fn folder_edges(src: &Path) -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let folders: BTreeSet<String> = std::fs::read_dir(src)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            p.is_dir()
                .then(|| p.file_name().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    let mut edges: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for from in &folders {
        let mut files = Vec::new();
        rust_files(&src.join(from), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                let code = line.split("//").next().unwrap_or_default();
                for to in crate_paths(code) {
                    if folders.contains(&to) && &to != from {
                        edges
                            .entry(from.clone())
                            .or_default()
                            .entry(to)
                            .or_insert_with(|| f.clone());
                    }
                }
            }
        }
    }
    edges
}

/// A circle through `start`, if any (depth-first search over `edges`).
fn circle(edges: &BTreeMap<String, BTreeMap<String, PathBuf>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        edges: &BTreeMap<String, BTreeMap<String, PathBuf>>,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in edges.get(at).into_iter().flat_map(|m| m.keys()) {
            if next == start {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(edges, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(edges, start, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn crate_paths_are_read_from_code() {
    assert_eq!(crate_paths("use crate::gl::{Gl, Need};"), ["gl"]);
    assert_eq!(
        crate_paths("use crate::{report, runner::X};"),
        ["report", "runner"]
    );
    assert_eq!(
        crate_paths("let x = crate::bench::Work::default(); $crate::y"),
        ["bench"]
    );
    assert!(crate_paths("gpgpu_repro::report").is_empty());
}

#[test]
fn no_two_top_level_folders_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = folder_edges(&src);
    assert!(
        edges.get("papers").is_some_and(|m| m.contains_key("gl")),
        "the reader finds the papers' use of gl: {edges:?}"
    );
    let mut circles = Vec::new();
    for from in edges.keys() {
        if let Some(c) = circle(&edges, from) {
            let files: Vec<String> = c
                .windows(2)
                .map(|w| format!("{} → {} ({})", w[0], w[1], edges[&w[0]][&w[1]].display()))
                .collect();
            circles.push(files.join(", "));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}
