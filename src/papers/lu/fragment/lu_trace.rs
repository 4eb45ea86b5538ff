//! What each pass of [`super::solver::FragmentLu`] is, for a [`PassObserver`](crate::gl::PassObserver)
//! (the `trace` command): the programs of [`ProgramSet`] the decomposition builds, the
//! uniforms it sets, the quads it draws (computing ones, then the carried texels of the
//! "switch (carry)" form; the paper's switch draws I1/I3/I4's L passes into a third texture,
//! shown as `A_L`), the texels each fragment fetches, and the paper's figure.
//!
//! Step `i` (0-based here; the paper counts from 1) of right-looking LU (Fig. 2):
//! `A_ji /= A_ii` for `j > i` (the L column), then `A_jk −= A_ik · A_ji` for `j, k > i` (the
//! trailing block). Scalar layout (I1, I2): texel `(k, j)` holds `A_jk`; vector layout (I3,
//! I4): texel `(b, k)` holds `A_{4b+c, k}` in channel `c`.

use super::layout::{Kind, PassPlan, layout};
use super::params::{Params, Variant};
use super::programs::{L_FRAG, ONEPASS_FRAG, ProgramSet, U_FRAG};
use crate::gl::observe::{pair_label, pair_panels};
use crate::gl::{Define, Panel, PassInfo, PingPong, Quad, Rect, Role, Texture};

/// Channels shown of a scalar texel (the red one holds `A_jk`).
pub const SCALAR: &[&str] = &["A"];
/// Channels of a vector texel: rows `4b + 0 … 4b + 3`.
pub const VECTOR: &[&str] = crate::gl::observe::LANES;

/// The [`PassInfo`] of `pass` (carrying `carry` under the switch method), reading buffer
/// `reading` of `pp`.
pub(super) fn pass_info<'a>(
    params: &Params,
    np: usize,
    pass: &PassPlan,
    carry: &[Rect],
    pp: &'a PingPong,
    reading: usize,
    l_tex: Option<&'a Texture>,
) -> PassInfo<'a> {
    let v = params.variant;
    let r = pass.rect;
    let i = pass.step as u32;
    let (shader, defines) = program(params, pass);
    let quads = computing_quads(v, pass);
    let computing = quads.len();
    let (mut fetched, per_fragment) = fetched(v, pass);
    fetched.extend(carry.iter().copied());
    let uniforms = uniforms(params, np, pass, pp, reading);
    let (channels, rows) = if v.vector() {
        (VECTOR, "col")
    } else {
        (SCALAR, "row")
    };
    let into_l = l_tex.is_some() && matches!(pass.kind, Kind::L);
    let mut panels = pair_panels(
        pp,
        "A",
        channels,
        0,
        reading,
        fetched.clone(),
        quads.clone(),
        r,
    );
    for p in &mut panels {
        p.rows = rows;
        if p.role == Role::Drawn {
            p.carried = carry.to_vec();
            if into_l {
                // The paper's switch method: the L pass draws into the L texture instead.
                p.role = Role::Idle;
                p.quads.clear();
            }
        }
    }
    if let Some(l) = l_tex {
        // The third texture of the paper's switch method (I1, I3, I4): drawn by the L passes,
        // read (the L column) by the U passes.
        let mut panel = Panel::new("A_L", l, Role::Read, channels, 0);
        panel.rows = rows;
        if into_l {
            panel.role = Role::Drawn;
            panel.quads = quads;
        } else if matches!(pass.kind, Kind::U) {
            panel.fetched = fetched;
        }
        panels.push(panel);
    }
    let what = match pass.kind {
        Kind::L => format!("L column: A_j{i} /= A_{i}{i} for j > {i}"),
        Kind::U => format!("trailing block: A_jk −= A_{i}k · A_j{i} for j, k > {i}"),
        Kind::OnePass => format!("L column and trailing block in one pass (k = {i} branches)"),
    };
    PassInfo {
        title: format!("step i = {i}: {what}"),
        shader,
        defines,
        uniforms,
        paper: paper(v, pass),
        fetches: fetches(r, computing, per_fragment, carry),
        panels,
    }
}

/// The shader `pass` runs and its defines (I3: the program of the edge's `START`).
fn program(params: &Params, pass: &PassPlan) -> (&'static str, Vec<Define>) {
    let v = params.variant;
    let set = ProgramSet::of(
        v,
        params.fetch_only,
        params.arith,
        params.separate_l(),
        params.i2,
    );
    let s = pass.start;
    match (v, pass.kind) {
        (Variant::I2, _) => (ONEPASS_FRAG, set.onepass.clone().unwrap_or_default()),
        (_, Kind::L) => (
            L_FRAG,
            set.l[if v == Variant::I3 { s as usize } else { 0 }].clone(),
        ),
        _ => (
            U_FRAG,
            set.u[if v == Variant::I3 { s as usize } else { 0 }].clone(),
        ),
    }
}

/// The computing draws: I3 draws the edge column with START = s and the rest apart.
fn computing_quads(v: Variant, pass: &PassPlan) -> Vec<Quad> {
    let (r, s) = (pass.rect, pass.start);
    let mut quads = vec![];
    if v == Variant::I3 && s != 0 {
        quads.push(Quad::identity(Rect::new(r.x, r.y, 1, r.h)));
        if r.w > 1 {
            quads.push(Quad::identity(Rect::new(r.x + 1, r.y, r.w - 1, r.h)));
        }
    } else {
        quads.push(Quad::identity(r));
    }
    quads
}

/// The texels the pass's fragments fetch (their own, then the operands), and what one
/// fragment fetches, in words.
fn fetched(v: Variant, pass: &PassPlan) -> (Vec<Rect>, &'static str) {
    let r = pass.rect;
    let i = pass.step as u32;
    let pb = i / 4;
    let mut fetched = vec![r];
    let per_fragment = match (v.vector(), pass.kind) {
        (false, Kind::L) => {
            fetched.push(Rect::new(i, i, 1, 1));
            "2 texels: its own A_ji and the pivot A_ii"
        }
        (false, Kind::U) => {
            fetched.push(Rect::new(i, r.y, 1, r.h));
            fetched.push(Rect::new(r.x, i, r.w, 1));
            "3 texels: its own A_jk, A_ji of the L column and A_ik of the pivot row"
        }
        (_, Kind::OnePass) => {
            fetched.push(Rect::new(i, i, r.w, 1));
            "4 texels: its own A_jk, A_ji, A_ik and the pivot A_ii"
        }
        (true, Kind::L) => {
            fetched.push(Rect::new(pb, i, 1, 1));
            "2 RGBA texels: its own four rows of column i and the pivot's texel"
        }
        (true, Kind::U) => {
            fetched.push(Rect::new(r.x, i, r.w, 1));
            fetched.push(Rect::new(pb, r.y, 1, r.h));
            "3 RGBA texels: its own four rows, the four L values of column i (same rows) and \
             the texel holding A_ik (row i, channel i mod 4)"
        }
    };
    (fetched, per_fragment)
}

/// The uniforms the pass sets: the texture read, the step, the vector layout's texel and
/// channel (I4: the edge and its first channel) and the target's size.
fn uniforms(
    params: &Params,
    np: usize,
    pass: &PassPlan,
    pp: &PingPong,
    reading: usize,
) -> Vec<(String, String)> {
    let (w, h, _) = layout(*params, np);
    let v = params.variant;
    let (r, s) = (pass.rect, pass.start);
    let i = pass.step as u32;
    let (pb, c) = (i / 4, i % 4);
    let mut uniforms = vec![
        (
            "u_a".to_string(),
            format!("{} (texture unit 0)", pair_label(pp.method(), "A", reading)),
        ),
        ("u_i".into(), i.to_string()),
    ];
    if params.separate_l() && matches!(pass.kind, Kind::U) {
        uniforms.push(("u_l".into(), "A_L (texture unit 1)".into()));
    }
    if v.vector() {
        uniforms.push(("u_pb".into(), pb.to_string()));
        uniforms.push(("u_c".into(), c.to_string()));
        if v == Variant::I4 {
            uniforms.push(("u_edge".into(), r.x.to_string()));
            uniforms.push(("u_start".into(), s.to_string()));
        }
    }
    uniforms.push(("u_target".into(), format!("({w}, {h})")));
    uniforms
}

/// The paper's figure and section for the pass.
fn paper(v: Variant, pass: &PassPlan) -> String {
    let (r, s) = (pass.rect, pass.start);
    let i = pass.step;
    match (v, pass.kind) {
        (Variant::I1, _) => "Fig. 2 (right-looking LU) and Fig. 3 (I1: an L pass and a U pass per \
                             step, the CPU picks the program), §3.4"
            .to_string(),
        (Variant::I2, _) => "Fig. 4 (I2: one pass per step; the fragment branches: \
                             if k == i then A_ji /= A_ii else A_jk −= A_ik·A_ji/A_ii), §3.4"
            .to_string(),
        (Variant::I3, _) => format!(
            "§3.5, Fig. 5(d) (I3: four rows per RGBA texel; the left-edge texel column {} \
             keeps its first {s} channels (rows ≤ {i}): the CPU draws it with the program \
             START = {s}, the rest with START = 0)",
            r.x
        ),
        (Variant::I4, _) => format!(
            "§3.5, Fig. 5(d) (I4: I3's layout with one program; the fragment at the edge \
             column u_edge = {} branches and writes only channels ≥ u_start = {s})",
            r.x
        ),
    }
}

/// The fragments of rectangle `r` in `computing` draws, what each fetches, and the texels
/// carried under the switch method.
fn fetches(r: Rect, computing: usize, per_fragment: &str, carry: &[Rect]) -> String {
    let carried: u64 = carry.iter().map(|c| c.area()).sum();
    format!(
        "{}×{} fragments in {} draw{}; each fetches {per_fragment} and writes 1 texel{}",
        r.w,
        r.h,
        computing,
        if computing == 1 { "" } else { "s" },
        if carried > 0 {
            format!(
                "; plus {carried} carried texels (switch method: what the previous pass \
                 computed outside this pass's rectangle, copied by lu/copy.frag so the new \
                 target is complete)"
            )
        } else {
            String::new()
        }
    )
}
