//! The work counts of the kernels at N = 128, by hand, and the shared-memory check.

use super::blocked::BlockedParams;
use super::park2019::Park2019Params;
use crate::bench::Kind;
use crate::papers::matmul::multipass::Multipass;

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

#[test]
fn a_read_four_k_per_load_is_the_same_work_and_needs_no_tiles() {
    let p = BlockedParams {
        tm: 8,
        tn: 1,
        wg_x: 16,
        wg_y: 1,
        ..Default::default()
    };
    let p4 = BlockedParams { ka: 4, ..p };
    assert!(p4.validate().is_ok());
    assert_eq!(p4.work(128, 128, 128), p.work(128, 128, 128));
    // 128 rows × 16 vec4 columns per invocation's column: 16·(128/8) invocations per vec4 row.
    assert_eq!(p4.work(128, 128, 128).flops32, 2.0 * 128f64.powi(3));
    // Ragged sizes are padded to whole group tiles and k to a multiple of 4.
    let pad = p4.padded(33, 65, 17);
    assert_eq!((pad.m, pad.n, pad.l4), (40, 68, 16));
    for (bad, key) in [
        (BlockedParams { ka: 2, ..p }, "blocked.ka = 2"),
        (BlockedParams { kwg: 16, ..p4 }, "kwg = 16"),
    ] {
        let e = bad.validate().unwrap_err();
        assert!(e.contains(key), "{e}");
    }
}
