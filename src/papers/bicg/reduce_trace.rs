//! What each pass of [`super::fragment::FragmentBicg`]'s reduction chain is, for a
//! [`PassObserver`](crate::gl::PassObserver) (the `trace` command).
//!
//! A dot product `Σ aᵢbᵢ` or a max-norm `max |aᵢ|` of vectors stored as `W × H` R32F
//! textures is a chain of 2×2 → 1 passes (Krüger & Westermann 2003; Bolz et al. 2003):
//! output texel `t` of a pass combines source texels `2t + {0,1}²`, texels beyond the source
//! counting as 0. The first pass multiplies the two vectors (`PRODUCT`) or takes `|a|`
//! (`ABS`); the last renders one texel, the slot of the results texture the host reads.

use crate::gl::{Define, Panel, PassInfo, Quad, Rect, Role, Texture};

/// The reduction's shader: one 2×2 → 1 pass.
pub const REDUCE: &str = "bicg/frag_reduce.frag";

/// The `#define`s of the reduction's first pass and of its later passes, for a sum (dot
/// product) or a max (max-norm).
pub(super) fn reduce_defines(max: bool, first: bool) -> Vec<Define> {
    match (max, first) {
        (false, true) => vec![Define::flag("PRODUCT")],
        (false, false) => vec![],
        (true, true) => vec![Define::flag("ABS"), Define::flag("MAX")],
        (true, false) => vec![Define::flag("MAX")],
    }
}

/// The one channel of a vector texel.
pub const V: &[&str] = &["v"];

/// One level of the chain: `sources` (label, texture) read in full (`size` texels), the
/// output `target` drawn over `quad`.
#[allow(clippy::too_many_arguments)]
pub(super) fn level_info<'a>(
    max: bool,
    level: usize,
    levels: usize,
    sources: Vec<(String, &'a Texture)>,
    size: (u32, u32),
    target: (&str, &'a Texture),
    quad: Quad,
    slot: u32,
) -> PassInfo<'a> {
    let mut panels = vec![];
    for (label, tex) in &sources {
        let mut p = Panel::new(label.clone(), tex, Role::Read, V, 0);
        p.fetched = vec![Rect::new(0, 0, size.0, size.1)];
        panels.push(p);
    }
    let mut out = Panel::new(target.0, target.1, Role::Drawn, V, 1);
    out.quads = vec![quad];
    panels.push(out);
    let [x0, y0, x1, y1] = quad.dst;
    let (ow, oh) = ((x1 - x0) as u32, (y1 - y0) as u32);
    let op = match (max, level == 0) {
        (false, true) => "a·b, summed",
        (false, false) => "summed",
        (true, true) => "|a|, max",
        (true, false) => "max",
    };
    let names: Vec<&str> = ["u_a", "u_b"][..sources.len()].to_vec();
    let mut uniforms: Vec<(String, String)> = names
        .iter()
        .zip(&sources)
        .enumerate()
        .map(|(u, (n, (l, _)))| (n.to_string(), format!("{l} (texture unit {u})")))
        .collect();
    uniforms.push(("u_size".into(), format!("({}, {})", size.0, size.1)));
    let last = level == levels;
    uniforms.push((
        "u_origin".into(),
        if last {
            format!("({slot}, 0)")
        } else {
            "(0, 0)".into()
        },
    ));
    PassInfo {
        title: format!(
            "{} level {}: {}×{} → {ow}×{oh}",
            if max { "max-norm" } else { "dot product" },
            level + 1,
            size.0,
            size.1
        ),
        shader: REDUCE,
        defines: reduce_defines(max, level == 0),
        uniforms,
        paper: format!(
            "the dot products and norms of Bi-CG (Park, Woo & Kim 2011 ran them in CUDA) as \
             fragment passes, the way Krüger & Westermann 2003 and Bolz et al. 2003 reduced \
             on GPUs without compute shaders{}",
            if last {
                format!("; the last pass writes texel {slot} of the results texture")
            } else {
                String::new()
            }
        ),
        fetches: format!(
            "{ow}×{oh} fragments; fragment t fetches the 2×2 source texels 2t + {{0,1}}² \
             ({}), those beyond {}×{} count as 0, {op}",
            if level == 0 && !max {
                "from both vectors: 8 fetches"
            } else {
                "4 fetches"
            },
            size.0,
            size.1
        ),
        panels,
    }
}
