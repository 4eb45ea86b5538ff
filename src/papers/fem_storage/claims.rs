//! Boo & Kim 2012's claims, quoted from the paper (Korean) with our English rendering; the
//! findings of `experiments/` are their cases ([`crate::report::claim`]).

use crate::report::claim::{Claim, Scope};

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "F1",
        section: "abstract; §III",
        quote: "2차원 격자구조에서는 각 절점당 최소 1개에서 최대 5개까지의 저장 공간이 필요하게 되고, 3차원 격자구조에서는 각 절점당 최소 1개에서 최대 14개까지의 저장 공간이 필요하게 된다.",
        english: "A 2D grid needs from 1 to at most 5 stored entries per node, a 3D grid from 1 to at most 14.",
        short: "at most 5 (2D) / 14 (3D) entries per node",
        quantity: "entries per node counted in the storage built (`table2`)",
        rule: "exact counts: max per node ≤ 5 in 2D, ≤ 14 in 3D",
        scope: Scope::Any,
        cases: &["at most 5 (2D) / 14 (3D) entries per node"],
    },
    Claim {
        id: "F2",
        section: "abstract",
        quote: "인덱스를 포함해도 2배 이상을 넘지 않는다.",
        english: "Even with the indices it does not exceed twice that.",
        short: "with indices, at most 2× the values",
        quantity: "stored words with indices / values (`table2`)",
        rule: "exact counts: ratio ≤ 2",
        scope: Scope::Any,
        cases: &["with indices at most 2×"],
    },
    Claim {
        id: "F3",
        section: "§IV (Table 2, Fig. 3); §V",
        quote: "총 절점개수가 16,384인 구조에서는 제안한 저장구조가 스카이라인 저장구조에 비하여 약 1/13의 저장 공간만을 이용함으로써",
        english: "With 16,384 nodes in all, the proposed storage uses only about 1/13 of the skyline storage.",
        short: "about 1/13 of skyline at 128×128",
        quantity: "skyline / proposed incl. indices at 128×128 (`table2`; the paper's own Table 2 gives 1/13 with the indices, 1/26 without)",
        rule: "exact counts: skyline / proposed incl. indices within 13 ÷ 1.5 … 13 × 1.5 (\"about\")",
        scope: Scope::Any,
        cases: &["about 1/13 of skyline"],
    },
    Claim {
        id: "F4",
        section: "§III",
        quote: "16,384×16,384 이상의 행렬의 경우 스카이라인 저장구조나 대상행렬 저장구조는 제안한 저장구조보다 최소 10배 이상의 메모리 공간을 요구하기 때문에",
        english: "For matrices of 16,384×16,384 and larger, skyline or symmetric storage needs at least 10 times the memory of the proposed storage.",
        short: "skyline ≥ 10× from 16,384 nodes",
        quantity: "skyline / proposed incl. indices on every grid of 16,384 nodes or more (`table2`)",
        rule: "exact counts: the smallest such ratio ≥ 10",
        scope: Scope::Any,
        cases: &["skyline ≥ 10× from 16,384 nodes"],
    },
    Claim {
        id: "F5",
        section: "§IV (Table 4)",
        quote: "GPU를 이용한 야코비반복법이 MATLAB의 해법보다 더 빠른 수행시간을 나타냄을 알 수 있었다.",
        english: "The Jacobi iteration on the GPU ran faster than MATLAB's solver (x = A\\b).",
        short: "GPU Jacobi beats MATLAB's x = A\\b",
        quantity: "GPU Jacobi time / CPU direct-solve time per size (Table 4)",
        rule: "GPU seconds to the tolerance / direct-solve seconds ≤ 1 over its whole 95 % interval, per paper size (the GPU side extrapolated where its budgeted solve did not converge)",
        scope: Scope::GpuVsCpu,
        cases: &["GPU Jacobi beats the CPU direct solve"],
    },
];
