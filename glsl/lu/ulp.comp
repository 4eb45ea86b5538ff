// Table 5 in a compute shader: the same four operations as ulp.frag over an SSBO of pairs.
// The division is written F_DIV (common/arith2005.glsl, no ARITH_2005: the device's own `/`)
// so that the inexact-division test switch reaches this column too.
#include "common/arith2005.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Ab { vec2 ab[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 res[]; };
uniform uint u_n;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_n) return;
    vec2 v = ab[i];
    precise float s = v.x + v.y;
    precise float d = v.x - v.y;
    precise float p = v.x * v.y;
    precise float q = F_DIV(v.x, v.y);
    res[i] = vec4(s, d, p, q);
}
