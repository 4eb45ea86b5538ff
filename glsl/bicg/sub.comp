// Sub: out = a − b (the initial residual r = b − A x₀).
#include "bicg/elementwise.glsl"
layout(std430, binding = 0) readonly buffer A { REAL a[]; };
layout(std430, binding = 1) readonly buffer B { REAL b[]; };
layout(std430, binding = 2) writeonly buffer Out { REAL outv[]; };

void main() {
    FOR_EACH_ELEMENT(i) {
        outv[i] = a[i] - b[i];
    }
}
