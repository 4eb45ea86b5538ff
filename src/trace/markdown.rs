//! `trace.md`: the narration of a trace, one section per pass beside its picture.

use std::fmt::Write;

use super::record::{PassRecord, Snapshot};
use super::run::Trace;
use crate::gl::{Quad, Rect, Role};

fn rect(r: &Rect) -> String {
    format!("[{}, {}) × [{}, {})", r.x, r.x + r.w, r.y, r.y + r.h)
}

fn quad(q: &Quad) -> String {
    let [x0, y0, x1, y1] = q.dst;
    let t = &q.tex;
    format!(
        "quad over [{x0}, {x1}) × [{y0}, {y1}); `a_tex` at its corners (x0,y0) (x1,y0) (x1,y1) \
         (x0,y1): .xy = ({}, {}) ({}, {}) ({}, {}) ({}, {}), .zw = ({}, {}) ({}, {}) ({}, {}) \
         ({}, {})",
        t[0][0],
        t[0][1],
        t[1][0],
        t[1][1],
        t[2][0],
        t[2][1],
        t[3][0],
        t[3][1],
        t[0][2],
        t[0][3],
        t[1][2],
        t[1][3],
        t[2][2],
        t[2][3],
        t[3][2],
        t[3][3]
    )
}

fn role(s: &Snapshot) -> &'static str {
    match s.role {
        Role::Read => "read",
        Role::Drawn => "render target",
        Role::ReadThenCopied if s.fetched.is_empty() => "receives the copy",
        Role::ReadThenCopied => "read, then receives the copy",
        Role::Idle => "not used",
    }
}

/// The Markdown of `trace`, whose pass pictures are the files `pictures`.
pub fn trace_md(trace: &Trace, pictures: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Trace of `{}`\n", trace.technique);
    let _ = writeln!(
        s,
        "Made by `gpgpu-repro trace {} --size {} --batch {} --seed {}`. The whole sequence: \
         [trace.gif](trace.gif).\n",
        trace.technique, trace.input.size, trace.input.batch, trace.input.seed
    );
    let _ = writeln!(s, "{}\n", trace.intro);
    for (i, (pass, pic)) in trace.passes.iter().zip(pictures).enumerate() {
        pass_md(&mut s, i, pass, pic);
    }
    let _ = writeln!(s, "## Result\n");
    let _ = writeln!(
        s,
        "`{}` after the last pass {} the same solver's output without the observer bit for \
         bit; {}.",
        trace.result_label,
        if trace.bit_identical() {
            "equals"
        } else {
            "DIFFERS from"
        },
        trace.check
    );
    s
}

/// Pass `i`'s section: its picture `pic`, shader, defines, uniforms, the paper's words, the
/// texels it touched and what it did to each texture.
fn pass_md(s: &mut String, i: usize, pass: &PassRecord, pic: &str) {
    let _ = writeln!(s, "## Pass {}: {}\n", i + 1, pass.title);
    let _ = writeln!(s, "![pass {}]({pic})\n", i + 1);
    let defines: Vec<String> = pass
        .defines
        .iter()
        .map(|d| {
            if d.1.is_empty() {
                format!("`{}`", d.0)
            } else {
                format!("`{} {}`", d.0, d.1)
            }
        })
        .collect();
    let _ = writeln!(
        s,
        "- **Shader:** `glsl/{}` (vertex stage `glsl/common/quad.vert`); defines: {}",
        pass.shader,
        if defines.is_empty() {
            "none".into()
        } else {
            defines.join(", ")
        }
    );
    let uniforms: Vec<String> = pass
        .uniforms
        .iter()
        .map(|(k, v)| format!("`{k}` = {v}"))
        .collect();
    let _ = writeln!(s, "- **Uniforms:** {}", uniforms.join("; "));
    let _ = writeln!(s, "- **Paper:** {}", pass.paper);
    let _ = writeln!(s, "- **Texels:** {}", pass.fetches);
    let _ = writeln!(s, "- **Textures:**");
    for p in &pass.panels {
        panel_md(s, p);
    }
    let _ = writeln!(s);
}

/// One texture's line in a pass's section: its role, and the texels fetched, the quads
/// drawn and the rectangles carried or copied.
fn panel_md(s: &mut String, p: &Snapshot) {
    let mut what = vec![];
    if !p.fetched.is_empty() {
        let n: u64 = p.fetched.iter().map(|r| r.area()).sum();
        let shown: Vec<String> = p.fetched.iter().take(6).map(rect).collect();
        what.push(format!(
            "fetched from {} texels: {}{}",
            n,
            shown.join(", "),
            if p.fetched.len() > 6 { ", …" } else { "" }
        ));
    }
    for q in &p.quads {
        what.push(quad(q));
    }
    for r in &p.carried {
        what.push(format!("{} carried forward (switch method)", rect(r)));
    }
    for r in &p.copied {
        what.push(format!("`glCopyTexSubImage2D` of {} into it", rect(r)));
    }
    let _ = writeln!(
        s,
        "  - {} ({}×{}, {}){}{}",
        p.label,
        p.width,
        p.height,
        role(p),
        if what.is_empty() { "" } else { ": " },
        what.join("; ")
    );
}
