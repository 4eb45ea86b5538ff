//! What each pass of [`super::FragmentCg`] is, for a [`PassObserver`](crate::gl::PassObserver)
//! (the `trace` command).
//!
//! The paper's Table 1 lists the CG baseline pass by pass, with the texels each element
//! fetches: `r⁰ = k − M x⁰` (7), then per iteration `ρ = rᵀr` (1, then `N/3` fragments of a
//! 2×2 reduction with 4 fetches), `β = ρ/ρ_old`, `p = r + β p` (2), `q = M p` (6),
//! `α = ρ / pᵀq` (1 + the reduction), `x = x + α p` (2, eq. (17), Fig. 10), `r = r − α q` (2).
//! [`pass_info`] builds the [`PassInfo`] of one of those passes from what the solver draws:
//! the programs of [`crate::papers::tridiagonal::programs::cg_programs`] (the very ones it builds), the textures
//! bound to each sampler, the target and the quad. Every source texture is fetched in full
//! (the 3-point stencil's neighbours `∓1` included: at a row's ends they are the zero `a_1`,
//! `c_n` times a clamped texel); a pass that reads one buffer of a pair (`x1`/`x2`, `r1`/`r2`,
//! `p1`/`p2`) and writes the other shows the two side by side.

use super::params::CgParams;
use crate::gl::observe::LANES;
use crate::gl::{Format, Panel};
use crate::gl::{PassInfo, Quad, Rect, Role, Texture};
use crate::papers::tridiagonal::fragment_cr::trace::ABCK;
use crate::papers::tridiagonal::programs::cg_programs;

/// The one channel of a scalar (R32F) vector texel.
pub const V: &[&str] = &["v"];

/// A pass of [`super::FragmentCg`], with its index in [`cg_programs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Coefficient channel `0 … 3` (a, b, c, k) into its own texture (set-up).
    Pack(usize),
    /// `r = k − M x` (set-up).
    Residual,
    /// The squares `r_i²` of `ρ = r·r`.
    Square,
    /// Level `level` (0-based) of `levels` of the 2×2 reduction of the dot product `of`.
    Reduce {
        of: &'static str,
        level: usize,
        levels: usize,
    },
    /// `p = r + β p`.
    Direction,
    /// `q = M p`.
    Matvec,
    /// The products `p_i q_i` of `p·q`.
    Mul,
    /// `x = x + α p`.
    Add,
    /// `r = r − α q`.
    Sub,
    /// `x` into the R32F result.
    Unpack,
}

impl Step {
    fn program(self) -> usize {
        match self {
            Step::Pack(c) => c,
            Step::Unpack => 4,
            Step::Residual => 5,
            Step::Matvec => 6,
            Step::Square => 7,
            Step::Mul => 8,
            Step::Reduce { .. } => 9,
            Step::Direction => 10,
            Step::Add => 11,
            Step::Sub => 12,
        }
    }

    /// Title, the paper's line, what a fragment fetches (`texel`: "RGBA texel" or "texel").
    fn words(self, lanes: u32) -> (String, String, String) {
        match self {
            Step::Pack(_) | Step::Residual | Step::Unpack => self.setup_words(lanes),
            _ => self.iteration_words(lanes),
        }
    }

    /// [`Self::words`] of the passes around the iterations: the set-up and the result.
    fn setup_words(self, lanes: u32) -> (String, String, String) {
        let (t1, (one, stencil)) = (T1, texel_words(lanes));
        match self {
            Step::Pack(c) => words3(
                &format!("set-up: coefficient {} into its own texture", ABCK[c]),
                "set-up, not counted in Table 1: the vectors are scalar textures, or four \
                 consecutive unknowns per RGBA texel (Table 1's \"vector texture\")"
                    .into(),
                format!(
                    "fragment t fetches channel {} ({}) of the equations {} (texelFetch) and \
                     writes 1 {one}; unknowns beyond n become identity rows (b = 1), a_1 and \
                     c_n (they multiply the zero boundary) are zeroed",
                    c,
                    ABCK[c],
                    if lanes == 4 { "4t … 4t+3" } else { "t" }
                ),
            ),
            Step::Residual => words3(
                "set-up: r = k − M x (x = 0)",
                format!("{t1}: r⁰ = k − M x⁰, 7 fetches per element"),
                format!(
                    "each fragment fetches {stencil} of x, and a, b, c, k: 7 fetches, 1 {one} written"
                ),
            ),
            Step::Unpack => words3(
                "x into the R32F result (n × batch)",
                "not in Table 1: the result in the layout every solver of the paper returns".into(),
                format!(
                    "fragment i fetches the {one} holding x_i (texelFetch) and writes that lane"
                ),
            ),
            _ => unreachable!("an iteration's pass"),
        }
    }

    /// [`Self::words`] of the passes of one iteration.
    fn iteration_words(self, lanes: u32) -> (String, String, String) {
        let (t1, (one, stencil)) = (T1, texel_words(lanes));
        match self {
            Step::Square => words3(
                "ρ = r·r: the squares r_i²",
                format!("{t1}: ρ = rᵀr, N fragments with 1 fetch"),
                format!("each fragment fetches 1 {one} of r and writes its square"),
            ),
            Step::Reduce { of, level, levels } => words3(
                &format!("{of}: reduction {}/{levels} (2×2 → 1)", level + 1),
                format!(
                    "{t1}: the sum of the products, N/3 fragments (N/4 + N/16 + …) with 4 \
                     fetches{}",
                    if level + 1 == levels {
                        "; this last pass writes the 1×1 scalar texture that the next passes \
                         fetch (the scalar never leaves the GPU)"
                    } else {
                        ""
                    }
                ),
                format!(
                    "fragment t fetches the 2×2 source texels 2t + {{0,1}}² (those beyond \
                     u_size count as 0) and writes their sum{}",
                    if lanes == 4 {
                        " lane by lane (the 4 lanes are added when the scalar is fetched)"
                    } else {
                        ""
                    }
                ),
            ),
            Step::Direction => words3(
                "p = r + β p, β = ρ/ρ_old",
                format!(
                    "{t1}: β = ρ^(it−1)/ρ^(it−2), p^it = r^(it−1) + β p^(it−1), 2 fetches (ρ and \
                     ρ_old: 1×1 textures, not counted); before the first iteration p = 0 and \
                     ρ_old = 1, so p = r"
                ),
                format!("each fragment fetches 1 {one} of r and of p, and the 2 scalars"),
            ),
            Step::Matvec => words3(
                "q = M p: the 3-point stencil",
                format!("{t1}: q^it = M p^it, 6 fetches"),
                format!("each fragment fetches {stencil} of p, and a, b, c: 6 fetches"),
            ),
            Step::Mul => words3(
                "α = ρ/(p·q): the products p_i q_i",
                format!("{t1}: pᵀq, N fragments with 1 fetch per vector"),
                format!("each fragment fetches 1 {one} of p and of q and writes their product"),
            ),
            Step::Add => words3(
                "x = x + α p, α = ρ/(p·q)",
                format!("eq. (17) and Fig. 10 (its Cg code); {t1}: 2 fetches"),
                format!("each fragment fetches 1 {one} of x and of p, and the 2 scalars"),
            ),
            Step::Sub => words3(
                "r = r − α q",
                format!("{t1}: r^it = r^(it−1) − α q^it, 2 fetches"),
                format!("each fragment fetches 1 {one} of r and of q, and the 2 scalars"),
            ),
            _ => unreachable!("a set-up pass"),
        }
    }
}

/// Where the passes' lines come from.
const T1: &str = "Table 1 (the CG baseline, Krüger & Westermann 2003 / Bolz et al. 2003 style)";

/// What a fragment of a `lanes`-lane vector fetches: one texel, and the 3-point stencil.
fn texel_words(lanes: u32) -> (&'static str, &'static str) {
    let one = if lanes == 4 {
        "RGBA texel (4 unknowns)"
    } else {
        "texel"
    };
    let stencil = if lanes == 4 {
        "v_(i−1), v_i, v_(i+1): the texel and its left and right neighbours (offsets ∓1), \
         whose last and first lanes complete the stencil of the texel's first and last lane"
    } else {
        "v_(i−1), v_i, v_(i+1) (offsets ∓1)"
    };
    (one, stencil)
}

/// A pass's title, line and fetches as owned strings.
fn words3(a: &str, b: String, c: String) -> (String, String, String) {
    (a.to_string(), b, c)
}

/// Names of the one channel of a scalar texture, by the label's first letter.
const NAMED: &[&str] = &["a", "b", "c", "k", "x", "r", "p", "q"];

/// The channels shown of `tex` (`label` "systems": the equations' a, b, c, k; a scalar
/// texture's one channel is named after its vector or coefficient).
fn channels(label: &str, tex: &Texture) -> &'static [&'static str] {
    match (label, tex.format()) {
        ("systems", _) => ABCK,
        (_, Format::RGBA32F) => LANES,
        _ => NAMED
            .iter()
            .position(|n| label.split(['1', '2', ' ']).next() == Some(*n))
            .map_or(V, |i| &NAMED[i..i + 1]),
    }
}

/// The pair a label belongs to (`p` of `p1`), if it is one of a pair.
fn pair_of(label: &str) -> Option<&str> {
    label.strip_suffix(['1', '2'])
}

/// The [`PassInfo`] of `step`: `sources` (sampler, label, texture) bound in order, drawn over
/// `quad` into `target` (label, texture).
pub fn pass_info<'a>(
    params: &CgParams,
    step: Step,
    sources: &[(&str, String, &'a Texture)],
    target: (&str, &'a Texture),
    quad: Quad,
) -> PassInfo<'a> {
    let lanes = params.packing.lanes();
    let (shader, defines) =
        cg_programs(lanes, params.count_fetches, params.arith)[step.program()].clone();
    let pair = pair_of(target.0);
    let mut panels = vec![];
    let mut uniforms = vec![];
    for (unit, (sampler, label, tex)) in sources.iter().enumerate() {
        let group = u32::from(pair.is_some() && pair_of(label) == pair);
        let mut p = Panel::new(label.clone(), tex, Role::Read, channels(label, tex), group);
        p.fetched = vec![Rect::full(tex.width(), tex.height())];
        panels.push(p);
        uniforms.push((
            sampler.to_string(),
            format!("{label} (texture unit {unit})"),
        ));
    }
    let (tw, th) = (target.1.width(), target.1.height());
    let mut out = Panel::new(
        target.0,
        target.1,
        Role::Drawn,
        channels(target.0, target.1),
        1,
    );
    out.quads = vec![quad];
    panels.push(out);
    match step {
        Step::Pack(_) => uniforms.push(("u_n".into(), format!("{}", sources[0].2.width()))),
        Step::Reduce { .. } => {
            let s = sources[0].2;
            uniforms.push(("u_size".into(), format!("({}, {})", s.width(), s.height())));
        }
        _ => {}
    }
    let (title, paper, fetches) = step.words(lanes);
    let [x0, y0, x1, y1] = quad.dst;
    PassInfo {
        title,
        shader,
        defines,
        uniforms,
        paper,
        fetches: format!(
            "{}×{} fragments over the {tw}×{th} target; {fetches}",
            x1 - x0,
            y1 - y0
        ),
        panels,
    }
}
