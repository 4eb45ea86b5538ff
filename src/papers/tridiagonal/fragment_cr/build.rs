//! Building a [`FragmentCr`]: the shape checks, the four programs, the `P0`, P1/P2 and X1/X2
//! textures, and one quad batch per pass, each quad repeated in every tile column (Fig. 9:
//! [`tiles`]).

use super::params::{CrParams, CrProfile, FetchCounts};
use super::solver::{FragmentCr, PassQuads};
use crate::gl::{
    Buffer, Format, Gl, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect, RenderTexture,
    TexTarget,
};
use crate::papers::tridiagonal::error::TridiagonalError;
use crate::papers::tridiagonal::layout::{CrLayout, tiles};
use crate::papers::tridiagonal::programs::cr_programs;

impl FragmentCr {
    /// A solver for `cols` tile columns of `rows` systems of `n` unknowns each, side by side
    /// in one texture of `cols·n × rows` (Fig. 9); solve with [`FragmentCr::solve_tiled`].
    /// Tiling (`cols > 1`) needs the switch method: under the copy method one
    /// `glCopyTexSubImage2D` per pass would have to skip the other tiles' guard columns.
    pub fn tiled(
        gl: &Gl,
        n: usize,
        rows: usize,
        cols: usize,
        params: CrParams,
    ) -> Result<FragmentCr, TridiagonalError> {
        let layout = check_shape(gl, n, rows, cols, params.method)?;
        let c = cols as u32;
        let [reduce, fill, copy_p, copy_x] = cr_programs(params.count_fetches, params.arith)
            .map(|(file, defs)| Program::fragment(gl, file, &defs));
        let (reduce, fill, copy_p, copy_x) = (reduce?, fill?, copy_p?, copy_x?);
        let (p0, p, x, out) = textures(gl, &layout, c, params.method)?;
        let quads = pass_quads(gl, &layout, c, params.method)?;
        let counter = if params.count_fetches {
            Some(Buffer::<u32>::zeroed(gl, 2)?)
        } else {
            None
        };
        let name = format!("CR fragment ({})", params.method);
        Ok(FragmentCr {
            gl: gl.clone(),
            layout,
            cols: c,
            params,
            name,
            reduce,
            fill,
            copy_p,
            copy_x,
            p0,
            p,
            x,
            out,
            quads,
            counter,
            fetches: FetchCounts::default(),
            profile: CrProfile::default(),
        })
    }
}

/// The layout of `rows` systems of `n` unknowns in `cols` tile columns, or why the solver
/// cannot take them (an empty shape, tiling under the copy method, a texture too wide).
fn check_shape(
    gl: &Gl,
    n: usize,
    rows: usize,
    cols: usize,
    method: PingPongMethod,
) -> Result<CrLayout, TridiagonalError> {
    if n == 0 || rows == 0 || cols == 0 {
        return Err(TridiagonalError::Shape(format!(
            "{n} unknowns × {rows} systems × {cols} tile columns: each must be at least 1"
        )));
    }
    if cols > 1 && method != PingPongMethod::Switch {
        return Err(TridiagonalError::Unsupported(
            "tiled batches (Fig. 9) with the copy method: use the switch method".into(),
        ));
    }
    let layout = CrLayout::new(n, rows);
    let max = gl.info().max_rectangle_texture_size.max(0) as u64;
    let widest = (layout.np as u64 + 3) * cols as u64;
    if widest > max || rows as u64 > max {
        return Err(TridiagonalError::Unsupported(format!(
            "{n} unknowns × {rows} systems × {cols} tile columns need a {widest}×{rows} \
             texture; the device's largest rectangle texture is {max}×{max}"
        )));
    }
    Ok(layout)
}

/// The identity-padded `P0` (when `n` is not `2^q − 1`), the P1/P2 and X1/X2 ping-pongs and
/// the result texture, each `c` tile columns wide.
fn textures(
    gl: &Gl,
    layout: &CrLayout,
    c: u32,
    method: PingPongMethod,
) -> Result<(Option<RenderTexture>, PingPong, PingPong, RenderTexture), TridiagonalError> {
    let (n, np, b) = (layout.n, layout.np, layout.batch as u32);
    let padded = layout.padded();
    let p0 = if padded as usize != n {
        let t = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, padded * c, b, None)?;
        t.clear([0.0, 1.0, 0.0, 0.0]); // identity rows beyond n
        Some(t)
    } else {
        None
    };
    let pw = layout.p_width;
    let p = PingPong::new(
        gl,
        method,
        TexTarget::Rect,
        Format::RGBA32F,
        pw * c,
        b,
        &vec![0f32; 4 * (pw * c * b) as usize],
    )?;
    // X: N' + 1 values of the fill plus two guard columns of zeros at N'+1, N'+2 that
    // hold y^(q+1) = (x_0, x_N') for the first fill level (never written).
    let xw = np + 3;
    let x = PingPong::new(
        gl,
        method,
        TexTarget::Rect,
        Format::R32F,
        xw * c,
        b,
        &vec![0f32; (xw * c * b) as usize],
    )?;
    let out = RenderTexture::new(gl, TexTarget::Rect, Format::R32F, n as u32 * c, b, None)?;
    Ok((p0, p, x, out))
}

/// One quad batch per pass: pad, every reduction level, the switch method's gather, every
/// fill level, collect; each quad repeated in the `c` tile columns.
fn pass_quads(
    gl: &Gl,
    layout: &CrLayout,
    c: u32,
    method: PingPongMethod,
) -> Result<PassQuads, TridiagonalError> {
    let (nn, np, b) = (layout.n as u32, layout.np, layout.batch as u32);
    let (padded, pw, xw) = (layout.padded(), layout.p_width, np + 3);
    let batch = |quads: Vec<Quad>| QuadBatch::new(gl, &quads);
    let pad = batch(tiles(
        Quad::identity(Rect::new(0, 0, nn, b)),
        c,
        padded,
        nn,
        nn,
    ))?;
    let reduce = layout
        .levels
        .iter()
        .map(|l| {
            let src = if l.s == 1 { padded } else { pw };
            batch(tiles(layout.reduce_quad(l), c, pw, src, src))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // The gather (switch method): the even levels' runs into the odd levels' buffer.
    let gather = if method == PingPongMethod::Switch && layout.levels.len() >= 2 {
        let runs: Vec<_> = layout
            .levels
            .iter()
            .filter(|l| l.s % 2 == 0)
            .flat_map(|l| tiles(Quad::identity(Rect::new(l.ps, 0, l.pc, b)), c, pw, pw, pw))
            .collect();
        Some(batch(runs)?)
    } else {
        None
    };
    let fill = (1..=layout.q)
        .map(|s| {
            let mut quad = layout.fill_quad(s);
            if s == layout.q {
                // y^(q+1) lives in the guard columns N'+1, N'+2.
                for t in &mut quad.tex {
                    t[0] += (np + 1) as f32;
                }
            }
            let zw = if s == 1 { padded } else { pw };
            batch(tiles(quad, c, xw, xw, zw))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let collect = batch(tiles(layout.collect_quad(), c, nn, xw, xw))?;
    Ok(PassQuads {
        pad,
        reduce,
        gather,
        fill,
        collect,
    })
}
