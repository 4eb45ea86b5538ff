//! Small helpers of no layer of their own: seeded random data ([`random`]) and the host's
//! memory ([`memory`]). (The error measure of a result against its reference is in
//! `crate::stats`.)

pub mod memory;
pub mod random;

pub use memory::{available_memory, host_memory_bytes};
pub use random::{RngExt, rng, uniform_f32};
