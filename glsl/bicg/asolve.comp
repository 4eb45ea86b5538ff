// asolveKernel: the diagonal preconditioner solve z = r / diag(A) (NR `asolve`). The same
// kernel serves Ãᵀ, since a diagonal is its own transpose.
#include "bicg/elementwise.glsl"
layout(std430, binding = 0) readonly buffer R { REAL r[]; };
layout(std430, binding = 1) readonly buffer Diag { REAL diag[]; };
layout(std430, binding = 2) writeonly buffer Z { REAL z[]; };

void main() {
    FOR_EACH_ELEMENT(i) {
        z[i] = r[i] / diag[i];
    }
}
