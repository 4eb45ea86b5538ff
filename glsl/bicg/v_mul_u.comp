// V_mul_U: out = v ⊙ u, the element-wise product (the first half of a dot product, whose
// sum the reduction kernels take, as in the paper's profile).
#include "bicg/elementwise.glsl"
layout(std430, binding = 0) readonly buffer V { REAL v[]; };
layout(std430, binding = 1) readonly buffer U { REAL u[]; };
layout(std430, binding = 2) writeonly buffer Out { REAL outv[]; };

void main() {
    FOR_EACH_ELEMENT(i) {
        outv[i] = v[i] * u[i];
    }
}
