//! Matsui, Ino & Hagihara 2005's claims, quoted from the paper (Japanese) with our English
//! rendering; the findings of `experiments/findings/` are their cases
//! ([`crate::report::claim`]).

use crate::report::claim::{Claim, Scope};

pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "L1",
        section: "§6, finding 1",
        quote: "1) 依存関係のある繰返しに対しては切替え方式を用いた実装が VRAM 内のコピーを回避でき, LU 分解の実行時間を半減できたこと",
        english: "1) for the dependent loop, the implementations with the switch method avoid the copies within VRAM and halved LU's execution time",
        short: "switching render targets instead of copying halves the time",
        quantity: "A(switch) / A(copy), paired by round, mean over I1–I4 at the paper's N = 2048 (Table 4)",
        rule: "mean ratio ≤ 0.6 over its whole 95 % interval (\"halve\" read as at most 0.6, a band wider than the between-run spread)",
        scope: Scope::Any,
        cases: &["switching render targets instead of copying halves the time"],
    },
    Claim {
        id: "L2",
        section: "§6, finding 2 (§4.1 guideline 1–2)",
        quote: "2) CPU および GPU は, 分岐処理の効率に関してトレードオフの関係にあり, 行列サイズが 512 を超える場合は CPU による分岐処理の効率が良いこと",
        english: "2) the CPU and the GPU trade off in branching efficiency; for matrices larger than 512 branching on the CPU is the more efficient",
        short: "CPU branching beats GPU branching above N = 512",
        quantity: "A(GPU branching) / A(CPU branching), I2/I1 and I4/I3, at N > 512 (Table 4)",
        rule: "each ratio ≥ 1 over its whole 95 % interval; the copy pairs exempt where branching saves copies (guideline 2)",
        scope: Scope::Any,
        cases: &["CPU branching beats GPU branching"],
    },
    Claim {
        id: "L3",
        section: "§6, finding 3 (§4.3)",
        quote: "3) 今回の実装において浮動小数点演算性能に関する効率は 30%弱であり, GPU の持つ演算性能を引き出すためには高いバンド幅を持つ GPU 内キャッシュが必要であること",
        english: "3) in these implementations the floating-point efficiency is just under 30 %, and a high-bandwidth cache inside the GPU is needed to draw out its arithmetic performance",
        short: "the passes are bound by texture-cache bandwidth",
        quantity: "G(fetch-only) / G(full) and the fraction of the texture roof reached (`sec4_3`)",
        rule: "fetch-only time ≥ 0.7 of the full pass (the fetches dominate) and the fraction of the texture roof ≥ the paper's lower share; a fraction above 1 (median over the rounds) means the roof is the wrong yardstick: inconclusive",
        scope: Scope::Any,
        cases: &["the passes are bound by texture-cache bandwidth"],
    },
    Claim {
        id: "L4",
        section: "§6, finding 4 (§5.1)",
        quote: "4) GPU および CPU の計算結果が一致することはなく, その主な原因は分解における除算の計算誤差が累積するためであること",
        english: "4) the GPU's and the CPU's results never agree, mainly because the division errors of the factorization accumulate",
        short: "GPU and CPU results differ, mainly from division error",
        quantity: "first N at which GPU and CPU factors differ; divide error in ULP (`table5`, `sec5_1_2005`)",
        rule: "factors differ and the division is not correctly rounded",
        scope: Scope::Any,
        cases: &["GPU and CPU results differ"],
    },
    Claim {
        id: "L5",
        section: "§4.2",
        quote: "ゆえに，ベクトル演算の使用は，全体性能向上に不可欠である．",
        english: "Hence using vector operations is essential to the overall performance.",
        short: "vector operations (RGBA, I3) are essential",
        quantity: "A(I1) / A(I3) at N = 2048, copy method (Table 4)",
        rule: "I3 faster than I1: ratio ≥ 1 over its whole 95 % interval",
        scope: Scope::Any,
        cases: &["vector operations are essential"],
    },
    Claim {
        id: "L6",
        section: "§4.2",
        quote: "また, $N = 2048$ において実装 I3 の G は I1 の約 $1/4$ である.",
        english: "At N = 2048, I3's G is about 1/4 of I1's (and, in the same section, its T too).",
        short: "RGBA cuts G and T to about ¼",
        quantity: "G(I3) / G(I1) and T(I3) / T(I1) at N = 2048, copy method (Table 4)",
        rule: "each ratio, paired by round, within [1/8, 1/2] over its whole 95 % interval (\"about ¼\" read as within a factor 2 of ¼)",
        scope: Scope::Any,
        cases: &["RGBA cuts G and T"],
    },
];
