//! A per-pass observer: what the `trace` command sees of a legacy (fragment) solver.
//!
//! A solver that supports tracing calls [`PassObserver::before`] just before a pass draws and
//! [`PassObserver::after`] once the pass (and its copy or switch) is done, handing a
//! [`PassInfo`] both times: the shader and its defines, its uniforms, the quads it draws with
//! their texture coordinates, the paper's equation it implements, and one [`Panel`] per
//! texture the pass reads or writes. The observer reads the textures back (before: as the
//! pass reads them; after: as it left them). Solvers run without an observer do exactly the
//! same GL work; with one they do the same GL work plus read-backs, so the traced result is
//! the solver's result bit for bit.

use super::define::Define;
use super::error::GlError;
use super::pingpong::{PingPong, PingPongMethod};
use super::quad::Quad;
use super::texture::{Rect, Texture};

/// What a pass does with a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Sampled only.
    Read,
    /// The render target the quads are drawn on.
    Drawn,
    /// The copy method's input texture: sampled, then `glCopyTexSubImage2D` copies the drawn
    /// rectangle into it.
    ReadThenCopied,
    /// A ping-pong buffer that this pass neither reads nor writes (shown for context).
    Idle,
}

/// One texture of a pass, with what the pass does with it.
pub struct Panel<'a> {
    pub label: String,
    pub texture: &'a Texture,
    pub role: Role,
    /// Channel names (e.g. `["a", "b", "c", "k"]`, or `["x"]`).
    pub channels: &'static [&'static str],
    /// Panels with the same group are drawn side by side (a ping-pong pair).
    pub group: u32,
    /// What a texture row is called (`y` unless set, e.g. `row`, `col`).
    pub rows: &'static str,
    /// Texels the pass fetches from this texture.
    pub fetched: Vec<Rect>,
    /// Quads drawn on this texture (when it is the target), in its texels.
    pub quads: Vec<Quad>,
    /// Rectangles copied into this texture after the draw (copy method).
    pub copied: Vec<Rect>,
    /// Rectangles drawn only to carry texels forward (switch method, e.g. LU's carry).
    pub carried: Vec<Rect>,
}

impl<'a> Panel<'a> {
    pub fn new(
        label: impl Into<String>,
        texture: &'a Texture,
        role: Role,
        channels: &'static [&'static str],
        group: u32,
    ) -> Self {
        Panel {
            label: label.into(),
            texture,
            role,
            channels,
            group,
            rows: "y",
            fetched: vec![],
            quads: vec![],
            copied: vec![],
            carried: vec![],
        }
    }
}

/// What one pass is (see the module docs), with its panels: live textures ([`PassInfo`]) or,
/// in a recorder, their read-back copies.
#[derive(Clone, Debug)]
pub struct Pass<P> {
    /// Short title, e.g. `reduction level s = 2`.
    pub title: String,
    /// Shader file under `glsl/` and the defines it was compiled with.
    pub shader: &'static str,
    pub defines: Vec<Define>,
    /// Uniform name and value (samplers: the texture bound).
    pub uniforms: Vec<(String, String)>,
    /// The paper's equation / section / figure this pass implements.
    pub paper: String,
    /// What each fragment fetches and writes, in words.
    pub fetches: String,
    pub panels: Vec<P>,
}

/// A pass as it runs: its panels are the live textures.
pub type PassInfo<'a> = Pass<Panel<'a>>;

impl<P> Pass<P> {
    /// The same pass (title, shader, uniforms, words) with other panels.
    pub fn with_panels<Q>(&self, panels: Vec<Q>) -> Pass<Q> {
        Pass {
            title: self.title.clone(),
            shader: self.shader,
            defines: self.defines.clone(),
            uniforms: self.uniforms.clone(),
            paper: self.paper.clone(),
            fetches: self.fetches.clone(),
            panels,
        }
    }
}

/// Receives every pass of a traced solve (see the module docs).
pub trait PassObserver {
    /// Just before the pass draws: the textures as the pass will read them.
    fn before(&mut self, pass: &PassInfo<'_>) -> Result<(), GlError>;
    /// After the pass and its copy or switch.
    fn after(&mut self, pass: &PassInfo<'_>) -> Result<(), GlError>;
}

/// Channels of an RGBA texel that packs four consecutive values (rows, unknowns, columns):
/// offsets `0 … 3` from the texel's first one.
pub const LANES: &[&str] = &["0", "1", "2", "3"];

/// A solver's optional observer, handed down its passes as `&mut`.
pub type Observer<'o> = Option<&'o mut dyn PassObserver>;

/// Runs the pass `draw` between `before` and `after` of `obs` (when there is one), both
/// handed the [`PassInfo`] that `info` builds; without an observer, just `draw`.
pub fn observed<'a, E: From<GlError>>(
    obs: &mut Observer<'_>,
    info: impl Fn() -> PassInfo<'a>,
    draw: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    if let Some(o) = obs.as_deref_mut() {
        o.before(&info())?;
    }
    draw()?;
    if let Some(o) = obs.as_deref_mut() {
        o.after(&info())?;
    }
    Ok(())
}

/// The two panels of a ping-pong pair named `name` (e.g. `P`) for a pass that reads `fetched`
/// from the buffer [`PingPong::pair`] called `reading` and draws `quads` over `drawn`:
/// the copy method's input texture and render buffer, or the switch method's `name1`/`name2`.
/// Build it with the `reading` index taken *before* the pass (switching changes it).
#[allow(clippy::too_many_arguments)] // one per property of the pass, all needed
pub fn pair_panels<'a>(
    p: &'a PingPong,
    name: &str,
    channels: &'static [&'static str],
    group: u32,
    reading: usize,
    fetched: Vec<Rect>,
    quads: Vec<Quad>,
    drawn: Rect,
) -> Vec<Panel<'a>> {
    let (pair, _) = p.pair();
    let mut out = Vec::with_capacity(2);
    for (i, tex) in pair.into_iter().enumerate() {
        let label = pair_label(p.method(), name, i);
        let role = match (p.method(), i == reading) {
            (PingPongMethod::Copy, true) => Role::ReadThenCopied,
            (_, false) => Role::Drawn,
            (PingPongMethod::Switch, true) => Role::Read,
        };
        let mut panel = Panel::new(label, tex, role, channels, group);
        match role {
            Role::Drawn => panel.quads = quads.clone(),
            Role::ReadThenCopied => {
                panel.fetched = fetched.clone();
                panel.copied = vec![drawn];
            }
            _ => panel.fetched = fetched.clone(),
        }
        out.push(panel);
    }
    out
}

/// The name of buffer `i` of [`PingPong::pair`]: the copy method's `name texture` (0) and
/// `name render buffer` (1), or the switch method's `name1`, `name2`.
pub fn pair_label(method: PingPongMethod, name: &str, i: usize) -> String {
    match (method, i) {
        (PingPongMethod::Copy, 0) => format!("{name} texture"),
        (PingPongMethod::Copy, _) => format!("{name} render buffer"),
        (PingPongMethod::Switch, i) => format!("{name}{}", i + 1),
    }
}
