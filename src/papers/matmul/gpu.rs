//! The GPU multiplications: the paper's (Algorithms 1 + 2) and two beyond it.
//!
//! Each has the same three steps, so that the experiment can time the compute alone as the
//! paper did: `upload` (the paper's `glOpenBuffer` + `glWriteBuffer`), `run` (the dispatch
//! loop, the timed region), `read` (`glReadBuffer`).
//!
//! The paper's wrapper calls, mapped onto real GL (Algorithm 1):
//! - `glOpenBuffer(ssbo)` = `glGenBuffers` — [`Buffer`] creation;
//! - `glWriteBuffer(ssbo, 0, bytes, data, binding, usage)` = `glBindBuffer(GL_SHADER_STORAGE_
//!   BUFFER)` + `glBufferData(bytes, data, usage)` + `glBindBufferBase(binding)` —
//!   [`Buffer::from_slice`] / [`Buffer::zeroed`] then [`Buffer::bind`] (R is written with
//!   `NULL` data in the paper; we zero it so that an unwritten element cannot pass as right);
//! - `glReadBuffer(ssbo, 0, bytes, dst)` = `glGetBufferSubData` — [`Buffer::read`] (not the
//!   GL function `glReadBuffer`, which selects a framebuffer colour buffer);
//! - `glCloseBuffer(ssbo, binding)` = `glBindBufferBase(binding, 0)` + `glDeleteBuffers` — the
//!   buffers' `Drop`.
//!
//! **Work** of one timed `run` on an m×n by n×l product (what Table 1's bound columns read;
//! every SSBO access or texture fetch counts once, no cache model; fp32, an FMA = 2 flops):
//!
//! - the paper's kernel ([`Park2019Params::work`], tile `b`): the `G = ⌈l/b⌉·⌈m/b⌉` groups
//!   the matrix needs each read their `b×b` tiles of A and B once per k-step, `S = ⌈n/b⌉`
//!   steps, and (as printed) store their R element on every step:
//!   `bytes = G·S·2b²·4 + S·m·l·4`; every invocation of every *launched* group runs the
//!   `b`-long FMA loop per step: `flops = G_launched·S·2b³` (= 2N³ for the needed-groups
//!   launch where b divides N; Algorithm 1 as printed launches 64×64 groups per dispatch,
//!   whose extra groups multiply zero tiles without reading memory); dispatches
//!   `⌈⌈l/b⌉/64⌉·⌈⌈m/b⌉/64⌉`. Ragged edge tiles are counted whole (their guarded loads
//!   read less).
//! - the blocked kernel ([`BlockedParams::work`]): `I = ⌈l₄/TN⌉·⌈m/TM⌉`
//!   invocations (l₄ = ⌈l/4⌉) each read `n·TN` vec4s of B and `n·TM` floats of A and write
//!   `TM·TN` vec4s: `bytes = I·n·(16·TN + 4·TM) + m·l₄·16`, `flops = I·n·TM·TN·8`; one
//!   dispatch. With shared-memory tiles (`kwg` > 0) the memory reads are the work groups'
//!   tiles instead: `G = ⌈l₄/(TN·WG_X)⌉·⌈m/(TM·WG_Y)⌉` groups each load `n'` = n rounded up to
//!   a multiple of `kwg` k of their `TM·WG_Y` rows of A and `TN·WG_X` vec4 columns of B:
//!   `bytes = G·n'·(16·TN·WG_X + 4·TM·WG_Y) + m·l₄·16` (shared-memory traffic not counted).
//!   The same counts whether A and B are read from SSBOs or with `texelFetch` ([`Reads`]).

use std::rc::Rc;

use super::error::MatmulError;
use super::matrix::{Matrix, dims};
use super::multipass::{MULTIPASS, Multipass};
use super::pack::{pack4, rgba_rect, unpack4};
use crate::bench::{Access, Bytes, Kind, Work};
pub use crate::gl::Reads;
use crate::gl::{Buffer, Define, Format, Gl, Program, TexTarget, Texture};

/// The paper's kernel (Algorithm 2).
pub const PARK2019: &str = "matmul/park2019.comp";
/// Beyond the paper: the blocked compute kernel (register blocks, optional shared tiles).
pub const BLOCKED: &str = "matmul/blocked.comp";

/// Every program the paper's code builds, in one place: (shader file, `#define`s) for the
/// paper's kernel at the paper's tile, and the two variants with given parameters (each
/// candidate of `[table1.tune]` in `experiments/matmul.toml`). A `.comp` file is a compute
/// program, a `.frag` file a fragment program over `common/quad.vert`.
pub fn programs(blocked: BlockedParams, k_chunk: u32) -> Vec<(&'static str, Vec<Define>)> {
    vec![
        (PARK2019, Park2019Params::default().defines()),
        (BLOCKED, blocked.defines()),
        (MULTIPASS, Multipass::defines(k_chunk)),
    ]
}

/// Parameters of Algorithm 1/2.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Park2019Params {
    /// Tile edge and work-group edge (32 in the paper: 32×32 = 1024 invocations).
    pub block: u32,
    /// Most work groups per dispatch along x and y (64×64 in the paper, for Windows TDR).
    pub max_groups: u32,
    /// `false` (the paper's kernel): each dispatch launches the work groups its sub-matrix
    /// needs — §2.2: "the number of work groups is the matrix size divided by the number of
    /// work items", §3.1: *at most* 64×64 — which is also the only reading the paper's own
    /// times allow (at N = 128 a full 64×64 grid is 1.07 TFLOP of work, 3.46 TFLOPS in its
    /// 0.31 ms on a 486-GFLOPS Quadro 4000). `true`: Algorithm 1 *as printed*, which calls
    /// `glDispatchCompute(gsize.x, gsize.y, 1)` with the full 64×64 grid every time (the
    /// extra groups load zero tiles and store nothing): a labelled variant.
    pub full_grid: bool,
}

impl Default for Park2019Params {
    fn default() -> Self {
        Park2019Params {
            block: 32,
            max_groups: 64,
            full_grid: false,
        }
    }
}

impl Park2019Params {
    /// The work of one run of Algorithm 1's dispatch loop on an m×n by n×l product
    /// (module docs).
    pub fn work(&self, m: usize, n: usize, l: usize) -> Work {
        let (b, gs) = (self.block as usize, self.max_groups as usize);
        let wcnt = [l.div_ceil(b), m.div_ceil(b)];
        let dispatches = wcnt[0].div_ceil(gs) * wcnt[1].div_ceil(gs);
        let needed = (wcnt[0] * wcnt[1]) as f64;
        let launched = if self.full_grid {
            (dispatches * gs * gs) as f64
        } else {
            needed
        };
        let steps = n.div_ceil(b) as f64;
        let b = b as f64;
        Work {
            bytes: Bytes::of(&[
                (Access::SsboRead, needed * steps * 2.0 * b * b * 4.0),
                (Access::SsboWrite, steps * (m * l * 4) as f64),
            ]),
            flops32: launched * steps * 2.0 * b * b * b,
            flops64: 0.0,
            passes: 0,
            dispatches: dispatches as u64,
            kind: Kind::Compute,
        }
    }
    /// Algorithm 1 as printed: the full 64×64 grid on every dispatch.
    pub fn as_printed() -> Park2019Params {
        Park2019Params {
            full_grid: true,
            ..Default::default()
        }
    }
    /// The `#define`s of `park2019.comp` for these parameters.
    pub fn defines(&self) -> Vec<Define> {
        vec![Define::new("BLOCK_SIZE", self.block)]
    }
}

/// Operands resident on the GPU.
pub struct Operands {
    m: usize,
    n: usize,
    l: usize,
    a: Buffer<f32>,
    b: Buffer<f32>,
    r: Buffer<f32>,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Info {
    /// `glDispatchCompute` calls (one per sub-matrix).
    pub dispatches: u32,
    /// Work groups launched in all.
    pub groups: u64,
}

/// Algorithms 1 and 2.
pub struct Park2019 {
    gl: Gl,
    prog: Rc<Program>,
    params: Park2019Params,
}

impl Park2019 {
    pub fn new(gl: &Gl, params: Park2019Params) -> Result<Park2019, MatmulError> {
        let prog = Program::compute(gl, PARK2019, &params.defines())?;
        Ok(Park2019 {
            gl: gl.clone(),
            prog,
            params,
        })
    }

    /// `glOpenBuffer` + `glWriteBuffer` for A, B and R.
    pub fn upload(&self, a: &Matrix, b: &Matrix) -> Result<Operands, MatmulError> {
        let (m, n, l) = dims(a, b)?;
        Ok(Operands {
            m,
            n,
            l,
            a: Buffer::from_slice(&self.gl, &a.data)?,
            b: Buffer::from_slice(&self.gl, &b.data)?,
            r: Buffer::zeroed(&self.gl, m * l)?,
        })
    }

    /// The dispatch loop of Algorithm 1 (the timed region).
    pub fn run(&self, ops: &Operands) -> Result<Info, MatmulError> {
        let p = &self.prog;
        let (bs, gs) = (self.params.block as usize, self.params.max_groups as usize);
        // wcnt: work groups the matrix needs; gcnt: sub-matrices; nelem: elements per dispatch.
        let wcnt = [ops.l.div_ceil(bs), ops.m.div_ceil(bs)];
        let gcnt = [wcnt[0].div_ceil(gs), wcnt[1].div_ceil(gs)];
        let nelem = bs * gs;
        ops.a.bind(0);
        ops.b.bind(1);
        ops.r.bind(2);
        p.set_u32("m", ops.m as u32);
        p.set_u32("n", ops.n as u32);
        p.set_u32("l", ops.l as u32);
        let mut info = Info::default();
        for yi in 0..gcnt[1] {
            let y0 = nelem * yi;
            for xi in 0..gcnt[0] {
                let x0 = nelem * xi;
                p.set_u32("x0", x0 as u32);
                p.set_u32("y0", y0 as u32);
                let groups = if self.params.full_grid {
                    [gs, gs]
                } else {
                    [(wcnt[0] - xi * gs).min(gs), (wcnt[1] - yi * gs).min(gs)]
                };
                p.dispatch([groups[0] as u32, groups[1] as u32, 1])?;
                info.dispatches += 1;
                info.groups += (groups[0] * groups[1]) as u64;
            }
        }
        Ok(info)
    }

    /// `glReadBuffer`: R back to the CPU.
    pub fn read(&self, ops: &Operands) -> Result<Matrix, MatmulError> {
        Ok(Matrix {
            rows: ops.m,
            cols: ops.l,
            data: ops.r.read()?,
        })
    }

    /// Upload, run, read.
    pub fn multiply(&self, a: &Matrix, b: &Matrix) -> Result<Matrix, MatmulError> {
        let ops = self.upload(a, b)?;
        self.run(&ops)?;
        self.read(&ops)
    }
}

/// Parameters of the blocked kernel (CLBlast's names in `glsl/matmul/blocked.comp`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
}

impl BlockedParams {
    /// The work of one run on an m×n by n×l product (module docs).
    pub fn work(&self, m: usize, n: usize, l: usize) -> Work {
        let (tm, tn) = (self.tm as usize, self.tn as usize);
        let l4 = l.div_ceil(4);
        let inv = (l4.div_ceil(tn) * m.div_ceil(tm)) as f64;
        let read = match self.reads {
            Reads::Ssbo => Access::SsboRead,
            Reads::Texture => Access::ImageRead,
        };
        let loaded = if self.kwg == 0 {
            inv * n as f64 * (16 * tn + 4 * tm) as f64
        } else {
            let (mwg, nwg4) = (tm * self.wg_y as usize, tn * self.wg_x as usize);
            let groups = (l4.div_ceil(nwg4) * m.div_ceil(mwg)) as f64;
            let k = n.next_multiple_of(self.kwg as usize) as f64;
            groups * k * (16 * nwg4 + 4 * mwg) as f64
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
        d.extend(self.reads.define());
        d
    }

    /// The candidate's label in the tuning table: `tm=8 tn=2 wg=16×1 kwg=32 db ssbo`.
    pub fn label(&self) -> String {
        let tile = match (self.kwg, self.db) {
            (0, _) => String::new(),
            (k, false) => format!(" kwg={k}"),
            (k, true) => format!(" kwg={k} db"),
        };
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
        let tiles = match (self.kwg, self.db) {
            (0, _) => "no shared memory".to_string(),
            (k, false) => format!("{k}-deep tiles of A and B in shared memory"),
            (k, true) => format!("{k}-deep double-buffered tiles of A and B in shared memory"),
        };
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

/// Operands of [`Blocked`]: B and R with l padded to a multiple of 4.
pub struct BlockedOperands {
    m: usize,
    n: usize,
    l: usize,
    l4: usize,
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
        let l4 = l.div_ceil(4);
        let g = &self.gl;
        let inputs = match self.params.reads {
            Reads::Ssbo => BlockedInputs::Ssbo(
                Buffer::from_slice(g, &a.data)?,
                Buffer::from_slice(g, &pack4(&b.data, n, l))?,
            ),
            Reads::Texture => {
                let (w, h) = (n as u32, m as u32);
                let a = Texture::new(g, TexTarget::Rect, Format::R32F, w, h, Some(&a.data))?;
                BlockedInputs::Texture(a, rgba_rect(g, b, n)?)
            }
        };
        Ok(BlockedOperands {
            m,
            n,
            l,
            l4,
            inputs,
            r: Buffer::zeroed(g, m * l4)?,
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
        self.prog.set_u32("m", ops.m as u32);
        self.prog.set_u32("n", ops.n as u32);
        self.prog.set_u32("l4", ops.l4 as u32);
        let gx = ops.l4.div_ceil((p.tn * p.wg_x) as usize) as u32;
        let gy = ops.m.div_ceil((p.tm * p.wg_y) as usize) as u32;
        self.prog.dispatch([gx, gy, 1])?;
        Ok(())
    }

    pub fn read(&self, ops: &BlockedOperands) -> Result<Matrix, MatmulError> {
        Ok(Matrix {
            rows: ops.m,
            cols: ops.l,
            data: unpack4(&ops.r.read()?, ops.m, ops.l),
        })
    }

    pub fn multiply(&self, a: &Matrix, b: &Matrix) -> Result<Matrix, MatmulError> {
        let ops = self.upload(a, b)?;
        self.run(&ops)?;
        self.read(&ops)
    }
}

#[cfg(test)]
mod work_tests {
    use super::*;

    #[test]
    fn work_at_n_128_by_hand() {
        let n = 128;
        let flops = 2.0 * (n * n * n) as f64;
        // Paper's kernel: 16 groups × 4 k-steps × two 4 KiB tiles, R stored on each step.
        let p = Park2019Params::default().work(n, n, n);
        assert_eq!((p.flops32, p.dispatches), (flops, 1));
        assert_eq!(p.bytes.total(), 16.0 * 4.0 * 8192.0 + 4.0 * 16384.0 * 4.0);
        // As printed: the full 64×64 grid, 2·(32·64)²·N flops (the note's count).
        let a = Park2019Params::as_printed().work(n, n, n);
        assert_eq!(a.flops32, 2.0 * 2048.0 * 2048.0 * n as f64);
        assert_eq!(a.bytes, p.bytes);
        // Blocked 4×2: 512 invocations, each 128 k of 2 vec4 + 4 floats.
        let b = BlockedParams {
            tm: 4,
            tn: 2,
            wg_x: 8,
            ..Default::default()
        }
        .work(n, n, n);
        assert_eq!(b.flops32, flops);
        assert_eq!(b.bytes.total(), 512.0 * 128.0 * 48.0 + 65536.0);
        // The same block in 32-deep shared tiles: 2 × 4 groups of 32 rows × 16 vec4 columns,
        // each loading its 128 k of both once.
        let t = BlockedParams {
            tm: 4,
            tn: 2,
            kwg: 32,
            ..Default::default()
        }
        .work(n, n, n);
        assert_eq!(t.flops32, flops);
        assert_eq!(t.bytes.total(), 8.0 * 128.0 * (256.0 + 128.0) + 65536.0);
        // Multipass, 64 k per pass: 2 passes over 32×128 texels.
        let f = Multipass::work(64, n, n, n);
        assert_eq!((f.flops32, f.passes, f.kind), (flops, 2, Kind::Fragment));
        assert_eq!(f.bytes.total(), 4096.0 * 16.0 * (4.0 + 160.0 + 1.0));
    }

    #[test]
    fn tiles_beyond_guaranteed_shared_memory_are_refused() {
        // 128 rows × 64 vec4 in 16-deep tiles: 24 KiB, fits; double-buffered 48 KiB does not.
        let p = BlockedParams {
            tm: 8,
            tn: 4,
            wg_x: 16,
            wg_y: 16,
            kwg: 16,
            ..Default::default()
        };
        assert_eq!(p.shared_bytes(), 16 * (128 * 4 + 64 * 16));
        assert!(p.validate().is_ok());
        let e = BlockedParams { db: true, ..p }.validate().unwrap_err();
        assert!(e.contains("shared memory"), "{e}");
    }
}
