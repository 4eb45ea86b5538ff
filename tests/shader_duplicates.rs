//! Shader code is written once (issue 39): no two places under `glsl/` share a run of
//! [`MIN_RUN`] or more identical lines. Shared code goes to an included file
//! (`#include "PATH"`, see `gl::program::source`), as `glsl/common/` and `glsl/bicg/*.glsl` do.
//!
//! What counts as a line: blank lines, comment lines and the lines every shader of a kind
//! writes alike (`#version`, `#extension`, `#include`, `layout(local_size…`) are dropped,
//! white space is folded; everything else counts, closing braces included. Eight lines is
//! more than a shader's usual frame (a `main` opening and a loop head) and less than a copied
//! header of buffers and uniforms, or a copied loop with its body.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The shortest shared run that fails the check.
const MIN_RUN: usize = 8;

/// One file's counted lines: (line number from 1, folded text).
type Lines = Vec<(usize, String)>;

fn counted(text: &str) -> Lines {
    const SKIP: [&str; 5] = [
        "//",
        "#version",
        "#extension",
        "#include",
        "layout(local_size",
    ];
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>().join(" ")))
        .filter(|(_, l)| !l.is_empty() && !SKIP.iter().any(|s| l.starts_with(s)))
        .collect()
}

/// Every maximal run of `MIN_RUN` or more identical counted lines shared by two places (two
/// files, or two places of one file that do not overlap), as
/// `a.comp:3-12 ~ b.comp:7-16 (8 lines)`.
fn shared_runs(files: &[(String, Lines)]) -> Vec<String> {
    let mut by_text: HashMap<Vec<&str>, Vec<(usize, usize)>> = HashMap::new();
    for (f, (_, lines)) in files.iter().enumerate() {
        for i in 0..lines.len().saturating_sub(MIN_RUN - 1) {
            let key: Vec<&str> = lines[i..i + MIN_RUN]
                .iter()
                .map(|(_, l)| l.as_str())
                .collect();
            by_text.entry(key).or_default().push((f, i));
        }
    }
    let same = |(f, i): (usize, usize), (g, j): (usize, usize)| {
        files[f].1[i].1 == files[g].1[j].1 && (f != g || j.abs_diff(i) >= MIN_RUN)
    };
    let mut found = Vec::new();
    for places in by_text.values() {
        for (k, &(f, i)) in places.iter().enumerate() {
            for &(g, j) in &places[k + 1..] {
                if f == g && j < i + MIN_RUN {
                    continue;
                }
                // Report each run once, from its first line.
                if i > 0 && j > 0 && same((f, i - 1), (g, j - 1)) {
                    continue;
                }
                let (a, b) = (&files[f].1, &files[g].1);
                let mut n = MIN_RUN;
                while i + n < a.len() && j + n < b.len() && same((f, i + n), (g, j + n)) {
                    n += 1;
                }
                found.push(format!(
                    "{}:{}-{} ~ {}:{}-{} ({n} lines)",
                    files[f].0,
                    a[i].0,
                    a[i + n - 1].0,
                    files[g].0,
                    b[j].0,
                    b[j + n - 1].0
                ));
            }
        }
    }
    found.sort();
    found
}

fn shader_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            shader_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn no_two_shader_places_share_eight_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("glsl");
    let mut paths = Vec::new();
    shader_files(&root, &mut paths);
    assert!(
        paths.len() > 50,
        "glsl/ holds the shaders ({} files)",
        paths.len()
    );
    let files: Vec<(String, Lines)> = paths
        .iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let name = p
                .strip_prefix(&root)
                .expect("below glsl/")
                .display()
                .to_string();
            (name, counted(&text))
        })
        .collect();
    let runs = shared_runs(&files);
    assert!(
        runs.is_empty(),
        "shader code written twice (move it to an #include'd file):\n{}",
        runs.join("\n")
    );
}

/// The Bi-CG header as it stood copied in spmv.comp and fused_spmv_dot.comp before it moved
/// to `glsl/bicg/ell.glsl`: the check must name both places.
#[test]
fn a_copied_header_fails_the_check() {
    let header = "layout(std430, binding = 0) readonly buffer Val { REAL val[]; };
layout(std430, binding = 1) readonly buffer Col { uint col[]; };
layout(std430, binding = 2) readonly buffer Rl { uint rl[]; };
layout(std430, binding = 3) readonly buffer X { REAL x[]; };
layout(std430, binding = 4) writeonly buffer Y { REAL y[]; };
uniform uint u_n;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
";
    let a = format!("// SpMV\nlayout(local_size_x = LOCAL_SIZE) in;\n{header}    y[0] = 1;\n}}\n");
    let b = format!(
        "// fused\n#include \"x.glsl\"\nlayout(local_size_x = LOCAL_SIZE) in;\n{header}  \
         REAL   acc = REAL(0);\n}}\n"
    );
    let files = vec![
        ("a.comp".to_string(), counted(&a)),
        ("b.comp".to_string(), counted(&b)),
    ];
    assert_eq!(
        shared_runs(&files),
        vec!["a.comp:3-11 ~ b.comp:4-12 (8 lines)".to_string()]
    );
    // One line fewer in common (the stride line differs) passes: 7 < MIN_RUN.
    let c = a.replace("gl_WorkGroupSize.x", "LOCAL_SIZE");
    let files = vec![
        ("b.comp".to_string(), counted(&b)),
        ("c.comp".to_string(), counted(&c)),
    ];
    assert!(shared_runs(&files).is_empty(), "{:?}", shared_runs(&files));
    // The same run twice in one file counts too; comments and blank lines do not break it.
    let twice = format!("{header}// between\n\n{header}");
    let files = vec![("t.comp".to_string(), counted(&twice))];
    assert_eq!(
        shared_runs(&files),
        vec!["t.comp:1-9 ~ t.comp:12-20 (8 lines)".to_string()]
    );
}
