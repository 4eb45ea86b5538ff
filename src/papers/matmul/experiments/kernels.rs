//! The GPU kernels of Table 1, as the roofline and `table1_kernels` name them.

/// The roofline names of the GPU kernels, in the order of `table1_kernels`' rows.
pub const KERNELS: [&str; 4] = [
    "Alg. 2 (paper)",
    "Alg. 1 as printed",
    "blocked compute",
    "fragment multipass",
];
