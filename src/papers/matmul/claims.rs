//! Park 2019's claims, quoted from the paper (its abstract is in English, its body in
//! Korean); the findings of `experiments/findings.rs` are their cases
//! ([`crate::report::claim`]).

use crate::report::claim::{Claim, Scope};

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "M1",
        section: "abstract; §4 (Fig. 3, Table 1)",
        quote: "예상대로 GPU-알고리즘이 상당히 빠르며, $n = 4096$ 일 때 대략 208배의 속도 차이가 나타남을 확인할 수 있다.",
        english: "As expected the GPU algorithm is considerably faster; at n = 4096 the speeds differ by about 208 times (abstract: \"runs about 208 times faster than previous CPU algorithm\").",
        short: "GPU about 208× faster than the CPU at N = 4096, growing with N",
        quantity: "GPU / CPU GFLOPS of the paper's kernel and the naive CPU loop, at the largest N run and at N = 128",
        rule: "speed-up ≥ 4 (Table 1's smallest) at the largest N and growing with N, intervals separate",
        scope: Scope::GpuVsCpu,
        cases: &["the GPU is far faster than the CPU"],
    },
    Claim {
        id: "M2",
        section: "abstract",
        quote: "achieves performance of 75 GFLOPS in single precision for dense matrices with matrix size 4,096",
        english: "(the paper's English) 75 GFLOPS in single precision at N = 4,096.",
        short: "75 GFLOPS at N = 4096",
        quantity: "GFLOPS of the paper's kernel at N = 4096",
        rule: "an absolute speed of a 2010 Quadro 4000: it measures the device, not the kernel",
        scope: Scope::GpuVsCpu,
        cases: &["75 GFLOPS at N = 4096"],
    },
    Claim {
        id: "M3",
        section: "Table 1 (no sentence: read from Table 1)",
        quote: "(no sentence: read from Table 1's GPU GFLOPS column)",
        english: "Read from Table 1: the GPU's GFLOPS grow fast at small N and level off at large N.",
        short: "the GPU's throughput levels off at large N (read from Table 1)",
        quantity: "GFLOPS growth N = 1024 → 2048 against growth 128 → 256",
        rule: "growth at large N below growth at small N, intervals separate",
        scope: Scope::Any,
        cases: &["the GPU's throughput levels off"],
    },
];
