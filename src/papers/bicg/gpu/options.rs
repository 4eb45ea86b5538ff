//! Build options of the GPU solver.

/// Build options of the GPU solver.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GpuOptions {
    /// Invocations per work group ("threads per block", 256 in the paper's Fig. 4): a power
    /// of two from 32 to the device's limit.
    pub local_size: u32,
    /// Dot products by one fused reduction (Σ aᵢbᵢ) instead of V_mul_U + reduction: a
    /// variant beyond the paper.
    pub fused_dot: bool,
    /// The fused variant, beyond the paper: the SpMV with its dot product, the
    /// preconditioner with ρ, both direction updates in one pass, and the x / r / r̄ / z
    /// updates with their max-norms in two (12 dispatches per iteration instead of 20).
    pub fused: bool,
}

impl Default for GpuOptions {
    fn default() -> Self {
        GpuOptions {
            local_size: 256,
            fused_dot: false,
            fused: false,
        }
    }
}
