//! Seeded random data: the same stream on every platform, so that a test's or an
//! experiment's inputs are the same on every run and machine.

pub use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A deterministic random generator (ChaCha8; the same stream on every platform).
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `n` uniform values in `[lo, hi)`.
pub fn uniform_f32(seed: u64, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    let mut r = rng(seed);
    (0..n).map(|_| r.random_range(lo..hi)).collect()
}
