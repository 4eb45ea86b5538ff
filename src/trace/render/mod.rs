//! Pictures of a trace: one PNG per pass and an animated GIF of the whole sequence.
//!
//! Each texture is a grid of texels (one cell per texel, rows = texture rows); an RGBA texel
//! shows its four channels apart, one line each, named at the left (e.g. `a b c k`). Colours:
//! texels the pass fetched are blue, texels it drew are orange inside the red outline of the
//! quad, texels the copy method copied back are green inside a green outline. The textures of
//! a ping-pong pair stand side by side: under the switch method the two buffers (which one is
//! read flips every pass), under the copy method the input texture as read, the render buffer
//! drawn, and the input texture after `glCopyTexSubImage2D`; a group wider than a screen
//! goes on over several rows. Values the pass changed are printed in dark red.
//!
//! `picture.rs` lays out a pass's picture (header, panels, legend), `encode.rs` encodes PNG
//! and GIF; one panel, and which panels a pass shows, is `view.rs`; the font, sizes and
//! colours are `style.rs`, cell text `text.rs`.

mod encode;
mod picture;
mod style;
mod text;
mod view;

pub use encode::{gif, png};
pub use picture::{Picture, pass_picture};
pub use text::fmt_value;
