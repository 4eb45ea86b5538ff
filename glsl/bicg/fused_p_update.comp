// Beyond the paper (the fused variant): both search directions in one pass,
// p = z + β p and p̄ = z̄ + β p̄ (two V_plus_bU calls of linbcg), β = coef[0].
#include "bicg/elementwise.glsl"
layout(std430, binding = 0) readonly buffer Z { REAL z[]; };
layout(std430, binding = 1) buffer P { REAL p[]; };
layout(std430, binding = 2) readonly buffer Zz { REAL zz[]; };
layout(std430, binding = 3) buffer Pp { REAL pp[]; };
layout(std430, binding = 4) readonly buffer Coef { REAL coef[]; };

void main() {
    REAL beta = coef[0];
    FOR_EACH_ELEMENT(i) {
        precise REAL a = z[i] + beta * p[i];
        precise REAL b = zz[i] + beta * pp[i];
        p[i] = a;
        pp[i] = b;
    }
}
