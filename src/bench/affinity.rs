//! Keeping a process on one CPU (Linux), for the fixed costs' floor ([`super::fixed`]).
//!
//! Called before the GL context exists, [`pin_to_one_cpu`] keeps every thread the process
//! makes afterwards on one CPU: the driver's worker threads inherit the mask, and a CPU
//! driver that sizes its pools from the process's CPUs (Mesa reads `sched_getaffinity`)
//! makes one worker. Moving a running driver's threads onto one CPU instead measured
//! something else: two llvmpipe rasterizer threads and the main thread sharing one vCPU
//! cost 20 µs per empty draw, more than the 7.5 µs the two CPUs reached at their best
//! (issue 23).

/// Keeps the calling thread, and every thread it starts from now on, on the CPU it runs
/// on. Returns whether it did (`false` where the OS does not allow it).
#[cfg(target_os = "linux")]
pub fn pin_to_one_cpu() -> bool {
    // SAFETY: `sched_getcpu` takes nothing; `CPU_ZERO`/`CPU_SET` write a `cpu_set_t` owned by
    // this frame, whose size is what `sched_setaffinity` is told.
    unsafe {
        let cpu = libc::sched_getcpu();
        if cpu < 0 {
            return false;
        }
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_ZERO(&mut one);
        libc::CPU_SET(cpu as usize, &mut one);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &one) == 0
    }
}

#[cfg(not(target_os = "linux"))]
pub fn pin_to_one_cpu() -> bool {
    false
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// How many CPUs the calling thread may run on (`None` where the OS does not say).
    fn cpus_allowed() -> Option<usize> {
        // SAFETY: `sched_getaffinity` fills a `cpu_set_t` owned by this frame, of the size
        // given.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            (libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0)
                .then(|| libc::CPU_COUNT(&set) as usize)
        }
    }

    /// Pinned in a thread of its own (the mask is per thread), it and the threads it starts
    /// have one CPU.
    #[test]
    fn a_pinned_thread_and_its_children_have_one_cpu() {
        let got = std::thread::spawn(|| {
            let moved = pin_to_one_cpu();
            let child = std::thread::spawn(cpus_allowed).join().unwrap();
            (moved, cpus_allowed(), child)
        })
        .join()
        .unwrap();
        assert_eq!(got, (true, Some(1), Some(1)));
        assert!(
            cpus_allowed().is_some_and(|n| n >= 1),
            "this thread is left as it was"
        );
    }
}
