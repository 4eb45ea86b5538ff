//! What one size of Table 1 needs of the device and the host ([`Footprint`]), computed from
//! N before anything is allocated.

use crate::gl::DeviceInfo;

/// What one row of Table 1 needs, computed from N before anything is allocated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    /// The largest SSBO (one N×N f32 matrix; the blocked kernel's are padded to vec4 rows).
    pub ssbo_bytes: u64,
    /// The largest texture edge of the fragment variant (the padded B has 4·⌈N/4⌉ rows).
    pub texture_edge: u64,
    /// Host memory held at once: A, B, R read back, the CPU rows, SGEMM's R (f32) and the
    /// f64 reference, plus the vec4 copies of B made for upload.
    pub host_bytes: u64,
}

impl Footprint {
    pub fn of(n: u64) -> Footprint {
        let n4 = n.div_ceil(4) * 4;
        Footprint {
            ssbo_bytes: 4 * n * n4,
            texture_edge: n4,
            host_bytes: 4 * n * n * 5 + 8 * n * n + 2 * 4 * n * n4,
        }
    }

    /// `Err` names the limit this size would break on `info` and a machine of `host` bytes.
    pub fn check(&self, n: u64, info: &DeviceInfo, host: Option<u64>) -> Result<(), String> {
        let max_ssbo = info.max_ssbo_bytes.max(0) as u64;
        if max_ssbo > 0 && self.ssbo_bytes > max_ssbo {
            return Err(format!(
                "N = {n} needs an SSBO of {} bytes per matrix; this device's \
                 GL_MAX_SHADER_STORAGE_BLOCK_SIZE is {max_ssbo} bytes",
                self.ssbo_bytes
            ));
        }
        let max_tex = info.max_rectangle_texture_size.max(0) as u64;
        if max_tex > 0 && self.texture_edge > max_tex {
            return Err(format!(
                "N = {n} needs textures {} texels tall; this device's \
                 GL_MAX_RECTANGLE_TEXTURE_SIZE is {max_tex}",
                self.texture_edge
            ));
        }
        if let Some(h) = host.filter(|&h| self.host_bytes > h / 2) {
            return Err(format!(
                "N = {n} needs {:.1} GB of host memory at once; half of this machine's {:.1} GB \
                 is the most a row may take",
                self.host_bytes as f64 / 1e9,
                h as f64 / 1e9
            ));
        }
        Ok(())
    }
}
