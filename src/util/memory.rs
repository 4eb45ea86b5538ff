//! The host's memory, read from Linux's `/proc/meminfo`: the experiments check what a size
//! needs against it before they allocate.

/// The machine's physical memory in bytes (`MemTotal` of Linux's `/proc/meminfo`); `None`
/// where it cannot be read. Experiments compare what a size needs against it before they
/// allocate, so that a size too large is refused with a message instead of an abort.
pub fn host_memory_bytes() -> Option<u64> {
    meminfo("MemTotal:")
}

/// The memory available for new allocations (`MemAvailable` of `/proc/meminfo`) in bytes;
/// `None` where it cannot be read. A software GL (llvmpipe) keeps its textures and buffers
/// there too, so the size checks compare host and device bytes against it.
pub fn available_memory() -> Option<u64> {
    meminfo("MemAvailable:")
}

/// One `kB` field of Linux's `/proc/meminfo`, in bytes.
fn meminfo(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
