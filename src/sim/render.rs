//! GPU visualisation of a running simulation, for the live viewer and for the timings that
//! include visualisation (Fig. 14's 35/17 FPS): a 2D field through viridis, or the water
//! surface as a lit 3D height field whose normals are computed on the GPU
//! (`glsl/sim/water_normals.frag`) and whose mesh is drawn without vertex attributes — each
//! vertex fetches its height and normal from the texture (the paper used a VBO filled through a
//! PBO; fetching in the vertex shader is the modern equivalent, with no copy at all).
//!
//! The live viewer draws into parts of its window ([`Renderer::draw_in`]: a field through
//! viridis over the range it is given, or the surface in a viewport), reads the field's range
//! through a small GPU reduction ([`Renderer::min_max`]) and lays its overlay picture over the
//! view ([`OverlayLayer`]).

use std::path::Path;
use std::rc::Rc;

use crate::gl::{
    Format, Gl, GlError, Program, Quad, QuadBatch, Rect, RenderTexture, TexTarget, Texture,
};

use super::error::SimError;
use super::simulation::Simulation;

/// Mesh vertices per side at most (the surface of a larger grid is drawn at this resolution).
pub const MAX_MESH: u32 = 512;

/// Where a view is drawn.
#[derive(Clone, Copy)]
pub enum Target<'a> {
    /// The window's back buffer.
    Window,
    /// An offscreen colour buffer.
    Texture(&'a RenderTexture),
}

impl Target<'_> {
    fn bind(&self, gl: &Gl, w: u32, h: u32) {
        match self {
            Target::Window => gl.bind_default_framebuffer(w, h),
            Target::Texture(t) => t.bind(),
        }
    }
}

/// Draws simulations into a window or an offscreen buffer.
pub struct Renderer {
    gl: Gl,
    colormap: Rc<Program>,
    normals: Rc<Program>,
    surface: Rc<Program>,
    quad: QuadBatch,
    nh: Option<RenderTexture>,
    nh_quad: Option<QuadBatch>,
    minmax: Rc<Program>,
    /// The reduction's target and its quad, made for the grid size.
    mm: Option<(RenderTexture, QuadBatch, u32)>,
}

/// Side of the min/max reduction's target: the field's range is read back as at most
/// 32 × 32 block minima and maxima.
pub const MINMAX_SIDE: u32 = 32;

impl Renderer {
    pub fn new(gl: &Gl) -> Result<Renderer, SimError> {
        Ok(Renderer {
            gl: gl.clone(),
            colormap: Program::fragment(gl, "sim/colormap.frag", &[])?,
            normals: Program::fragment(gl, "sim/water_normals.frag", &[])?,
            surface: Program::get(
                gl,
                &["sim/water_surface.vert", "sim/water_surface.frag"],
                &[],
            )?,
            quad: QuadBatch::new(gl, &[])?,
            nh: None,
            nh_quad: None,
            minmax: Program::fragment(gl, "sim/minmax.frag", &[])?,
            mm: None,
        })
    }

    /// Draws `sim` into `target` of `w × h` pixels (a field in the centred square, over its
    /// physical range).
    pub fn draw(
        &mut self,
        sim: &dyn Simulation,
        target: Target<'_>,
        w: u32,
        h: u32,
    ) -> Result<(), SimError> {
        let area = if sim.is_surface() {
            Rect::full(w, h)
        } else {
            Self::field_rect(w, h)
        };
        self.draw_in(sim, target, (w, h), area, sim.range(), sim.is_surface())
    }

    /// Draws `sim` into `area` (GL pixels, y up) of `target` of `w × h` pixels: the lit 3D
    /// surface when `surface` (in a viewport of `area`), else the field through viridis over
    /// `range`.
    pub fn draw_in(
        &mut self,
        sim: &dyn Simulation,
        target: Target<'_>,
        (w, h): (u32, u32),
        area: Rect,
        range: (f32, f32),
        surface: bool,
    ) -> Result<(), SimError> {
        if surface {
            // Pass 1 renders into its own texture: the target is bound after it.
            self.surface_normals(sim)?;
            target.bind(&self.gl, w, h);
            self.gl.set_viewport(area);
            let drawn = self.draw_surface(sim, area.w.max(1), area.h.max(1));
            self.gl.set_viewport(Rect::full(w, h));
            drawn
        } else {
            target.bind(&self.gl, w, h);
            self.draw_field(sim, w, h, area, range)
        }
    }

    /// The square the 2D field occupies in a `w × h` view (centred).
    pub fn field_rect(w: u32, h: u32) -> Rect {
        let side = w.min(h);
        Rect::new((w - side) / 2, (h - side) / 2, side, side)
    }

    fn draw_field(
        &mut self,
        sim: &dyn Simulation,
        w: u32,
        h: u32,
        r: Rect,
        (lo, hi): (f32, f32),
    ) -> Result<(), SimError> {
        let n = sim.n();
        self.quad
            .set(&[Quad::mapped(r, [0.0, 0.0, n as f32, n as f32])])?;
        let f = sim.state();
        let p = &self.colormap;
        f.bind(p, 0, "u_field");
        p.set_i32("u_n", n as i32);
        p.set_vec2("u_range", [lo, hi]);
        self.quad.draw(p, w, h)?;
        Ok(())
    }

    /// The smallest and largest finite value of the displayed field (`None`: none is
    /// finite), from a GPU reduction to at most [`MINMAX_SIDE`]² block minima and maxima
    /// read back and folded by [`super::overlay::auto_range`] (a flat field's range is
    /// widened around its value).
    pub fn min_max(&mut self, sim: &dyn Simulation) -> Result<Option<(f32, f32)>, SimError> {
        let n = sim.n();
        let m = n.min(MINMAX_SIDE);
        if self.mm.as_ref().is_none_or(|(_, _, k)| *k != n) {
            let (t, q) = square_target(&self.gl, m)?;
            self.mm = Some((t, q, n));
        }
        let (t, q, _) = self.mm.as_ref().expect("made above");
        t.bind();
        let f = sim.state();
        let p = &self.minmax;
        f.bind(p, 0, "u_field");
        p.set_i32("u_n", n as i32);
        p.set_i32("u_block", n.div_ceil(m) as i32);
        q.draw(p, m, m)?;
        Ok(super::overlay::auto_range(&t.texture().read()?))
    }

    /// The grid size, the top of the colour range and the height scale of a surface view.
    fn surface_scale(sim: &dyn Simulation) -> (u32, f32, f32) {
        let n = sim.n();
        let (_, hi) = sim.range();
        (n, hi, 0.06 * n as f32 / hi)
    }

    /// Surface pass 1: the normals and heights of the water surface into their texture
    /// (made or remade for the grid size).
    fn surface_normals(&mut self, sim: &dyn Simulation) -> Result<(), SimError> {
        let (n, _, scale) = Self::surface_scale(sim);
        if self.nh.as_ref().is_none_or(|t| t.texture().width() != n) {
            let (t, q) = square_target(&self.gl, n)?;
            self.nh = Some(t);
            self.nh_quad = Some(q);
        }
        let (nh, nh_quad) = (self.nh.as_ref().unwrap(), self.nh_quad.as_ref().unwrap());
        nh.bind();
        let f = sim.state();
        let p = &self.normals;
        f.bind(p, 0, "u_h");
        p.set_i32("u_n", n as i32);
        p.set_f32("u_scale", scale);
        p.set_vec4("u_bottom", sim.bottom_uniform());
        nh_quad.draw(p, n, n)?;
        Ok(())
    }

    /// Surface pass 2: the lit mesh into the bound framebuffer of `w × h` pixels.
    fn draw_surface(&mut self, sim: &dyn Simulation, w: u32, h: u32) -> Result<(), SimError> {
        let (n, hi, scale) = Self::surface_scale(sim);
        let m = n.min(MAX_MESH);
        let s = &self.surface;
        s.bind_texture(
            0,
            "u_nh",
            self.nh.as_ref().expect("pass 1 made it").texture(),
        );
        s.set_i32("u_n", n as i32);
        s.set_i32("u_m", m as i32);
        s.set_f32("u_scale", scale);
        s.set_mat4("u_mvp", &camera(w as f32 / h as f32));
        s.set_vec3("u_light", [-0.5, 0.4, 0.45]);
        s.set_vec3("u_eye", [0.0, -1.3, 0.9]);
        s.set_f32("u_range", hi);
        s.set_f32("u_deep", -sim.bottom_uniform()[0]);
        self.gl
            .draw_procedural_triangles(s, 6 * (m - 1) * (m - 1))?;
        Ok(())
    }
}

/// The overlay picture ([`super::overlay::compose`]) as a texture, drawn over the window
/// with alpha blending.
pub struct OverlayLayer {
    gl: Gl,
    program: Rc<Program>,
    quad: QuadBatch,
    tex: Option<Texture>,
}

impl OverlayLayer {
    pub fn new(gl: &Gl) -> Result<Self, SimError> {
        Ok(OverlayLayer {
            gl: gl.clone(),
            program: Program::fragment(gl, "sim/overlay.frag", &[])?,
            quad: QuadBatch::new(gl, &[])?,
            tex: None,
        })
    }

    /// Uploads `img` (rows from the top), placed at the top left of a window `h` high.
    pub fn set(&mut self, img: &image::RgbaImage, h: u32) -> Result<(), SimError> {
        let (iw, ih) = img.dimensions();
        if self
            .tex
            .as_ref()
            .is_none_or(|t| (t.width(), t.height()) != (iw, ih))
        {
            let t = Texture::new(&self.gl, TexTarget::Tex2D, Format::RGBA32F, iw, ih, None)?;
            self.tex = Some(t);
        }
        self.tex
            .as_ref()
            .expect("made above")
            .upload_rgba8(img.as_raw())?;
        // Image rows run downwards, GL's upwards: the quad's coordinates flip it.
        let r = Rect::new(0, h.saturating_sub(ih), iw, ih);
        self.quad.set(&[Quad::mapped(r, [0.0, 1.0, 1.0, 0.0])])?;
        Ok(())
    }

    /// Blends the overlay over the bound `w × h` framebuffer.
    pub fn draw(&self, w: u32, h: u32) -> Result<(), SimError> {
        let Some(t) = &self.tex else {
            return Ok(());
        };
        self.program.bind_texture(0, "u_img", t);
        self.gl.set_blend(true);
        let drawn = self.quad.draw(&self.program, w, h);
        self.gl.set_blend(false);
        Ok(drawn?)
    }
}

/// Perspective × look-at for a camera south of the pond, looking down at its centre
/// (column-major, as GL takes it).
fn camera(aspect: f32) -> [f32; 16] {
    let eye = [0.0f32, -1.25, 0.85];
    let at = [0.0f32, 0.05, -0.05];
    let up = [0.0f32, 0.0, 1.0];
    let sub = |a: [f32; 3], b: [f32; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let cross = |a: [f32; 3], b: [f32; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let dot = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let norm = |a: [f32; 3]| {
        let l = dot(a, a).sqrt();
        [a[0] / l, a[1] / l, a[2] / l]
    };
    let f = norm(sub(at, eye));
    let s = norm(cross(f, up));
    let u = cross(s, f);
    // View matrix rows: s, u, -f; translation -R·eye.
    let view = [
        [s[0], u[0], -f[0], 0.0],
        [s[1], u[1], -f[1], 0.0],
        [s[2], u[2], -f[2], 0.0],
        [-dot(s, eye), -dot(u, eye), dot(f, eye), 1.0],
    ];
    let fovy = 40f32.to_radians();
    let t = 1.0 / (fovy / 2.0).tan();
    let (near, far) = (0.1f32, 10.0f32);
    let proj = [
        [t / aspect, 0.0, 0.0, 0.0],
        [0.0, t, 0.0, 0.0],
        [0.0, 0.0, (far + near) / (near - far), -1.0],
        [0.0, 0.0, 2.0 * far * near / (near - far), 0.0],
    ];
    // Column-major product proj · view.
    let mut out = [0f32; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| proj[k][r] * view[c][k]).sum();
        }
    }
    out
}

/// Renders `sim` offscreen into a `w × h` image (the 3D view of the water surface, or the
/// coloured field) on white.
pub fn view_image(
    renderer: &mut Renderer,
    sim: &dyn Simulation,
    w: u32,
    h: u32,
) -> Result<image::RgbImage, SimError> {
    let gl = sim.gl().clone();
    let target = RenderTexture::new(&gl, TexTarget::Tex2D, Format::RGBA32F, w, h, None)?;
    target.clear([1.0, 1.0, 1.0, 1.0]);
    renderer.draw(sim, Target::Texture(&target), w, h)?;
    let px = target.texture().read()?;
    Ok(image::RgbImage::from_fn(w, h, |x, y| {
        // GL's row 0 is the bottom.
        let o = ((h - 1 - y) * w + x) as usize * 4;
        image::Rgb(std::array::from_fn(|c| {
            (px[o + c].clamp(0.0, 1.0) * 255.0) as u8
        }))
    }))
}

/// [`view_image`] saved as a PNG at `path`.
pub fn save_view(
    renderer: &mut Renderer,
    sim: &dyn Simulation,
    w: u32,
    h: u32,
    path: &Path,
) -> Result<(), SimError> {
    let img = view_image(renderer, sim, w, h)?;
    crate::report::plot::write_png(path, img.as_raw(), w, h, image::ExtendedColorType::Rgb8)
        .map_err(|e| SimError::Frame {
            path: path.to_path_buf(),
            message: e.source.to_string(),
        })
}

/// An RGBA32F rectangle texture of `m × m` texels to render into, and the quad that covers it.
fn square_target(gl: &Gl, m: u32) -> Result<(RenderTexture, QuadBatch), GlError> {
    let t = RenderTexture::new(gl, TexTarget::Rect, Format::RGBA32F, m, m, None)?;
    let q = QuadBatch::new(gl, &[Quad::identity(Rect::full(m, m))])?;
    Ok((t, q))
}
