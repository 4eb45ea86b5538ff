//! Jacobi as a fragment pass rendering to a texture: the legacy (GL 3.3) counterpart of
//! [`super::gpu::GpuJacobi`] on the same flattened arrays of [`FlatMatrix`] (§IV, Fig. 4).
//!
//! **Layout.** Every array — `idx`, `val`, `accmSize`, `rhs` and the iterate x — is an R32F
//! 2D texture W texels wide (W a power of two: 4096, or less when the device's
//! `GL_MAX_TEXTURE_SIZE` or the largest array is smaller), element k at texel
//! (k mod W, k div W), the last row padded. Column indices and `accmSize` are stored as
//! floats, exact below 2²⁴ — a matrix with more stored entries is refused
//! ([`MAX_EXACT`]); the 2D perf grid of 1.2 M unknowns has about 11 M.
//!
//! **Passes.** One sweep is one full-texture quad drawn with `fem-storage/jacobi.frag` into
//! the other texture of a switch-method [`PingPong`] (two textures and FBOs, no copies):
//! fragment (px, py) is row i = py·W + px; it loops over its row's entries from
//! `accmSize[i-1]` to `accmSize[i]` with `texelFetch` and writes
//! `x_new[i] = (b[i] − Σ_{k>start} val[k]·x[idx[k]]) / val[start]` — the arithmetic of
//! `jacobi.comp`, in the same order. Padding fragments (i ≥ n) write 0.
//!
//! **Stopping rule.** The same [`drive`](super::jacobi::drive) loop as the compute solver, so iteration counts
//! compare: at every check (`check_every`) the two iterates are read back (x⁽ᵏ⁾ before the
//! pass — or the copy kept from the previous check — and x⁽ᵏ⁺¹⁾ after it) and
//! ‖x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾‖² and ‖x⁽ᵏ⁺¹⁾‖² are summed on the CPU in f64 (f32 differences, as
//! [`super::jacobi::CpuJacobi`]). This reads 8N bytes per check where the compute solver
//! reduces on the GPU and reads 8 bytes; timed runs ([`FragmentJacobi::run_fixed`]) make no
//! checks.

use std::rc::Rc;

use crate::gl::{Define, Format, Gl, PingPong, PingPongMethod, Program, Quad, QuadBatch, Rect};
use crate::gl::{TexTarget, Texture};

use super::error::FemError;
use super::flat::FlatMatrix;
use super::jacobi::JacobiSweeps;

/// The sweep shader.
pub const JACOBI: &str = "fem-storage/jacobi.frag";
/// Widest texture the layout uses (texels).
pub const MAX_WIDTH: u32 = 4096;
/// Indices and offsets are stored as f32: exact up to 2²⁴.
pub const MAX_EXACT: usize = 1 << 24;

/// The `#define`s of the sweep shader for a layout `w` (a power of two) texels wide.
pub fn defines(w: u32) -> Vec<Define> {
    vec![
        Define::new("W", w),
        Define::new("LOG_W", w.trailing_zeros()),
    ]
}

/// Every program this solver builds: (shader file, `#define`s), fragment programs drawn over
/// `common/quad.vert`; one per width, the widest listed.
pub fn programs() -> Vec<(&'static str, Vec<Define>)> {
    vec![(JACOBI, defines(MAX_WIDTH))]
}

/// The layout width for `len` elements on a device whose largest texture is `max_size`.
pub fn width(len: usize, max_size: i32) -> u32 {
    let max = (max_size.max(1) as u32).min(MAX_WIDTH);
    let floor_pow2 = 1u32 << (31 - max.leading_zeros());
    (len.max(1).next_power_of_two().min(floor_pow2 as usize)) as u32
}

/// `data` padded with zeros to whole rows of `w`, and the height.
fn wrap(data: &[f32], w: u32) -> (Vec<f32>, u32) {
    let h = data.len().div_ceil(w as usize).max(1);
    let mut v = data.to_vec();
    v.resize(h * w as usize, 0.0);
    (v, h as u32)
}

/// The fragment Jacobi solver holding the matrix in textures.
pub struct FragmentJacobi {
    gl: Gl,
    n: usize,
    w: u32,
    h: u32,
    sweep: Rc<Program>,
    quad: QuadBatch,
    idx: Texture,
    val: Texture,
    accm: Texture,
    rhs: Texture,
    x: PingPong,
    /// The current iterate on the host, when the last step read it back.
    host: Option<Vec<f32>>,
}

impl FragmentJacobi {
    /// Uploads `m` and starts from x⁽⁰⁾ = 0.
    pub fn new(gl: &Gl, m: &FlatMatrix) -> Result<FragmentJacobi, FemError> {
        let n = m.n();
        if m.entries() > MAX_EXACT || n > MAX_EXACT {
            return Err(FemError::InvalidGrid(format!(
                "{} stored entries: the fragment Jacobi stores indices and offsets as f32, \
                 exact up to {MAX_EXACT}",
                m.entries()
            )));
        }
        let max = gl.info().max_texture_size;
        let w = width(m.entries().max(n), max);
        let tex = |data: &[f32]| -> Result<Texture, FemError> {
            let (d, h) = wrap(data, w);
            Ok(Texture::new(
                gl,
                TexTarget::Tex2D,
                Format::R32F,
                w,
                h,
                Some(&d),
            )?)
        };
        let as_f32 = |v: &[u32]| v.iter().map(|&u| u as f32).collect::<Vec<f32>>();
        let (zeros, h) = wrap(&vec![0.0; n], w);
        let x = PingPong::new(
            gl,
            PingPongMethod::Switch,
            TexTarget::Tex2D,
            Format::R32F,
            w,
            h,
            &zeros,
        )?;
        Ok(FragmentJacobi {
            gl: gl.clone(),
            n,
            w,
            h,
            sweep: Program::fragment(gl, JACOBI, &defines(w))?,
            quad: QuadBatch::new(gl, &[Quad::identity(Rect::full(w, h))])?,
            idx: tex(&as_f32(&m.idx))?,
            val: tex(&m.val)?,
            accm: tex(&as_f32(&m.accm_size))?,
            rhs: tex(&m.rhs)?,
            x,
            host: Some(vec![0.0; n]),
        })
    }

    /// The layout: (width, height of the x textures).
    pub fn layout(&self) -> (u32, u32) {
        (self.w, self.h)
    }

    /// Replaces the current iterate.
    pub fn set_x(&mut self, x: &[f32]) -> Result<(), FemError> {
        let (d, _) = wrap(x, self.w);
        self.x.upload(&d)?;
        self.host = Some(x.to_vec());
        Ok(())
    }

    /// Reads the current iterate back.
    pub fn x(&self) -> Result<Vec<f32>, FemError> {
        let mut v = self.x.read()?;
        v.truncate(self.n);
        Ok(v)
    }

    /// One sweep (one pass); with `check`, reads both iterates back and returns the squared
    /// norms (‖x⁽ᵏ⁺¹⁾ − x⁽ᵏ⁾‖², ‖x⁽ᵏ⁺¹⁾‖²), summed in f64.
    pub fn step(&mut self, check: bool) -> Result<Option<(f64, f64)>, FemError> {
        let old = match (check, self.host.take()) {
            (false, _) => None,
            (true, Some(h)) => Some(h),
            (true, None) => Some(self.x()?),
        };
        let (w, h) = (self.w, self.h);
        let (p, q) = (&self.sweep, &self.quad);
        let (idx, val, accm, rhs) = (&self.idx, &self.val, &self.accm, &self.rhs);
        let n = self.n as i32;
        self.x.pass(Rect::full(w, h), |x| {
            p.bind();
            p.bind_texture(0, "u_idx", idx);
            p.bind_texture(1, "u_val", val);
            p.bind_texture(2, "u_accm", accm);
            p.bind_texture(3, "u_rhs", rhs);
            p.bind_texture(4, "u_x", x);
            p.set_i32("u_n", n);
            q.draw(p, w, h)
        })?;
        let Some(old) = old else {
            return Ok(None);
        };
        let new = self.x()?;
        let (mut d2, mut x2) = (0.0f64, 0.0f64);
        for (&a, &b) in new.iter().zip(&old) {
            let d = (a - b) as f64;
            d2 += d * d;
            x2 += a as f64 * a as f64;
        }
        self.host = Some(new);
        Ok(Some((d2, x2)))
    }
}

impl JacobiSweeps for FragmentJacobi {
    fn sweep(&mut self, check: bool) -> Result<Option<(f64, f64)>, FemError> {
        self.step(check)
    }
    fn gl(&self) -> &Gl {
        &self.gl
    }
}
