//! `gpgpu-repro bench`: the device's own limits, measured clpeak-style, and the bound they put
//! on every timed kernel.
//!
//! # What is measured (one file per kind of measurement)
//! - [`memory`]: SSBO bandwidth in compute shaders — read (each invocation sums `READS`
//!   elements, neighbouring invocations reading neighbouring elements), write, copy — over
//!   `vec4` (16 B) and `dvec4` (32 B) elements; upload (`glBufferSubData`, `glTexSubImage2D`)
//!   and readback (`glGetBufferSubData`, `glGetTexImage`) bandwidth.
//! - [`texture`]: texture-fetch bandwidth of a fragment pass (RGBA32F and R32F, rectangle and
//!   2D, consecutive and strided fetches), render-target write bandwidth (RGBA32F, R32F) and
//!   `glCopyTexSubImage2D` bandwidth; and the same consecutive RGBA32F fetch from a compute
//!   dispatch (`texelFetch` in, `imageStore` out), the compute pipeline's other road to
//!   memory. Mesa 22.3's llvmpipe runs shader-storage loads lane by lane and texel fetches as
//!   vector gathers, so there the texture path is the faster way for compute to read. The
//!   compute roof is the best of all compute rows, so that an SSBO kernel is read against
//!   what compute can reach.
//! - [`flops`]: fp32 and fp64 FMA throughput in compute and fragment shaders: 2, 4 and 8
//!   independent unrolled chains `x ← a·x + b` per invocation (the fastest kept, so that the
//!   rate is throughput, not latency), `a`, `b` uniforms (nothing folds), the sums stored
//!   (nothing is dead code).
//! - [`fixed`]: fixed costs — an empty draw with a framebuffer switch, an empty dispatch with
//!   its barrier, a `glFinish` round trip.
//!
//! Every bandwidth kernel is **swept** over its working set ([`sweep`]): from cache-resident
//! sizes to far beyond the last cache; its row's value is the plateau at the large sizes
//! (the memory roof), its `peak` the fastest size, its `cache` the levels above the plateau.
//!
//! # Time
//! The bench settles within a budget ([`Settings::budget`], [`budget`] states the model):
//! each row has a share of it, the same in every pass; its timing plans are cut to what is
//! left of the share, and its sweep grows to a larger size only if that size is predicted to
//! fit. The sizes a sweep could not reach are in its row ([`Measurement::unreached`]), and a
//! plateau read before the ladder's planned end is a cache's ([`Measurement::left_caches`],
//! [`AccessRoof::cache_only`]). Each pass starts on a warm device ([`warm`]: a timed kernel
//! until two runs agree within 2 %), recorded in the profile.
//!
//! Every result is read back and compared with a CPU reference in f64
//! ([`crate::stats::max_rel_error`]); a measurement whose check fails keeps its error but no
//! value. Times are `glFinish`-bracketed runs of [`crate::gl::measure::measure_gpu`] (adaptive
//! until the median's 95 % interval is narrow or the budget is spent); a timed run repeats
//! the kernel `reps` times, `reps` chosen from one calibration run so that a run lasts at
//! least [`Settings::min_run_ms`]. A value is the **best** run (the least time,
//! BabelStream's rule: a roof is what the device can reach, and other processes can only
//! lengthen a run); the JSON keeps every run and the median's interval. A fixed cost makes
//! many short runs instead, a fixed count ([`Settings::fixed_timing`], [`fixed`] says why).
//! The whole bench runs in [`Settings::passes`] passes, each row the best of its passes
//! ([`passes`]: a slow spell of the host lasts longer than one measurement, not than a pass);
//! run by the program, each pass is a process of its own ([`passes_in_processes`]: some
//! states of the host last as long as the process that met them).
//!
//! # Units
//! Bandwidth `B / t` in GB/s (10⁹ bytes per second), `B` the bytes read plus written by one
//! kernel; throughput `F / t` in GFLOPS, an FMA counting 2 flops; fixed costs in µs per
//! operation.
//!
//! # The bound of a kernel ([`bound`])
//! For a kernel that moves `B_a` bytes of each access kind `a`, does `F₃₂` and `F₆₄` flops in
//! `P` passes and `D` dispatches:
//! `t ≥ max(max_a B_a / BW_a, F₃₂ / peak₃₂_kind, F₆₄ / peak₆₄_kind, P·t_draw + D·t_dispatch)`,
//! with `BW_a` the peak of access kind `a` over the sweep ([`bound`] says why the peak and
//! why the maximum over kinds).
//! The roofline ([`mod@roofline`]) draws the pipelines' memory roofs against operational
//! intensity `F / B`.

pub mod affinity;
pub mod bound;
pub mod budget;
pub mod driver;
pub mod error;
pub mod fixed;
pub mod flops;
pub mod groups;
pub mod kernel;
pub mod ladder;
pub mod limits;
pub mod measurement;
pub mod memory;
pub mod passes;
pub mod profile;
pub mod roofline;
pub mod settings;
pub mod sweep;
pub mod texture;
pub mod warm;

/// The work model and the bound are plain data below the bench and the report
/// ([`crate::work`]); re-exported here beside the limits that bound them.
pub use crate::work::{Access, Bound, Bytes, Kind, Limiter, OVER_BOUND, Work};
pub use driver::{measure, measure_only, measure_pass, passes_in_processes, run};
pub use error::{BenchError, interrupt};
pub use limits::{AccessRoof, Limits};
pub use measurement::Measurement;
pub use memory::{Bandwidth, ssbo_stream_bandwidth};
pub use profile::DeviceProfile;
pub use roofline::{Pipeline, RooflinePoint, roofline};
pub use settings::{Settings, default_path};
pub use texture::{FetchPass, texture_read_bandwidth};
