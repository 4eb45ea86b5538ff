//! The observer that the traced solvers call: it reads back every texture of every pass
//! (before the draw: as the pass reads it; after: as the pass left it) and keeps what
//! [`super::render`] and [`super::markdown`] need.

use crate::gl::{GlError, Pass, PassInfo, PassObserver, Quad, Rect, Role};

/// One texture of one pass, read back.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub label: String,
    pub role: Role,
    pub channels: &'static [&'static str],
    pub group: u32,
    pub rows: &'static str,
    pub width: u32,
    pub height: u32,
    /// Floats per texel in the texture (1 or 4).
    pub texel_floats: usize,
    /// The texture just before the draw.
    pub before: Vec<f32>,
    /// The texture after the pass (and its copy or switch).
    pub after: Vec<f32>,
    pub fetched: Vec<Rect>,
    pub quads: Vec<Quad>,
    pub copied: Vec<Rect>,
    pub carried: Vec<Rect>,
}

impl Snapshot {
    /// Channel `c` of texel `(x, y)` in `data` (`before` or `after`).
    pub fn value(&self, data: &[f32], x: u32, y: u32, c: usize) -> f32 {
        data[(y as usize * self.width as usize + x as usize) * self.texel_floats + c]
    }
}

/// One pass, read back: its panels are snapshots.
pub type PassRecord = Pass<Snapshot>;

impl PassRecord {
    /// The panel labelled `label`.
    pub fn panel(&self, label: &str) -> Option<&Snapshot> {
        self.panels.iter().find(|p| p.label == label)
    }
}

/// Records every pass (see the module docs).
#[derive(Default)]
pub struct Recorder {
    pub passes: Vec<PassRecord>,
    pending: Vec<Vec<f32>>,
}

impl PassObserver for Recorder {
    fn before(&mut self, pass: &PassInfo<'_>) -> Result<(), GlError> {
        self.pending = pass
            .panels
            .iter()
            .map(|p| p.texture.read())
            .collect::<Result<_, _>>()?;
        Ok(())
    }

    fn after(&mut self, pass: &PassInfo<'_>) -> Result<(), GlError> {
        let before = std::mem::take(&mut self.pending);
        let mut panels = Vec::with_capacity(pass.panels.len());
        for (i, p) in pass.panels.iter().enumerate() {
            let after = p.texture.read()?;
            panels.push(Snapshot {
                label: p.label.clone(),
                role: p.role,
                channels: p.channels,
                group: p.group,
                rows: p.rows,
                width: p.texture.width(),
                height: p.texture.height(),
                texel_floats: p.texture.format().channels(),
                before: before.get(i).cloned().unwrap_or_else(|| after.clone()),
                after,
                fetched: p.fetched.clone(),
                quads: p.quads.clone(),
                copied: p.copied.clone(),
                carried: p.carried.clone(),
            });
        }
        self.passes.push(pass.with_panels(panels));
        Ok(())
    }
}
