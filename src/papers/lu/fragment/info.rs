//! What one fragment LU decomposition did: its passes, draws, texels and times.

/// What one decomposition did (counts are exact; times need [`super::params::Params::profile`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct LuInfo {
    /// Matrix order and the order actually factored (padded to a multiple of 4 for I3/I4).
    pub n: usize,
    pub padded: usize,
    /// Passes (render-target switches + draws into one output; the paper's "passes").
    pub passes: u64,
    /// Draw calls (I3 draws the edge and the rest separately; carried texels add one).
    pub draws: u64,
    /// `glCopyTexSubImage2D` calls and the bytes they moved (copy method).
    pub copies: u64,
    pub copied_bytes: u64,
    /// Fragments computed (L and U updates).
    pub fragments: u64,
    /// Fragments that only carried a texel forward (switch method).
    pub carried_fragments: u64,
    /// Texture fetches of the computing fragments × bytes per texel (Table 2's model).
    pub fetched_bytes: u64,
    /// Floating-point operations of the updated channels, a division counted as 2 (§3.6).
    pub flops: u64,
    /// Bytes per texel of the ping-pong textures (16 for RGBA32F, 4 for R32F).
    pub texel_bytes: u64,
    /// Times in milliseconds: whole (A), draw calls (G), copies (T), the rest (C = A − G − T).
    pub a_ms: f64,
    pub g_ms: f64,
    pub t_ms: f64,
    pub c_ms: f64,
    /// The part of G spent drawing carried texels (switch method).
    pub g_carry_ms: f64,
}
