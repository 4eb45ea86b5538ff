// V_plus_bU: out = v + b·u, the scalar b read from the coefficient buffer (uploaded by the
// host, as the paper's CUDA kernel received it as an argument; glow has no double uniforms).
// `out` may alias v or u (x += α p, p = z + β p): each element is read before it is written
// by the same invocation.
#include "bicg/elementwise.glsl"
layout(std430, binding = 0) readonly buffer V { REAL v[]; };
layout(std430, binding = 1) readonly buffer U { REAL u[]; };
layout(std430, binding = 2) buffer Out { REAL outv[]; };
layout(std430, binding = 3) readonly buffer Coef { REAL coef[]; };
uniform uint u_slot;

void main() {
    REAL b = coef[u_slot];
    FOR_EACH_ELEMENT(i) {
        precise REAL t = v[i] + b * u[i];
        outv[i] = t;
    }
}
