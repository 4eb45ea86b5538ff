//! Beyond the paper: the blocked compute kernel ([`Blocked`]), register blocks with
//! optional shared-memory tiles, its parameters and their checks.

use std::rc::Rc;

use crate::bench::{Access, Bytes, Kind, Work};
use crate::gl::{Buffer, Define, Format, Gl, Program, Reads, TexTarget, Texture};
use crate::papers::matmul::error::MatmulError;
use crate::papers::matmul::matrix::{Matrix, dims};
use crate::papers::matmul::pack::{pack4, unpack4};

/// Beyond the paper: the blocked compute kernel (register blocks, optional shared tiles).
pub const BLOCKED: &str = "matmul/blocked.comp";

/// Parameters of the blocked kernel (CLBlast's names in `glsl/matmul/blocked.comp`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockedParams {
    /// Rows of R per invocation.
    pub tm: u32,
    /// vec4 columns of R per invocation.
    pub tn: u32,
    /// Work-group shape.
    pub wg_x: u32,
    pub wg_y: u32,
    /// Where A and B are read from (the result R is an SSBO either way).
    #[serde(default)]
    pub reads: Reads,
    /// k per shared-memory tile (CLBlast's KWG); 0: A and B read straight from memory.
    #[serde(default)]
    pub kwg: u32,
    /// Two shared tile buffers, the next loaded while this one is multiplied (with `kwg` > 0).
    #[serde(default)]
    pub db: bool,
    /// k per load of A (1 or 4; 4 only with `kwg` = 0): 4 reads A as vec4s along k and
    /// unrolls the k loop by 4 (what a SIMD CPU rasterizer needs; the same bytes and flops).
    #[serde(default = "one")]
    pub ka: u32,
}

fn one() -> u32 {
    1
}

/// The operands' sizes after padding (zeros) to whole work-group tiles: rows of R to a multiple
/// of `tm·wg_y`, vec4 columns to a multiple of `tn·wg_x`, and k to a multiple of `kwg` (of `ka`
/// without tiles), so that every invocation's block lies inside the padded matrices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Padded {
    pub m: usize,
    pub n: usize,
    pub l4: usize,
}

impl BlockedParams {
    /// The padded sizes of an m×n by n×l product (`Padded`).
    pub fn padded(&self, m: usize, n: usize, l: usize) -> Padded {
        let k_step = if self.kwg > 0 { self.kwg } else { self.ka };
        Padded {
            m: m.next_multiple_of((self.tm * self.wg_y) as usize),
            n: n.next_multiple_of(k_step.max(1) as usize),
            l4: l
                .div_ceil(4)
                .next_multiple_of((self.tn * self.wg_x) as usize),
        }
    }

    /// The work of one run on an m×n by n×l product, over the padded operands the kernel
    /// reads ([`Self::padded`]); `ka` changes how A is loaded, not how much.
    pub fn work(&self, m: usize, n: usize, l: usize) -> Work {
        let (tm, tn) = (self.tm as usize, self.tn as usize);
        let Padded { m, n, l4 } = self.padded(m, n, l);
        let inv = (l4 / tn * (m / tm)) as f64;
        let read = match self.reads {
            Reads::Ssbo => Access::SsboRead,
            Reads::Texture => Access::ImageRead,
        };
        let loaded = if self.kwg == 0 {
            inv * n as f64 * (16 * tn + 4 * tm) as f64
        } else {
            let (mwg, nwg4) = (tm * self.wg_y as usize, tn * self.wg_x as usize);
            let groups = (l4 / nwg4 * (m / mwg)) as f64;
            groups * n as f64 * (16 * nwg4 + 4 * mwg) as f64
        };
        Work {
            bytes: Bytes::of(&[(read, loaded), (Access::SsboWrite, (m * l4 * 16) as f64)]),
            flops32: inv * n as f64 * (tm * tn * 8) as f64,
            flops64: 0.0,
            passes: 0,
            dispatches: 1,
            kind: Kind::Compute,
        }
    }
    /// The `#define`s of `blocked.comp` for these parameters.
    pub fn defines(&self) -> Vec<Define> {
        let mut d = vec![
            Define::new("TM", format!("{}u", self.tm)),
            Define::new("TN", format!("{}u", self.tn)),
            Define::new("WG_X", self.wg_x),
            Define::new("WG_Y", self.wg_y),
        ];
        d.push(Define::new("KWG", format!("{}u", self.kwg)));
        d.push(Define::new("DB", u32::from(self.db)));
        d.push(Define::new("KA", self.ka));
        d.extend(self.reads.define());
        d
    }

    /// The candidate's label in the tuning table: `tm=8 tn=2 wg=16×1 kwg=32 db ssbo`,
    /// `tm=16 tn=1 wg=16×1 ka=4 texture`.
    pub fn label(&self) -> String {
        let mut tile = match (self.kwg, self.db) {
            (0, _) => String::new(),
            (k, false) => format!(" kwg={k}"),
            (k, true) => format!(" kwg={k} db"),
        };
        if self.ka != 1 {
            tile += &format!(" ka={}", self.ka);
        }
        format!(
            "tm={} tn={} wg={}×{}{tile} {}",
            self.tm,
            self.tn,
            self.wg_x,
            self.wg_y,
            self.reads.name()
        )
    }

    /// The parameters in words, for captions and notes.
    pub fn describe(&self) -> String {
        let mut tiles = match (self.kwg, self.db) {
            (0, _) => "no shared memory".to_string(),
            (k, false) => format!("{k}-deep tiles of A and B in shared memory"),
            (k, true) => format!("{k}-deep double-buffered tiles of A and B in shared memory"),
        };
        if self.ka != 1 {
            tiles += &format!(", A read {} k per load", self.ka);
        }
        format!(
            "{} rows × {} vec4 columns per invocation, {}×{} work groups, {tiles}, A and B \
             read from {}",
            self.tm,
            self.tn,
            self.wg_x,
            self.wg_y,
            self.reads.describe()
        )
    }

    /// Shared memory one work group of these parameters needs (bytes): the A tile
    /// (`kwg × tm·wg_y` floats) and the B tile (`kwg × tn·wg_x` vec4s), twice with `db`.
    pub fn shared_bytes(&self) -> u64 {
        let bufs = if self.db { 2 } else { 1 };
        let (mwg, nwg4) = ((self.tm * self.wg_y) as u64, (self.tn * self.wg_x) as u64);
        bufs * self.kwg as u64 * (mwg * 4 + nwg4 * 16)
    }

    /// Checks the sizes before any shader is built: `Err` names the bad field.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v, max) in [
            ("tm", self.tm, MAX_REGISTER_BLOCK),
            ("tn", self.tn, MAX_REGISTER_BLOCK),
            ("wg_x", self.wg_x, 1024),
            ("wg_y", self.wg_y, 1024),
        ] {
            if v == 0 || v > max {
                return Err(format!("blocked.{name} = {v}: must be 1..={max}"));
            }
        }
        if self.kwg > 256 {
            return Err(format!("blocked.kwg = {}: must be 0..=256", self.kwg));
        }
        if !matches!(self.ka, 1 | 4) {
            return Err(format!("blocked.ka = {}: must be 1 or 4", self.ka));
        }
        if self.ka != 1 && self.kwg != 0 {
            return Err(format!(
                "blocked.ka = {} with kwg = {}: A is read {} k per load only straight from \
                 memory (kwg = 0)",
                self.ka, self.kwg, self.ka
            ));
        }
        if self.shared_bytes() > MIN_SHARED_BYTES {
            return Err(format!(
                "blocked tiles need {} bytes of shared memory (kwg = {}, tm·wg_y = {}, \
                 tn·wg_x = {} vec4{}): GL guarantees {MIN_SHARED_BYTES}",
                self.shared_bytes(),
                self.kwg,
                self.tm * self.wg_y,
                self.tn * self.wg_x,
                if self.db { ", double-buffered" } else { "" }
            ));
        }
        if self.wg_x * self.wg_y > 1024 {
            return Err(format!(
                "blocked.wg_x × blocked.wg_y = {}: GL guarantees at most 1024 invocations per \
                 work group",
                self.wg_x * self.wg_y
            ));
        }
        Ok(())
    }
}

/// The largest register block edge (`tm`, `tn`) accepted: `tm × tn` vec4 accumulators per
/// invocation must stay in registers.
pub const MAX_REGISTER_BLOCK: u32 = 16;

/// `GL_MAX_COMPUTE_SHARED_MEMORY_SIZE`'s guaranteed minimum (GL 4.3, table 23.75).
pub const MIN_SHARED_BYTES: u64 = 32768;

impl Default for BlockedParams {
    fn default() -> Self {
        BlockedParams {
            tm: 4,
            tn: 1,
            wg_x: 8,
            wg_y: 8,
            reads: Reads::Ssbo,
            kwg: 0,
            db: false,
            ka: 1,
        }
    }
}

/// Beyond the paper: register blocks, vec4 loads, optional shared-memory tiles (`blocked.comp`).
/// Columns are padded to a multiple of 4 on upload when needed.
pub struct Blocked {
    gl: Gl,
    prog: Rc<Program>,
    params: BlockedParams,
}

/// Operands of [`Blocked`], padded with zeros to whole tiles ([`BlockedParams::padded`]).
pub struct BlockedOperands {
    m: usize,
    l: usize,
    pad: Padded,
    inputs: BlockedInputs,
    r: Buffer<[f32; 4]>,
}

/// A and B where [`Reads`] puts them.
enum BlockedInputs {
    Ssbo(Buffer<f32>, Buffer<[f32; 4]>),
    Texture(Texture, Texture),
}

impl Blocked {
    pub fn new(gl: &Gl, params: BlockedParams) -> Result<Blocked, MatmulError> {
        let prog = Program::compute(gl, BLOCKED, &params.defines())?;
        Ok(Blocked {
            gl: gl.clone(),
            prog,
            params,
        })
    }

    pub fn upload(&self, a: &Matrix, b: &Matrix) -> Result<BlockedOperands, MatmulError> {
        let (m, n, l) = dims(a, b)?;
        let p = self.params.padded(m, n, l);
        let g = &self.gl;
        let a_pad = pad(&a.data, n, p.m, p.n);
        let b_pad = pad(&pack4(&b.data, n, l), l.div_ceil(4), p.n, p.l4);
        let inputs = match self.params.reads {
            Reads::Ssbo => BlockedInputs::Ssbo(
                Buffer::from_slice(g, &a_pad)?,
                Buffer::from_slice(g, &b_pad)?,
            ),
            Reads::Texture => {
                let rect = |format, w: usize, h: usize, data: &[f32]| {
                    Texture::new(g, TexTarget::Rect, format, w as u32, h as u32, Some(data))
                };
                let ka = self.params.ka as usize;
                let a_format = if ka == 4 {
                    Format::RGBA32F
                } else {
                    Format::R32F
                };
                let b_flat: Vec<f32> = b_pad.iter().flatten().copied().collect();
                BlockedInputs::Texture(
                    rect(a_format, p.n / ka, p.m, &a_pad)?,
                    rect(Format::RGBA32F, p.l4, p.n, &b_flat)?,
                )
            }
        };
        Ok(BlockedOperands {
            m,
            l,
            pad: p,
            inputs,
            r: Buffer::zeroed(g, p.m * p.l4)?,
        })
    }

    pub fn run(&self, ops: &BlockedOperands) -> Result<(), MatmulError> {
        let p = &self.params;
        match &ops.inputs {
            BlockedInputs::Ssbo(a, b) => {
                a.bind(0);
                b.bind(1);
            }
            BlockedInputs::Texture(a, b) => {
                self.prog.bind_texture(0, "u_a", a);
                self.prog.bind_texture(1, "u_b", b);
            }
        }
        ops.r.bind(2);
        let pad = ops.pad;
        self.prog.set_u32("m", pad.m as u32);
        self.prog.set_u32("n", pad.n as u32);
        self.prog.set_u32("l4", pad.l4 as u32);
        let gx = (pad.l4 / (p.tn * p.wg_x) as usize) as u32;
        let gy = (pad.m / (p.tm * p.wg_y) as usize) as u32;
        self.prog.dispatch([gx, gy, 1])?;
        Ok(())
    }

    pub fn read(&self, ops: &BlockedOperands) -> Result<Matrix, MatmulError> {
        let l4 = ops.l.div_ceil(4);
        let r = ops.r.read_range(0, ops.m * ops.pad.l4)?;
        let rows: Vec<[f32; 4]> = r
            .chunks(ops.pad.l4)
            .flat_map(|row| &row[..l4])
            .copied()
            .collect();
        Ok(Matrix {
            rows: ops.m,
            cols: ops.l,
            data: unpack4(&rows, ops.m, ops.l),
        })
    }

    pub fn multiply(&self, a: &Matrix, b: &Matrix) -> Result<Matrix, MatmulError> {
        let ops = self.upload(a, b)?;
        self.run(&ops)?;
        self.read(&ops)
    }
}

/// Rows of `cols` values → `rows` rows of `cols_to` values, zero-filled beyond the input.
fn pad<T: Copy + Default>(data: &[T], cols: usize, rows: usize, cols_to: usize) -> Vec<T> {
    let mut out = vec![T::default(); rows * cols_to];
    for (src, dst) in data.chunks(cols.max(1)).zip(out.chunks_mut(cols_to)) {
        dst[..cols].copy_from_slice(src);
    }
    out
}
