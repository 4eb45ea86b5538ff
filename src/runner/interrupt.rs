//! Ctrl-C and SIGTERM: the flag a stop request sets, and the backstop that ends the process
//! if the row under way does not end in time ([`STOP_GRACE`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The flag a Ctrl-C sets: the run ends its current row after the repetition under way
/// ([`crate::gl::timing::request_stop`]; that row is not written) and stops, a bench its
/// current measurement ([`crate::bench::interrupt`]); a second Ctrl-C exits at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    // A second handler cannot be installed (e.g. in tests): then Ctrl-C just kills us, and
    // the atomic writes still leave complete files only. With the `termination` feature
    // the handler also catches SIGTERM (and SIGHUP).
    let _ = ctrlc::set_handler(move || {
        crate::bench::interrupt();
        crate::gl::timing::request_stop();
        if flag.swap(true, Ordering::SeqCst) {
            // As the backstop does ([`exit_after_grace`]): `exit` would run the atexit
            // handlers, tearing down the GL driver under the main thread still inside it.
            // SAFETY: `_exit` ends the process at once; it touches no Rust state.
            unsafe { libc::_exit(130) }
        }
        eprintln!(
            "\ninterrupt: stopping after the current repetition or bench measurement (Ctrl-C \
             again to quit now)"
        );
        std::thread::spawn(exit_after_grace);
    });
    interrupted
}

/// How long a stop request may take before the process ends anyway: the issue-40 promise is
/// an exit within 5 s of the signal, on every device.
pub const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(4);

/// The backstop of a stop request. The repetition loops end after the run under way, but one
/// run can be long (a CPU baseline at N = 2048, a first round of many variants, an f64
/// reference): if the run has not ended [`STOP_GRACE`] after the signal, the process exits
/// here with 130. Nothing is lost that `--resume` needs: every finished row is already on disk
/// (each push rewrites its table atomically, temp file then rename), and a row under way is
/// never written; a temp file cut short stays a dot-file beside complete ones. `_exit` skips
/// the atexit handlers, which would tear down the GL driver under a thread still inside it.
fn exit_after_grace() {
    std::thread::sleep(STOP_GRACE);
    eprintln!(
        "interrupt: the row under way did not end within {} s; exiting (finished rows are \
         saved; rerun with --resume)",
        STOP_GRACE.as_secs()
    );
    // SAFETY: `_exit` ends the process at once; it touches no Rust state.
    unsafe { libc::_exit(130) }
}
