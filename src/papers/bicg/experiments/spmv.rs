//! SpMV achieved bandwidth (ELLPACK-R, §IV.1, fp64) against a streaming copy on the same
//! device: the bytes of one product ([`crate::papers::bicg::ellpack::EllpackR::spmv_bytes`]) over its
//! median time, beside this paper's own fp64 copy kernel and `bench`'s vec4 stream.

use super::config::Config;
use super::solve::time_gpu;
use crate::papers::bicg::gpu::{GpuBicg, GpuOptions, Kernel};
use crate::papers::bicg::poisson::fig4_problem;
use crate::report::{Column, with_bound_columns};
use crate::runner::{RunError, Session, TableWriter};
use crate::stats::max_rel_error;
use crate::util::{RngExt, rng};

pub fn run(s: &Session, cfg: &Config) -> Result<(), RunError> {
    let opts = cfg.solver.gpu_options();
    let mesh = cfg.spmv.mesh.pick(s.mode).0;
    let plan = cfg.spmv.repeat.plan();
    let mut t = table(s, cfg, opts)?;
    let key = mesh.label();
    if let Some(row) = t.reuse(&key)? {
        // The note of the run that measured the row, from its cells.
        let [bw, copy64, stream] = ["SpMV bandwidth", "fp64 copy", "Device stream"]
            .map(|c| t.value(&row, c).unwrap_or(f64::NAN));
        note(s, &key, bw, copy64, stream);
    } else {
        t.start(&key);
        let sys = fig4_problem(&mesh);
        let n = mesh.nodes();
        let mut g = GpuBicg::<f64>::new(&s.gl, &sys.a, true, opts).map_err(RunError::algorithm)?;
        let mut r = rng(7);
        let x: Vec<f64> = (0..n).map(|_| r.random_range(-1.0..1.0)).collect();
        let y = g.apply(&x, false).map_err(RunError::algorithm)?;
        let mut yref = vec![0.0; n];
        sys.a.spmv(&x, &mut yref);
        let err = max_rel_error(&y, &yref);
        // The work of one product (its dispatch counted once, then timed).
        g.reset_work();
        g.spmv_resident()?;
        let work = g.kernel_work(Kernel::SpMV);
        let ts = time_gpu(&s.gl, plan, || Ok(g.spmv_resident()?))?.timing();
        let tc = time_gpu(&s.gl, plan, || Ok(g.copy_resident()?))?.timing();
        let bytes = sys.a.spmv_bytes() as f64;
        let bw = bytes / (ts.median_ms * 1e-3) / 1e9;
        let copy64 = (16.0 * n as f64) / (tc.median_ms * 1e-3) / 1e9;
        let stream = crate::bench::ssbo_stream_bandwidth(&s.gl, 64)?.gb_per_s;
        t.push(
            t.row(&key)
                .text("Mesh", &key)
                .num("Nonzeros", sys.a.nnz() as f64)
                .timed("SpMV time", &ts)
                .num("SpMV bytes", bytes / 1e6)
                .est("SpMV bandwidth", ts.rate(bytes / 1e9))
                .est("fp64 copy", tc.rate(16.0 * n as f64 / 1e9))
                .num("Device stream", stream)
                .est("Fraction", ts.rate(bytes / 1e9).map(|b| b / stream))
                .runs(ts.runs)
                .work_timed(Kernel::SpMV.name(), work, &ts)
                .verify(err, 1e-15),
        )?;
        note(s, &key, bw, copy64, stream);
    }
    t.finish()?;
    Ok(())
}

/// The note on the bandwidths (GB/s) measured at mesh `key`.
fn note(s: &Session, key: &str, bw: f64, copy64: f64, stream: f64) {
    s.note(format!(
        "SpMV bandwidth at {key}: {bw:.2} GB/s achieved, {:.2} of the {stream:.2} GB/s a \
         streaming copy (bench::ssbo_stream_bandwidth) reaches on this device; this paper's \
         own fp64 copy kernel reaches {copy64:.2} GB/s.",
        bw / stream
    ));
}

/// The table and its captions.
fn table(s: &Session, cfg: &Config, opts: GpuOptions) -> Result<TableWriter, RunError> {
    let mut t = s.table(
        "spmv",
        "SpMV achieved bandwidth (ELLPACK-R, fp64) vs a streaming copy on the same device",
        with_bound_columns(vec![
            Column::key("Mesh").text(),
            Column::ours("Nonzeros").int(),
            Column::ours("SpMV time").unit("ms").fixed(2),
            Column::ours("SpMV bytes").unit("MB").fixed(1),
            Column::ours("SpMV bandwidth").unit("GB/s").fixed(2),
            Column::ours("fp64 copy").unit("GB/s").fixed(2),
            Column::ours("Device stream").unit("GB/s").fixed(2),
            Column::ours("Fraction").fixed(2),
        ]),
        &(&cfg.spmv, opts),
    )?;
    t.expect_rows(1);
    t.caption(
        "SpMV bytes: values + column indices (12 B per stored non-zero) + row lengths + one \
         gathered x entry per non-zero + y written. fp64 copy: this paper's copy.comp on two \
         resident fp64 vectors of the same length (16 B per element). Device stream: \
         `bench::ssbo_stream_bandwidth` (vec4 copy over 64 MiB buffers), the denominator of \
         Fraction. Verified: the GPU SpMV against the CPU SpMV in f64 (same summation order, \
         no FMA contraction: expected exact).",
    );
    t.caption(format!(
        "SpMV time and the fp64 copy: each {}; the bandwidths and Fraction carry their time's \
         interval (Device stream: one measurement).",
        super::solve::rule(&cfg.spmv.repeat)
    ));
    Ok(t)
}
