//! The layering holds (issues 26, 39): no circle of imports between the top-level folders of
//! `src/` (`gl`, `report`, `bench`, `runner`, `papers`, `sim`, `trace`). An edge A → B is any
//! `crate::B` path in code (comments and doc links aside) of a file under `src/A/`; a circle
//! of any length fails with the files that make it. Nor any import that climbs the order of
//! folders and top-level files that `docs/architecture.md` draws in its "Layers" tree.
//!
//! Nor between the modules of one folder: within `papers/bicg/`, `fragment.rs` naming
//! `super::reduce_trace::x` (or `crate::papers::bicg::reduce_trace::x`) is an edge
//! `fragment → reduce_trace`; a sub-folder is one module with all its files. A folder's
//! `mod.rs` is the parent, not a sibling, and it only declares and re-exports: it defines no
//! item, and no file imports an item of one of its ancestor modules (it names the file that
//! defines the item), so that no parent and child import each other.

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

/// The module path of a file under `src/`: `papers/bicg/fragment.rs` → `[papers, bicg,
/// fragment]`, a `mod.rs` names its folder, `lib.rs` the crate root.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut m: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if m.last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        m.pop();
    }
    m
}

/// The absolute module paths a line of code names through `crate::a::b`, `super::a`,
/// `self::a` (with `{a, b}` groups), as seen from module `at`.
fn module_paths(line: &str, at: &[String]) -> Vec<Vec<String>> {
    fn ident(s: &str) -> &str {
        let end = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        &s[..end]
    }
    /// The segments of a path from `s` on (`a::b::{c, d}` → `[a, b, c]`, `[a, b, d]`).
    fn segments(mut s: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        loop {
            if let Some(group) = s.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for part in group[..end].split(',') {
                    segments(part.trim(), path.clone(), out);
                }
                return;
            }
            let name = ident(s);
            if name.is_empty() {
                break;
            }
            path.push(name.to_string());
            match s[name.len()..].strip_prefix("::") {
                Some(rest) => s = rest,
                None => break,
            }
        }
        out.push(path);
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let before = line[..i].chars().last();
        let starts_word = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        let after_colons = line[..i].ends_with("::");
        if starts_word && !after_colons {
            let mut base: Option<Vec<String>> = None;
            let mut s = rest;
            if let Some(r) = s.strip_prefix("crate::") {
                base = Some(Vec::new());
                s = r;
            } else if let Some(r) = s.strip_prefix("self::") {
                base = Some(at.to_vec());
                s = r;
            } else if s.starts_with("super::") {
                let mut b = at.to_vec();
                while let Some(r) = s.strip_prefix("super::") {
                    b.pop();
                    s = r;
                }
                base = Some(b);
            }
            if let Some(b) = base {
                segments(s, b, &mut out);
                i = line.len() - s.len();
                continue;
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// The modules one folder holds: each file but `mod.rs` (by its stem) and each sub-folder
/// (with every file under it); a file `x.rs` beside a folder `x/` (its children) is one
/// module `x` with all their files.
fn folder_units(dir: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut units: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            rust_files(&p, units.entry(name).or_default());
        } else if p.extension().is_some_and(|x| x == "rs") && name != "mod" {
            units.entry(name).or_default().push(p);
        }
    }
    units
}

/// Every module path the code of `text` names ([`module_paths`]; comments aside), for a file
/// whose module is `home`. Code after an inline `mod x {` is read as inside `x`, so its
/// `super::` names the file's own module.
fn paths_in(text: &str, home: &[String]) -> Vec<Vec<String>> {
    let mut module = home.to_vec();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let code = line.split("//").next().unwrap_or_default();
        let words: Vec<&str> = code.split_whitespace().collect();
        if let [.., "mod", name, "{"] = words[..] {
            module.push(name.to_string());
        }
        out.extend(module_paths(code, &module));
    }
    out
}

/// Within folder `dir` (module path `at`): module → the sibling modules it names, with one
/// file that makes each edge; a file's code is read up to its first `#[cfg(test)]`.
fn sibling_edges(src: &Path, dir: &Path) -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let at = module_path(src, &dir.join("mod.rs"));
    let units = folder_units(dir);
    let mut edges: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for (from, files) in &units {
        for f in files {
            let text = std::fs::read_to_string(f).unwrap();
            // A file's test module is no dependency of its code: a test may name a sibling
            // that imports the file under test.
            let code_part = text.split("#[cfg(test)]").next().unwrap_or_default();
            for path in paths_in(code_part, &module_path(src, f)) {
                let to = match path.strip_prefix(&at[..]) {
                    Some([to, ..]) => to,
                    _ => continue,
                };
                if to != from && units.contains_key(to) {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to.clone())
                        .or_insert_with(|| f.clone());
                }
            }
        }
    }
    edges
}

#[test]
fn module_paths_are_resolved() {
    let at: Vec<String> = ["papers", "bicg", "fragment"].map(String::from).into();
    let p = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        module_paths("use super::reduce_trace::level_info;", &at),
        [p(&["papers", "bicg", "reduce_trace", "level_info"])]
    );
    assert_eq!(
        module_paths("use super::{cpu::X, gpu};", &at),
        [
            p(&["papers", "bicg", "cpu", "X"]),
            p(&["papers", "bicg", "gpu"])
        ]
    );
    assert_eq!(
        module_paths(
            "let x = crate::papers::bicg::linbcg::V; super::super::lu",
            &at
        ),
        [p(&["papers", "bicg", "linbcg", "V"]), p(&["papers", "lu"])]
    );
    assert!(module_paths("gpgpu_repro::papers::x; a::super_x", &at).is_empty());
}

/// Circles between the modules of one folder that stay for now, in folders another piece
/// of work is changing: "folder: a → b → a" as the test prints them.
const KNOWN_FOLDER_CIRCLES: &[&str] = &[];

#[test]
fn no_two_modules_of_one_folder_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut dirs = vec![src.clone()];
    let mut circles = Vec::new();
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            }
        }
        let edges = sibling_edges(&src, &dir);
        let name = dir.strip_prefix(&src).unwrap().display().to_string();
        let mut seen = BTreeSet::new();
        for from in edges.keys() {
            if let Some(c) = circle(&edges, from) {
                let mut key: Vec<String> = c[1..].to_vec();
                key.sort();
                if !seen.insert(key) {
                    continue;
                }
                let line = format!("{name}: {}", c.join(" → "));
                if KNOWN_FOLDER_CIRCLES.contains(&line.as_str()) {
                    continue;
                }
                let files: Vec<String> = c
                    .windows(2)
                    .map(|w| format!("{} ({})", w[0], edges[&w[0]][&w[1]].display()))
                    .collect();
                circles.push(format!("{line}\n    {}", files.join(", ")));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "import circles between the modules of one folder:\n{}",
        circles.join("\n")
    );
}

/// The folders and top-level files of `src/` in the order `docs/architecture.md` lists them
/// in its "Layers" tree (`main.rs, cli.rs` … `mode.rs`), as module names.
fn documented_layers() -> Vec<String> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    let section = doc.split("## Layers").nth(1).expect("a Layers section");
    let tree = section
        .split("```")
        .nth(1)
        .expect("a tree in the Layers section");
    let mut order = Vec::new();
    for line in tree.lines() {
        let text = line.trim_start_matches([' ', '│', '├', '└', '─']);
        for name in text.split("  ").next().unwrap_or_default().split(", ") {
            if let Some(m) = name.strip_suffix(".rs").or_else(|| name.strip_suffix('/'))
                && !order.iter().any(|o| o == m)
            {
                order.push(m.to_string());
            }
        }
    }
    order
}

#[test]
fn the_layer_order_of_docs_architecture_holds() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let order = documented_layers();
    let rank = |m: &str| order.iter().position(|o| o == m);
    // Every folder and top-level file of `src/` is placed in the tree.
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if name != "lib" {
            assert!(
                rank(&name).is_some(),
                "src/{name} is not in docs/architecture.md's layers: {order:?}"
            );
        }
    }
    let mut climbs = Vec::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let from = p.file_stem().unwrap().to_string_lossy().into_owned();
        let mut files = Vec::new();
        if p.is_dir() {
            rust_files(&p, &mut files);
        } else if from != "lib" && p.extension().is_some_and(|x| x == "rs") {
            files.push(p.clone());
        }
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                let code = line.split("//").next().unwrap_or_default();
                for to in crate_paths(code) {
                    if let (Some(a), Some(b)) = (rank(&from), rank(&to))
                        && to != from
                        && a >= b
                    {
                        climbs.push(format!("{from} → {to} ({})", f.display()));
                    }
                }
            }
        }
    }
    assert!(
        order.len() > 10 && order[0] == "main" && order.last().is_some_and(|l| l == "mode"),
        "the tree is read: {order:?}"
    );
    assert!(
        climbs.is_empty(),
        "imports that climb docs/architecture.md's layers ({order:?}):\n{}",
        climbs.join("\n")
    );
}

/// Whether module `m` (a path from the crate root) is a file or folder under `src/`.
fn is_module(src: &Path, m: &[String]) -> bool {
    let p = m.iter().fold(src.to_path_buf(), |p, s| p.join(s));
    m.is_empty() || p.is_dir() || p.with_extension("rs").is_file()
}

/// The paths in `text` (the code of a file whose module is `home`) that reach an item of
/// one of its ancestor modules: `use super::Gl` in `gl/texture.rs`,
/// `crate::papers::lu::Variant` in `papers/lu/fragment/i1.rs`. A path that ends at a module
/// (`super::sibling`, `use super::*`) is none; a test module inside the file may name the
/// file's own items.
fn ancestor_paths(src: &Path, home: &[String], text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for path in paths_in(text, home) {
        let k = (0..=path.len())
            .rev()
            .find(|&k| is_module(src, &path[..k]))
            .unwrap_or(0);
        if k < path.len() && k < home.len() && path[..k] == home[..k] {
            found.push(path.join("::"));
        }
    }
    found
}

#[test]
fn ancestor_paths_are_found() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(
        src.join("gl/caps.rs").is_file(),
        "the example's sibling exists"
    );
    // As if in gl/texture.rs: a parent item, a sibling's item, a module and a parent item
    // in one group, a glob, and a test module naming its own file's item.
    let text = "use super::Gl;\nuse super::caps::Caps;\nuse crate::gl::{timing, Need};\n\
                use super::*;\nmod tests {\n    use super::Texture;\n}\n";
    let home: Vec<String> = ["gl", "texture"].map(String::from).into();
    assert_eq!(ancestor_paths(&src, &home, text), ["gl::Gl", "gl::Need"]);
}

/// Imports of an ancestor's item that stay, with why: "file: path" as the test prints them.
/// None today (the last, `runner/entry.rs` naming `Session` through `runner`'s re-export, went
/// when the session came to hold its paper's `PaperInfo` rather than the `PaperEntry` whose
/// run takes a session).
const KNOWN_ANCESTOR_IMPORTS: &[&str] = &[];

#[test]
fn no_module_imports_an_item_of_its_ancestors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let all: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let at = f.strip_prefix(&src).unwrap().display().to_string();
            ancestor_paths(&src, &module_path(&src, f), &text)
                .into_iter()
                .map(move |p| format!("{at}: {p}"))
        })
        .collect();
    for known in KNOWN_ANCESTOR_IMPORTS {
        assert!(
            all.iter().any(|a| a == known),
            "`{known}` is gone: take it off KNOWN_ANCESTOR_IMPORTS"
        );
    }
    let found: Vec<&String> = all
        .iter()
        .filter(|a| !KNOWN_ANCESTOR_IMPORTS.contains(&a.as_str()))
        .collect();
    assert!(
        found.is_empty(),
        "{} imports of an ancestor module's item (import it from the file that defines it):\n{}",
        found.len(),
        found
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The items a parent module file defines (not its test module): lines that open a `fn`,
/// `struct`, `enum`, `trait`, `impl`, `const`, `static`, `type` or `macro_rules!` at the top
/// level.
fn defined_items(text: &str) -> Vec<String> {
    let kinds = [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "impl ",
        "impl<",
        "const ",
        "static ",
        "type ",
        "macro_rules!",
        "unsafe fn ",
        "async fn ",
    ];
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        let l = line
            .strip_prefix("pub(crate) ")
            .or_else(|| line.strip_prefix("pub(super) "))
            .or_else(|| line.strip_prefix("pub "))
            .unwrap_or(line);
        if kinds.iter().any(|k| l.starts_with(k)) {
            out.push(line.trim().to_string());
        }
    }
    out
}

#[test]
fn parents_only_declare() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert_eq!(
        defined_items(
            "//! doc\npub mod a;\npub use a::X;\npub struct Y;\nimpl Y {}\n#[cfg(test)]\nfn t() {}\n"
        ),
        ["pub struct Y;", "impl Y {}"]
    );
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for f in &files {
        let stem = f.file_stem().unwrap().to_string_lossy();
        let parent = stem == "mod" || stem == "lib" || f.with_extension("").is_dir();
        if parent {
            for item in defined_items(&std::fs::read_to_string(f).unwrap()) {
                found.push(format!(
                    "{}: {item}",
                    f.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} items defined in parent modules (a `mod.rs` declares and re-exports only):\n{}",
        found.len(),
        found.join("\n")
    );
}
