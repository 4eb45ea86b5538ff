//! Beyond the paper, legacy pipeline: the multipass fragment kernel ([`Multipass`]).
//!
//! **Work** of one timed `run` on an m×n by n×l product (every texture fetch counts once, no
//! cache model; fp32, an FMA = 2 flops):
//!
//! - the multipass fragment kernel ([`Multipass::work`]): `P = ⌈4n₄/K⌉` passes over the
//!   `l₄×m` RGBA32F accumulator; per texel and pass one accumulator fetch and one write, per
//!   4 k one fetch of A and 4 of B (16 B each): `bytes = l₄·m·16·(2P + 5·4n₄/4) + l₄·m·16`
//!   (the last term: the accumulator reset uploaded inside the timed region),
//!   `flops = l₄·m·4n₄·8`.

mod kernel;
mod shader;
pub mod trace;

pub use kernel::{Multipass, TextureOperands};
pub use shader::MULTIPASS;
