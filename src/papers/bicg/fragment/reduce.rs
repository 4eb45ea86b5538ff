//! The reductions of [`FragmentBicg`]: a dot product (`Σ aᵢbᵢ`) or a max-norm (`max |aᵢ|`)
//! as a chain of 2×2 → 1 `frag_reduce` passes over textures of halving size, the last
//! rendering into one texel of the results texture; each pass shown to an observer
//! ([`reduce_trace`](crate::papers::bicg::reduce_trace) says what it is) and tallied.

use super::solver::{FragmentBicg, RESULTS};
use crate::bench::{Access, Bytes};
use crate::gl::{GlError, PassObserver, Quad, Rect, Texture};
use crate::papers::bicg::linbcg::{Slot, V};
use crate::papers::bicg::reduce_trace::level_info;

impl FragmentBicg {
    /// Σ aᵢbᵢ (`b = Some`) or max |aᵢ| (`b = None`) into texel `slot` of the results texture.
    pub(super) fn reduce(&self, a: V, b: Option<V>, slot: Slot) -> Result<(), GlError> {
        self.reduce_observed(a, b, slot, None)
    }

    /// [`Self::reduce`] with an observer called before and after every pass (the `trace`
    /// command; `reduce_trace.rs` says what each pass is). The GL work is the same.
    pub(super) fn reduce_observed<'o>(
        &self,
        a: V,
        b: Option<V>,
        slot: Slot,
        mut obs: Option<&mut (dyn PassObserver + 'o)>,
    ) -> Result<(), GlError> {
        let slot = slot.index() as u32;
        let max = b.is_none();
        let progs = &self.prog.reduce;
        let (first, rest) = if max {
            (&progs[2], &progs[3])
        } else {
            (&progs[0], &progs[1])
        };
        let mut src: &Texture = self.tex(a);
        let (mut sw, mut sh) = (self.w, self.h);
        let levels = self.chain.len();
        for level in 0..=levels {
            let prog = if level == 0 { first } else { rest };
            if let Some(o) = obs.as_deref_mut() {
                o.before(&self.level_pass(max, level, (a, b), src, (sw, sh), slot))?;
            }
            prog.bind();
            prog.bind_texture(0, "u_a", src);
            if level == 0 {
                prog.bind_texture(1, "u_b", self.tex(b.unwrap_or(a)));
            }
            prog.set_vec2("u_size", [sw as f32, sh as f32]);
            let (ow, oh);
            if level == levels {
                // The last pass: one texel of the results texture.
                self.results.bind();
                prog.set_vec2("u_origin", [slot as f32, 0.0]);
                self.slots[slot as usize].draw(prog, RESULTS, 1)?;
                (ow, oh) = (1, 1);
            } else {
                let (target, quad) = &self.chain[level];
                target.bind();
                prog.set_vec2("u_origin", [0.0, 0.0]);
                (ow, oh) = (target.texture().width(), target.texture().height());
                quad.draw(prog, ow, oh)?;
                src = target.texture();
            }
            let reads = (sw * sh) as f64 * if level == 0 && !max { 2.0 } else { 1.0 };
            let mut w = self.work.get();
            w.bytes += Bytes::of(&[
                (Access::TexScalar, 4.0 * reads),
                (Access::Target, 4.0 * (ow * oh) as f64),
            ]);
            w.flops32 += reads;
            w.passes += 1;
            self.work.set(w);
            if let Some(o) = obs.as_deref_mut() {
                // `src` is now this pass's target: describe it with the source it read.
                let read = if level == 0 {
                    self.tex(a)
                } else {
                    self.chain[level - 1].0.texture()
                };
                o.after(&self.level_pass(max, level, (a, b), read, (sw, sh), slot))?;
            }
            (sw, sh) = (ow, oh);
        }
        self.gl.check("fragment reduction")
    }

    /// What pass `level` of a reduction of `(a, b)` reading `src` (`size` texels) is.
    fn level_pass<'s>(
        &'s self,
        max: bool,
        level: usize,
        (a, b): (V, Option<V>),
        src: &'s Texture,
        size: (u32, u32),
        slot: u32,
    ) -> crate::gl::PassInfo<'s> {
        let levels = self.chain.len();
        let sources = if level == 0 {
            let mut v = vec![("a".to_string(), self.tex(a))];
            if let Some(b) = b {
                v.push(("b".to_string(), self.tex(b)));
            }
            v
        } else {
            vec![(format!("level {level}"), src)]
        };
        let (label, target, quad) = if level == levels {
            let q = Quad::identity(Rect::new(slot, 0, 1, 1));
            ("results".to_string(), self.results.texture(), q)
        } else {
            let t = self.chain[level].0.texture();
            let q = Quad::identity(Rect::full(t.width(), t.height()));
            (format!("level {}", level + 1), t, q)
        };
        level_info(
            max,
            level,
            levels,
            sources,
            size,
            (&label, target),
            quad,
            slot,
        )
    }
}
