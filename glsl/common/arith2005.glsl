// A model of the Quadro FX 3400's fp32 arithmetic (2005) on today's fp32, exact on any driver:
// add05, sub05, mul05, div05 (float and vec4). The model, its choices and where it is a guess
// are documented in src/papers/lu/arith2005.rs (the bit-exact CPU twin of this file).
//
// Included with `#include "common/arith2005.glsl"` (expanded by the toolkit). A file that
// includes it writes its arithmetic as F_ADD, F_SUB, F_MUL, F_DIV, F_MSUB; the define
// ARITH_2005 (a bit mask: 1 add/subtract, 2 multiply, 4 divide; absent = 0) routes each
// through the model, the others stay IEEE operators. Its higher bits pick a member of the
// model family (issue 38; `Member` in src/papers/lu/arith2005_member.rs): 8 the +- rule by
// the effective operation, 16 the product chopped toward zero, 32 the division's product by
// mul05, 64 the division's reciprocal chopped, 128 the update c - a*b (F_MSUB) as one fused
// MAD (msub05). ARITH_2005_FMA forms TwoProduct with fma instead of Dekker's split (see
// below).
//
// `precise` keeps the compiler from fusing or reassociating the error-free transformations.

#ifndef ARITH_2005
#define ARITH_2005 0
#endif

// TwoProduct: Dekker's split by default. GLSL does not promise that fma rounds once (on
// llvmpipe fma(a, b, -a*b) is not the exact error for ~10% of products: it is not fused), so
// the fma form is opt-in (ARITH_2005_FMA) for a device known to fuse.
#if !defined(ARITH_2005_FMA) || (__VERSION__ < 400 && !defined(GL_ARB_gpu_shader5))
#define A05_DEKKER 1
#endif

// Subnormals flushed to signed zero.
float a05_ftz(float x) {
    return abs(x) < 1.17549435e-38 ? uintBitsToFloat(floatBitsToUint(x) & 0x80000000u) : x;
}

// The next float toward +inf (x finite; +-0 -> 2^-149).
float a05_succ(float x) {
    uint b = floatBitsToUint(x);
    if (x == 0.0) return uintBitsToFloat(1u);
    return uintBitsToFloat(x > 0.0 ? b + 1u : b - 1u);
}

// The next float toward -inf.
float a05_pred(float x) {
    return -a05_succ(-x);
}

// Rounds the exact value s + e + e2 (s a faithful rounding of it, e = RN(e + e2); e2 = 0 but
// for the fused MAD) by rule 0 (toward -inf), 1 (one guard bit), 2 (chopped to eighths of an
// ULP, then one guard bit) or 3 (toward zero). Each comparison of 8e with a grid point g is
// decided by e2's sign on a tie (round2005x in src/papers/lu/arith2005.rs says why it is
// exact).
float a05_round3(float s, float e, float e2, int rule) {
    if (e == 0.0 || isinf(s) || isnan(s) || abs(s) == 3.40282347e38) return s;
    bool below = e < 0.0;
    float l = below ? a05_pred(s) : s;
    if (rule == 0) return l;
    if (rule == 3) return s > 0.0 ? l : (below ? s : a05_succ(s));
    precise float u = a05_succ(l) - l;
    float off = below ? 8.0 : 0.0;
    precise float e8 = 8.0 * e;
    int q = 0;
    for (int k = 1; k < 8; k++) {
        precise float t = (float(k) - off) * u;
        if (e8 > t || (e8 == t && e2 >= 0.0)) q++;
    }
    precise float g = (float(q) - off) * u;
    bool on_grid = e8 == g && e2 == 0.0;
    int h;
    if (rule == 1) {
        h = (q < 2 || (q == 2 && on_grid)) ? 0 : (q >= 6 ? 2 : 1);
    } else {
        h = q <= 2 ? 0 : (q <= 5 ? 1 : 2);
    }
    bool odd = (floatBitsToUint(l) & 1u) == 1u;
    return (h == 2 || (h == 1 && odd)) ? a05_succ(l) : l;
}

float a05_round(float s, float e, int rule) {
    return a05_round3(s, e, 0.0, rule);
}

// Knuth's TwoSum: s = RN(a + b), s + e = a + b exactly.
void a05_two_sum(float a, float b, out float s, out float e) {
    precise float ss = a + b;
    precise float bb = ss - a;
    precise float ee = (a - (ss - bb)) + (b - bb);
    s = ss;
    e = ee;
}

// x = m * 2^k with |m| in [1, 2) (x normal, finite, nonzero).
float a05_mant(float x) {
    return uintBitsToFloat((floatBitsToUint(x) & 0x807fffffu) | 0x3f800000u);
}
int a05_exp(float x) {
    return int((floatBitsToUint(x) >> 23) & 0xffu) - 127;
}

// m * 2^k for a normal m: flushed below 2^-126, +-inf on overflow (0, inf, NaN unchanged).
float a05_scale(float m, int k) {
    if (m == 0.0 || isinf(m) || isnan(m)) return m;
    uint b = floatBitsToUint(m);
    int e = int((b >> 23) & 0xffu) + k;
    uint sign = b & 0x80000000u;
    if (e <= 0) return uintBitsToFloat(sign);
    if (e >= 255) return uintBitsToFloat(sign | 0x7f800000u);
    return uintBitsToFloat((b & 0x807fffffu) | (uint(e) << 23));
}

// a + b rounded by `rule`; operands below 2^-60 are scaled by 2^64 first so that no
// intermediate is subnormal (a device may flush those in its arithmetic).
float a05_sum(float a, float b, int rule) {
    a = a05_ftz(a);
    b = a05_ftz(b);
    float s, e;
    float tiny = uintBitsToFloat(0x21800000u); // 2^-60
    if (abs(a) < tiny && abs(b) < tiny) {
        precise float a2 = a * 18446744073709551616.0;
        precise float b2 = b * 18446744073709551616.0;
        a05_two_sum(a2, b2, s, e);
        return a05_scale(a05_round(s, e, rule), -64);
    }
    a05_two_sum(a, b, s, e);
    return a05_ftz(a05_round(s, e, rule));
}

// The rule of a + b (b already negated for a subtraction): the written operator's, or with
// bit 8 the effective operation's (differing signs subtract magnitudes: the guard bit).
int a05_sum_rule(float a, float b, int written) {
#if (ARITH_2005 & 8) != 0
    return ((floatBitsToUint(a) ^ floatBitsToUint(b)) & 0x80000000u) != 0u ? 1 : 0;
#else
    return written;
#endif
}

float add05(float a, float b) {
    return a05_sum(a, b, a05_sum_rule(a, b, 0));
}

float sub05(float a, float b) {
    return a05_sum(a, -b, a05_sum_rule(a, -b, 1));
}

#ifdef A05_DEKKER
// Veltkamp's split of a float with |x| < 2: hi with 12 bits, lo = x - hi with 12.
void a05_split(float x, out float hi, out float lo) {
    precise float c = 4097.0 * x;
    precise float h = c - (c - x);
    precise float r = x - h;
    hi = h;
    lo = r;
}
#endif

// TwoProduct of two significands: ma*mb = s + e exactly, s = RN(ma*mb) (Dekker's split; with
// A05_DEKKER off, fma's residual); exact for |ma|, |mb| < 2 (no overflow, no underflow).
void a05_two_product(float ma, float mb, out float s, out float e) {
    precise float p = ma * mb;
#ifdef A05_DEKKER
    float ah, al, bh, bl;
    a05_split(ma, ah, al);
    a05_split(mb, bh, bl);
    precise float r = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
#else
    precise float r = fma(ma, mb, -p);
#endif
    s = p;
    e = r;
}

float mul05(float a, float b) {
    a = a05_ftz(a);
    b = a05_ftz(b);
    if (a == 0.0 || b == 0.0 || isinf(a) || isinf(b) || isnan(a) || isnan(b)) {
        precise float p = a * b;
        return p;
    }
    float s, e;
    a05_two_product(a05_mant(a), a05_mant(b), s, e);
#if (ARITH_2005 & 16) != 0
    int rule = 3;
#else
    int rule = 2;
#endif
    return a05_scale(a05_round(s, e, rule), a05_exp(a) + a05_exp(b));
}

// 2^j for -126 <= j <= 127.
float a05_pow2(int j) {
    return uintBitsToFloat(uint(127 + j) << 23);
}

// The fused MAD (bit 128): c - a*b exact, rounded once by the +- rule (the written
// subtraction's guard bit, or with bit 8 the effective operation's). The exact value is
// s + e + e2 from TwoProduct and four TwoSums, scaled by 2^-K (K the larger exponent of a*b
// and c); beyond an exponent gap of 50 the smaller term is a proxy +-2^-60 of its sign. The
// proof and the CPU twin: msub05m in src/papers/lu/arith2005_mad.rs.
float msub05(float c, float a, float b) {
    a = a05_ftz(a);
    b = a05_ftz(b);
    c = a05_ftz(c);
    if (a == 0.0 || b == 0.0 || isinf(a) || isinf(b) || isnan(a) || isnan(b) || isinf(c) ||
        isnan(c)) {
        precise float p = a * b;
        precise float r = c - p;
        return r;
    }
    uint sc = floatBitsToUint(c) & 0x80000000u;
    uint neg_p = (floatBitsToUint(a) ^ floatBitsToUint(b) ^ 0x80000000u) & 0x80000000u;
#if (ARITH_2005 & 8) != 0
    int rule = sc != neg_p ? 1 : 0;
#else
    int rule = 1;
#endif
    float p, pe;
    a05_two_product(a05_mant(a), a05_mant(b), p, pe);
    int kp = a05_exp(a) + a05_exp(b);
    float mc = c;
    int kc = kp;
    if (c != 0.0) {
        mc = a05_mant(c);
        kc = a05_exp(c);
    }
    int k = max(kp, kc);
    float ph, pl;
    if (k - kp > 50) {
        ph = uintBitsToFloat(floatBitsToUint(a05_pow2(-60)) | neg_p);
        pl = 0.0;
    } else {
        precise float sh = -p * a05_pow2(kp - k);
        precise float sl = -pe * a05_pow2(kp - k);
        ph = sh;
        pl = sl;
    }
    if (k - kc > 50) {
        mc = uintBitsToFloat(floatBitsToUint(a05_pow2(-60)) | sc);
    } else {
        precise float m = mc * a05_pow2(kc - k);
        mc = m;
    }
    float th, tl, v, ve, s, w, e, e2;
    a05_two_sum(mc, ph, th, tl);
    a05_two_sum(tl, pl, v, ve);
    a05_two_sum(th, v, s, w);
    a05_two_sum(w, ve, e, e2);
    return a05_scale(a05_round3(s, e, e2, rule), k);
}

// Correctly rounded a / b (IEEE round to nearest, ties to even; subnormal operands and results
// as IEEE's) from integer significand arithmetic alone. GLSL promises `/` only to 2.5 ULP
// (NVIDIA's is within about +-2: the LU paper's Table 5 fragment column on an H200), while
// integer and bit operations are exact on every driver, so the model's own steps and the
// operations left IEEE by the ablation give the CPU twin's bits everywhere. Restoring long
// division: 24 quotient bits of the significands (both in [2^23, 2^24)), then the remainder
// decides the rounding. Its CPU mirror is `div_rn_bits` in src/papers/lu/arith2005.rs.
uint a05_sig(uint e, uint f, out int x) {
    if (e != 0u) {
        x = int(e) - 127;
        return f | 0x800000u;
    }
    x = -126;
    while (f < 0x800000u) {
        f <<= 1;
        x--;
    }
    return f;
}

// Rounded to nearest (`nearest`) or chopped toward zero (the remainder dropped).
float a05_div_bits(float a, float b, bool nearest) {
    uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
    uint sign = (ua ^ ub) & 0x80000000u;
    uint ea = (ua >> 23) & 0xffu, eb = (ub >> 23) & 0xffu;
    uint fa = ua & 0x7fffffu, fb = ub & 0x7fffffu;
    bool za = ea == 0u && fa == 0u, zb = eb == 0u && fb == 0u;
    bool ia = ea == 255u, ib = eb == 255u;
    if ((ia && fa != 0u) || (ib && fb != 0u) || (ia && ib) || (za && zb)) {
        return uintBitsToFloat(0x7fc00000u);
    }
    if (ia || zb) return uintBitsToFloat(sign | 0x7f800000u);
    if (za || ib) return uintBitsToFloat(sign);
    int xa, xb;
    uint r = a05_sig(ea, fa, xa);
    uint mb = a05_sig(eb, fb, xb);
    int e = xa - xb;
    if (r < mb) {
        r <<= 1;
        e--;
    }
    // r / mb in [1, 2): q gets 24 bits, r ends as twice the remainder (< 2^25).
    uint q = 0u;
    for (int i = 0; i < 24; i++) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1u;
        }
        r <<= 1;
    }
    int biased = e + 127;
    if (biased >= 1) {
        if (nearest && (r > mb || (r == mb && (q & 1u) == 1u))) q++;
        if (q == 0x1000000u) {
            q = 0x800000u;
            biased++;
        }
        if (biased >= 255) return uintBitsToFloat(sign | 0x7f800000u);
        return uintBitsToFloat(sign | (uint(biased) << 23) | (q & 0x7fffffu));
    }
    // A subnormal result: q * 2^(e - 23) in units of 2^-149 is q >> s.
    int s = 1 - biased;
    if (s >= 25) return uintBitsToFloat(sign);
    uint kept = q >> uint(s);
    uint low = q & ((1u << uint(s)) - 1u);
    uint mid = 1u << uint(s - 1);
    if (nearest && (low > mid || (low == mid && (r != 0u || (kept & 1u) == 1u)))) kept++;
    return uintBitsToFloat(sign | kept);
}

float a05_div_rn(float a, float b) {
    return a05_div_bits(a, b, true);
}

// The device's own `/` (what the IEEE programs and Table 5's plain columns measure). With
// GPGPU_REPRO_INEXACT_DIV (the environment variable of that name, set for a test: every
// program is then built with this define) it is a deliberately inexact division like the
// H200's: a reciprocal moved by -1..1 ULP (chosen from the operands' bits), then a product
// (a few ULP in all: Table 5's fragment column under the switch measures it), so that a
// driver's inexact `/` can be tried on a device whose `/` is correctly rounded.
float a05_native_div(float a, float b) {
#ifdef GPGPU_REPRO_INEXACT_DIV
    precise float r = 1.0 / b;
    uint rb = floatBitsToUint(r);
    if ((rb & 0x7f800000u) != 0u && (rb & 0x7f800000u) != 0x7f800000u) {
        int k = int((floatBitsToUint(a) ^ (floatBitsToUint(b) >> 7)) % 3u) - 1;
        r = uintBitsToFloat(uint(int(rb) + k));
    }
    precise float q = a * r;
    return q;
#else
    precise float q = a / b;
    return q;
#endif
}

float div05(float a, float b) {
    a = a05_ftz(a);
    b = a05_ftz(b);
    if (a == 0.0 || b == 0.0 || isinf(a) || isinf(b) || isnan(a) || isnan(b)) {
        return a05_div_rn(a, b);
    }
    float ma = a05_mant(a), mb = a05_mant(b);
    // The reciprocal: correctly rounded, or chopped (bit 64); the product: IEEE's, or the
    // model's multiply (bit 32).
    float r = a05_div_bits(1.0, mb, (ARITH_2005 & 64) == 0);
#if (ARITH_2005 & 32) != 0
    float p = mul05(ma, r);
#else
    precise float p = ma * r;
#endif
    return a05_scale(p, a05_exp(a) - a05_exp(b));
}

vec4 a05_div_rn(vec4 a, float b) {
    return vec4(a05_div_rn(a.x, b), a05_div_rn(a.y, b), a05_div_rn(a.z, b), a05_div_rn(a.w, b));
}
vec4 a05_div_rn(vec4 a, vec4 b) {
    return vec4(a05_div_rn(a.x, b.x), a05_div_rn(a.y, b.y), a05_div_rn(a.z, b.z),
                a05_div_rn(a.w, b.w));
}
vec4 a05_native_div(vec4 a, float b) {
    return vec4(a05_native_div(a.x, b), a05_native_div(a.y, b), a05_native_div(a.z, b),
                a05_native_div(a.w, b));
}
vec4 a05_native_div(vec4 a, vec4 b) {
    return vec4(a05_native_div(a.x, b.x), a05_native_div(a.y, b.y), a05_native_div(a.z, b.z),
                a05_native_div(a.w, b.w));
}

vec4 mul05(float a, vec4 b) { return vec4(mul05(a, b.x), mul05(a, b.y), mul05(a, b.z), mul05(a, b.w)); }
vec4 mul05(vec4 a, float b) { return vec4(mul05(a.x, b), mul05(a.y, b), mul05(a.z, b), mul05(a.w, b)); }
vec4 div05(vec4 a, float b) { return vec4(div05(a.x, b), div05(a.y, b), div05(a.z, b), div05(a.w, b)); }

vec4 add05(vec4 a, vec4 b) {
    return vec4(add05(a.x, b.x), add05(a.y, b.y), add05(a.z, b.z), add05(a.w, b.w));
}
vec4 sub05(vec4 a, vec4 b) {
    return vec4(sub05(a.x, b.x), sub05(a.y, b.y), sub05(a.z, b.z), sub05(a.w, b.w));
}
vec4 mul05(vec4 a, vec4 b) {
    return vec4(mul05(a.x, b.x), mul05(a.y, b.y), mul05(a.z, b.z), mul05(a.w, b.w));
}
vec4 div05(vec4 a, vec4 b) {
    return vec4(div05(a.x, b.x), div05(a.y, b.y), div05(a.z, b.z), div05(a.w, b.w));
}

#if (ARITH_2005 & 1) != 0
#define F_ADD(a, b) add05(a, b)
#define F_SUB(a, b) sub05(a, b)
#else
#define F_ADD(a, b) ((a) + (b))
#define F_SUB(a, b) ((a) - (b))
#endif
#if (ARITH_2005 & 2) != 0
#define F_MUL(a, b) mul05(a, b)
#else
#define F_MUL(a, b) ((a) * (b))
#endif
// Division: the model's (bit 4); else, in a program built with the model for some other
// operation (the ablation), IEEE's correctly rounded division, which is what the CPU twin
// computes; else (a program without the model) the device's own `/`.
#if (ARITH_2005 & 4) != 0
#define F_DIV(a, b) div05(a, b)
#elif ARITH_2005 != 0
#define F_DIV(a, b) a05_div_rn(a, b)
#else
#define F_DIV(a, b) a05_native_div(a, b)
#endif

// The update c - a*b (F_MSUB): with bits 128 and 1 the fused MAD; with bit 128 alone IEEE's
// unfused c - a*b (a fused MAD has no rounded product for bit 2 to emulate); else the
// product, then the difference, each per the mask. `precise` keeps the IEEE forms unfused.
float a05_msub(float c, float a, float b) {
#if (ARITH_2005 & 129) == 129
    return msub05(c, a, b);
#elif (ARITH_2005 & 128) != 0
    precise float p = a * b;
    precise float r = c - p;
    return r;
#else
    precise float p = F_MUL(a, b);
    precise float r = F_SUB(c, p);
    return r;
#endif
}
vec4 a05_msub(vec4 c, float a, vec4 b) {
#if (ARITH_2005 & 129) == 129
    return vec4(msub05(c.x, a, b.x), msub05(c.y, a, b.y), msub05(c.z, a, b.z),
                msub05(c.w, a, b.w));
#elif (ARITH_2005 & 128) != 0
    precise vec4 p = a * b;
    precise vec4 r = c - p;
    return r;
#else
    precise vec4 p = F_MUL(a, b);
    return F_SUB(c, p);
#endif
}
#define F_MSUB(c, a, b) a05_msub(c, a, b)
