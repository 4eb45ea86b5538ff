//! What each pass of [`super::FragmentCr`] is, for a [`PassObserver`](crate::gl::PassObserver)
//! (the `trace` command).
//!
//! One function per kind of pass builds its [`PassInfo`]: the shader and defines of
//! [`crate::papers::tridiagonal::programs::cr_programs`] (the very programs the solver uses), the uniforms, the
//! quad with the texture coordinates that do the index mapping (§3.2), the texels each
//! fragment fetches, and the paper's equation. A tiled solver (Fig. 9, `cols` tile columns
//! side by side: [`crate::papers::tridiagonal::tiled`]) draws one quad per tile column and fetches the same runs
//! in every column; the texts describe the first column.
//!
//! With `N' = 2^q`, level `s` of the reduction (eq. 15) writes `PC_s = N'/2^s − 1` RGBA
//! texels at `[PS_s, PS_s + PC_s)` and reads the `TW_s = 2·PC_s + 1` texels of level `s − 1`
//! at `[TS_s, TS_s + TW_s)`; fill level `s` (eq. 16) writes `W_s = N'/2^{s−1} + 1` values of
//! `x` at multiples of `2^{s−1}`, reading `⌊W_s/2⌋ + 1` values of the previous fill level and
//! the odd positions' equations of reduction level `s − 1`.

use super::params::CrParams;
use crate::gl::observe::{pair_label, pair_panels};
use crate::gl::{Panel, PassInfo, PingPong, Quad, Rect, Role, Texture};
use crate::papers::tridiagonal::layout::{CrLayout, Level, tiles};
use crate::papers::tridiagonal::programs::cr_programs;

/// Channels of a `P` texel: the equation `a x_{i−1} + b x_i + c x_{i+1} = k`.
pub const ABCK: &[&str] = &["a", "b", "c", "k"];
/// The one channel of an `X` texel.
pub const X: &[&str] = &["x"];

fn program(params: &CrParams, i: usize) -> (&'static str, Vec<crate::gl::Define>) {
    cr_programs(params.count_fetches, params.arith)[i].clone()
}

fn target(w: u32, h: u32) -> (String, String) {
    ("u_target".into(), format!("({w}, {h})"))
}

fn sampler(name: &str, unit: u32, tex: &str) -> (String, String) {
    (name.into(), format!("{tex} (texture unit {unit})"))
}

/// Single-texel-wide rectangles at columns `x0, x0 + step, …` (`count` of them).
fn columns(x0: u32, step: u32, count: u32, h: u32) -> Vec<Rect> {
    (0..count)
        .map(|j| Rect::new(x0 + j * step, 0, 1, h))
        .collect()
}

/// `what` a pass's fragments fetch, said of the first tile column and, with `cols > 1`, of
/// every other.
fn per_column(what: String, cols: u32) -> String {
    if cols > 1 {
        format!(
            "{what} — in the first tile column; the same in each of the {cols} (one quad \
             each, one draw call)"
        )
    } else {
        what
    }
}

/// `rects` repeated in tile columns `0 … cols − 1`, `stride` texels apart.
fn across(rects: Vec<Rect>, cols: u32, stride: u32) -> Vec<Rect> {
    (0..cols)
        .flat_map(|c| {
            rects
                .iter()
                .map(move |r| Rect::new(r.x + c * stride, r.y, r.w, r.h))
        })
        .collect()
}

/// The pad pass: the caller's `n` columns into the identity-padded `P0`.
pub fn pad<'a>(
    l: &CrLayout,
    params: &CrParams,
    cols: u32,
    systems: &'a Texture,
    p0: &'a Texture,
) -> PassInfo<'a> {
    let (n, b) = (l.n as u32, l.batch as u32);
    let (shader, defines) = program(params, 2);
    let mut src = Panel::new("systems", systems, Role::Read, ABCK, 0);
    src.fetched = across(vec![Rect::new(0, 0, n, b)], cols, n);
    let mut dst = Panel::new("P0 (padded)", p0, Role::Drawn, ABCK, 0);
    let pn = l.padded();
    dst.quads = tiles(Quad::identity(Rect::new(0, 0, n, b)), cols, pn, n, n);
    PassInfo {
        title: format!("pad: {n} equations into P0 of N = {}", l.padded()),
        shader,
        defines,
        uniforms: vec![sampler("u_src", 0, "systems"), target(p0.width(), b)],
        paper: "§3.1 takes N = 2^q − 1; other sizes get identity rows (0, 1, 0, 0) (ours)".into(),
        fetches: per_column(
            format!("{n}×{b} fragments each fetch 1 RGBA texel and write it unchanged"),
            cols,
        ),
        panels: vec![src, dst],
    }
}

/// Reduction level `l.s` (eq. 15), reading `P0` (`s = 1`) or buffer `reading` of `p`.
pub fn reduce<'a>(
    l: &CrLayout,
    params: &CrParams,
    cols: u32,
    lv: &Level,
    p0: &'a Texture,
    p: &'a PingPong,
    reading: usize,
) -> PassInfo<'a> {
    let b = l.batch as u32;
    let (shader, defines) = program(params, 0);
    let pw = l.p_width;
    let src_w = if lv.s == 1 { l.padded() } else { pw };
    let quads = tiles(l.reduce_quad(lv), cols, pw, src_w, src_w);
    let drawn = Rect::new(lv.ps, 0, (cols - 1) * pw + lv.pc, b);
    let fetched = across(vec![Rect::new(lv.ts, 0, lv.tw, b)], cols, src_w);
    let mut panels = vec![];
    let src = if lv.s == 1 {
        let mut p0p = Panel::new("P0", p0, Role::Read, ABCK, 0);
        p0p.fetched = fetched;
        panels.push(p0p);
        // Level 1 reads P0: the pair's input is not read (under the switch method it is
        // idle; under the copy method it only receives the drawn run).
        for mut q in pair_panels(p, "P", ABCK, 1, reading, vec![], quads, drawn) {
            if q.role == Role::Read {
                q.role = Role::Idle;
            }
            panels.push(q);
        }
        "P0".to_string()
    } else {
        panels.extend(pair_panels(p, "P", ABCK, 1, reading, fetched, quads, drawn));
        pair_label(p.method(), "P", reading)
    };
    let d = 1u32 << (lv.s - 1);
    PassInfo {
        title: format!("reduction level s = {} (d = {d})", lv.s),
        shader,
        defines,
        uniforms: vec![sampler("u_p", 0, &src), target(cols * pw, b)],
        paper: format!(
            "eq. (15), §3.1: a, b, c, k of equations i = {}, {}, … from i and i ∓ {d}; \
             quad of §3.2 (Fig. 2/4): PS_{s} = {}, PC_{s} = {}, TS_{s} = {}, TW_{s} = {}",
            2 * d,
            4 * d,
            lv.ps,
            lv.pc,
            lv.ts,
            lv.tw,
            s = lv.s
        ),
        fetches: per_column(
            format!(
                "{pc}×{b} fragments; fragment j fetches 3 RGBA texels of level {s1} at \
             TS + 2j, TS + 2j + 1, TS + 2j + 2 (P_(i−d), P_i, P_(i+d): .xy and offsets ∓1) and \
             writes 1 RGBA texel at PS + j: {} texels fetched, {} written",
                3 * lv.pc * b,
                lv.pc * b,
                pc = lv.pc,
                s1 = lv.s - 1
            ),
            cols,
        ),
        panels,
    }
}

/// The switch method's gather: the even levels' runs into the odd levels' buffer.
pub fn gather<'a>(
    l: &CrLayout,
    params: &CrParams,
    cols: u32,
    p: &'a PingPong,
    reading: usize,
) -> PassInfo<'a> {
    let b = l.batch as u32;
    let (shader, defines) = program(params, 2);
    let runs: Vec<Rect> = l
        .levels
        .iter()
        .filter(|v| v.s % 2 == 0)
        .map(|v| Rect::new(v.ps, 0, v.pc, b))
        .collect();
    let pw = l.p_width;
    let quads = runs
        .iter()
        .flat_map(|r| tiles(Quad::identity(*r), cols, pw, pw, pw))
        .collect();
    let count: u32 = runs.iter().map(|r| r.w).sum();
    let fetched = across(runs.clone(), cols, pw);
    let mut panels = pair_panels(p, "P", ABCK, 1, reading, fetched, quads, runs[0]);
    for panel in &mut panels {
        panel.copied.clear();
    }
    PassInfo {
        title: "gather: even levels into the odd levels' buffer".into(),
        shader,
        defines,
        uniforms: vec![
            sampler("u_src", 0, &pair_label(p.method(), "P", reading)),
            target(cols * pw, b),
        ],
        paper: "§3.2, Fig. 2: the level runs are gathered into the buffer that holds more \
                data (the odd levels), the even levels' runs are copied over"
            .into(),
        fetches: per_column(
            format!("{count}×{b} fragments each fetch 1 RGBA texel and write it unchanged"),
            cols,
        ),
        panels,
    }
}

/// Fill level `s` (eq. 16): X ping-pong, reading reduction level `s − 1` from `levels`
/// (`P0` for `s = 1`, labelled `levels_label`).
#[allow(clippy::too_many_arguments)]
pub fn fill<'a>(
    l: &CrLayout,
    params: &CrParams,
    cols: u32,
    s: usize,
    levels: &'a Texture,
    levels_label: &str,
    x: &'a PingPong,
    reading: usize,
) -> PassInfo<'a> {
    let b = l.batch as u32;
    let (shader, defines) = program(params, 1);
    let w = l.fill_width(s);
    let mut quad = l.fill_quad(s);
    let x_off = if s == l.q { l.np + 1 } else { 0 };
    for t in &mut quad.tex {
        t[0] += x_off as f32;
    }
    let ps = l.run_start(s - 1);
    let (xw, zw) = (l.np + 3, if s == 1 { l.padded() } else { l.p_width });
    let mut lp = Panel::new(levels_label, levels, Role::Read, ABCK, 0);
    lp.fetched = across(columns(ps, 2, w / 2, b), cols, zw);
    let mut panels = vec![lp];
    panels.extend(pair_panels(
        x,
        "X",
        X,
        1,
        reading,
        across(vec![Rect::new(x_off, 0, w / 2 + 1, b)], cols, xw),
        tiles(quad, cols, xw, xw, zw),
        Rect::new(0, 0, (cols - 1) * xw + w, b),
    ));
    let d = 1u32 << (s - 1);
    let src_note = if s == l.q {
        format!(
            " (level q reads the boundary values x_0 = x_N' = 0 from the guard columns {}, {})",
            l.np + 1,
            l.np + 2
        )
    } else {
        String::new()
    };
    PassInfo {
        title: format!("fill level s = {s}: x at multiples of {d}"),
        shader,
        defines,
        uniforms: vec![
            sampler("u_x", 0, &pair_label(x.method(), "X", reading)),
            sampler("u_p", 1, levels_label),
            target(cols * xw, b),
        ],
        paper: format!(
            "eq. (16), §3.1, Fig. 3: x_i = (k_i − a_i x_(i−{d}) − c_i x_(i+{d})) / b_i with \
             level {} coefficients, i = {d}, {}, …; known x copied",
            s - 1,
            3 * d
        ),
        fetches: per_column(
            format!(
                "{w}×{b} fragments m = 0 … {}: even m copy x_(m/2) of the previous level (1 fetch); \
             the {} odd m fetch x_((m−1)/2), x_((m+1)/2) and the RGBA equation at position \
             PS_{} + m − 1 = {ps} + m − 1{src_note}",
                w - 1,
                w / 2,
                s - 1
            ),
            cols,
        ),
        panels,
    }
}

/// The collect pass: `x_1 … x_n` of the last fill level into the result.
pub fn collect<'a>(
    l: &CrLayout,
    params: &CrParams,
    cols: u32,
    x: &'a PingPong,
    out: &'a Texture,
) -> PassInfo<'a> {
    let (n, b) = (l.n as u32, l.batch as u32);
    let (shader, defines) = program(params, 3);
    let (pair, reading) = x.pair();
    let label = pair_label(x.method(), "X", reading);
    let mut src = Panel::new(label.clone(), pair[reading], Role::Read, X, 0);
    let xw = l.np + 3;
    src.fetched = across(vec![Rect::new(1, 0, n, b)], cols, xw);
    let mut dst = Panel::new("x (result)", out, Role::Drawn, X, 1);
    dst.quads = tiles(l.collect_quad(), cols, n, xw, xw);
    PassInfo {
        title: "collect x_1 … x_n".into(),
        shader,
        defines,
        uniforms: vec![sampler("u_src", 0, &label), target(cols * n, b)],
        paper: "§3.2: the unknowns gathered into one buffer (boundary zeros dropped)".into(),
        fetches: per_column(
            format!("{n}×{b} fragments each fetch 1 value x_(i) at texel i and write it at i − 1"),
            cols,
        ),
        panels: vec![src, dst],
    }
}
