//! The batched solver API every solver implements ([`BatchSolver`], see the parent module's
//! docs), and the texture checks and helpers the GPU solvers share.

use super::cpu::Systems;
use super::error::TridiagonalError;
use crate::gl::{Format, Gl, GlError, TexTarget, Texture};

/// The systems as the fragment solvers read them: an RGBA32F rectangle texture, one row per
/// system and one texel (a, b, c, d) per equation.
pub fn upload(gl: &Gl, s: &Systems) -> Result<Texture, GlError> {
    Texture::new(
        gl,
        TexTarget::Rect,
        Format::RGBA32F,
        s.n as u32,
        s.batch as u32,
        Some(&s.data),
    )
}

/// A solver for a batch of tridiagonal systems held in a texture (the layout: the docs of
/// [`crate::papers::tridiagonal`]).
pub trait BatchSolver {
    /// A short label for tables ("CR fragment (switch)", "Thomas CPU f32", …).
    fn name(&self) -> &str;
    /// `(n, batch)`: the unknowns per system and the number of systems it was built for.
    fn shape(&self) -> (usize, usize);
    /// Solves the systems of an RGBA32F rectangle texture `n × batch` (texel = `(a, b, c, k)`)
    /// and returns the R32F rectangle texture `n × batch` of `x` (the same as [`Self::output`]).
    fn solve(&mut self, systems: &Texture) -> Result<&Texture, TridiagonalError>;
    /// The solution of the last `solve` (R32F rectangle, `n × batch`), owned by the solver and
    /// valid until the next `solve`: a caller that keeps state on the GPU between solves (the
    /// ADI simulations) reads it from here, with no copy.
    fn output(&self) -> &Texture;
    /// Turns the finite check after each solve (a readback) on or off; solvers without one
    /// ignore it. Callers that keep the data on the GPU turn it off.
    fn set_check_finite(&mut self, _on: bool) {}
    /// What one `solve` does (bytes, flops, passes or dispatches), counted from the
    /// algorithm for the bound columns ([`crate::bench::bound`]); `None` for CPU solvers.
    fn work(&self) -> Option<crate::bench::Work> {
        None
    }
}

/// Checks that `t` is an RGBA32F rectangle texture of `n × batch`.
pub fn check_systems(t: &Texture, n: usize, batch: usize) -> Result<(), TridiagonalError> {
    if t.format() != Format::RGBA32F
        || t.target() != TexTarget::Rect
        || t.width() as usize != n
        || t.height() as usize != batch
    {
        return Err(TridiagonalError::Shape(format!(
            "expected an RGBA32F rectangle texture {n}×{batch}, got {:?} {:?} {}×{}",
            t.target(),
            t.format(),
            t.width(),
            t.height()
        )));
    }
    Ok(())
}

/// A solver's output texture: R32F rectangle `n × batch`, undefined until a solve writes it
/// ([`BatchSolver::output`]).
pub(crate) fn output_texture(gl: &Gl, n: usize, batch: usize) -> Result<Texture, GlError> {
    Texture::new(
        gl,
        TexTarget::Rect,
        Format::R32F,
        n as u32,
        batch as u32,
        None,
    )
}

/// Reads `x` back and reports the first non-finite value.
pub(crate) fn find_non_finite(x: &Texture, n: usize) -> Result<(), TridiagonalError> {
    let v = x.read()?;
    match v.iter().position(|v| !v.is_finite()) {
        Some(p) => Err(TridiagonalError::NonFinite {
            system: p / n,
            index: p % n,
        }),
        None => Ok(()),
    }
}
