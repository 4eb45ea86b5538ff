//! Park, Woo & Kim 2011's claims, quoted from the paper (Korean; its abstract also in
//! English) with our English rendering; the findings of `experiments/` are their cases
//! ([`crate::report::claim`]).

use crate::report::claim::{Claim, Scope};

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "B1",
        section: "abstract; §VI (conclusion)",
        quote: "포아송 방정식 해법에서 최대 33 배의 성능 향상을 실현하였다.",
        english: "The Poisson solver ran up to 33 times faster (abstract: \"our solver is around 30 times faster than those with traditional methods based on single core CPU systems\").",
        short: "the GPU Bi-CG is about 30× (up to 33×) faster than one CPU core",
        quantity: "CPU time / GPU time of the Bi-CG solve per mesh (Fig. 4)",
        rule: "speed-up ≥ 1 at the large meshes; the 30× is a GTX 285 against an i7 core",
        scope: Scope::GpuVsCpu,
        cases: &["the GPU Bi-CG is about 30× faster"],
    },
    Claim {
        id: "B2",
        section: "§V (Fig. 4)",
        quote: "주목할 점은 메시 크기가 가장 작은 경우 (즉, $16 \\times 16 \\times 16$) CPU에서 실행한 속도가 GPU 보다도 오히려 빨랐다는 점이다(i7에서 17.496 ms, i7 시스템에 설치한 GTX285에서 75.7 ms).",
        english: "Note that at the smallest mesh (16×16×16) the CPU was faster than the GPU (17.496 ms on the i7, 75.7 ms on the GTX 285 in the i7 system).",
        short: "at 16³ the CPU beats the GPU",
        quantity: "GPU time / CPU time at 16×16×16 (Fig. 4)",
        rule: "ratio ≥ 1 over its whole 95 % interval",
        scope: Scope::GpuVsCpu,
        cases: &["at 16³ the CPU beats the GPU"],
    },
    Claim {
        id: "B3",
        section: "§V (Fig. 4)",
        quote: "이 구조에서의 실행 시간은 메시 노드 개수가 2배(즉, 회소 행렬 크기는 비압축에서 4배)에 해당되는 $128 \\times 128 \\times 64$ 와 $64 \\times 128 \\times 128$ 의 수행 시간과 거의 동일함을 볼 수 있다.",
        english: "The run time of this mesh (64×128×64) is almost the same as that of 128×128×64 and 64×128×128, which have twice the nodes.",
        short: "64×128×64 takes about as long as meshes with twice the nodes",
        quantity: "CPU time of 64×128×64 / CPU time of 128×128×64 and of 64×128×128 (Fig. 4's CPU bars, the memory-access effect the paper names)",
        rule: "each ratio within `fig4.about_as_long` of 1 either way (`experiments/bicg.toml`) over its whole 95 % interval (\"almost the same\"), ≥ 6 runs",
        scope: Scope::Any,
        cases: &["64×128×64 takes about as long"],
    },
    Claim {
        id: "B4",
        section: "§V.라 (Fig. 7)",
        quote: "결과 그래프에서 보면 SpMV로 표시되는 회소 행렬과 벡터의 곱 연산이 가장 큰 비중(38.77%)을 차지하고 있다는 사실을 확인할 수 있다.",
        english: "The graph shows that the sparse matrix–vector product, marked SpMV, takes the largest share (38.77 %).",
        short: "SpMV takes the largest share of the time",
        quantity: "each kernel's share of the Bi-CG time (Fig. 7)",
        rule: "SpMV's time / the largest other kernel's ≥ 1 over its whole 95 % interval, paired over blocks of the profiled solve",
        scope: Scope::Any,
        cases: &["SpMV takes the largest share"],
    },
    Claim {
        id: "B5",
        section: "§VI (conclusion); abstract",
        quote: "32비트 단정도 실수를 사용할 경우 수렴하지 않는 문제가 종종 발생하며",
        english: "With 32-bit single precision the solver often fails to converge (abstract: \"we use 64-bit double-precision operations for better convergence\").",
        short: "fp64 is needed: fp32 often fails to converge",
        quantity: "convergence of the same Bi-CG in fp32 and fp64 on Fig. 4's Laplace system (`precision`) and on the charged BioFET systems in SI units — Poisson with an ε jump and the double layer's charge, and one implicit Scharfetter–Gummel step, non-symmetric (`precision_charged`)",
        rule: "per system: fp64's solution meets its bound against the f64 CPU solution, and fp32 stops without converging (cap, breakdown, non-finite) or errs by more than 1e-3 (well above fp32's rounding floor)",
        scope: Scope::Any,
        cases: &["fp64 is needed"],
    },
    Claim {
        id: "B6",
        section: "§V.라 (Fig. 7)",
        quote: "Bi-CG 루틴의 특성상 이러한 연산이 많이 수행(838회)되어야 하기 때문에",
        english: "By the nature of the Bi-CG routine this operation (V_plus_bU) has to run many times (838).",
        short: "V_plus_bU runs 838 times",
        quantity: "calls of V_plus_bU in one solve (Fig. 7's count)",
        rule: "exact count: linbcg's 5k − 2 calls for the solve's k iterations (the paper's count fits it with a whole k; ours is of our mesh's iterations)",
        scope: Scope::Any,
        cases: &["V_plus_bU runs many times"],
    },
];
