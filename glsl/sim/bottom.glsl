// The bottom relief of the shallow-water simulation, included with
// `#include "sim/bottom.glsl"` after the uniforms u_n and u_bottom (base, slope along x+y,
// hill height, hill radius): a slope rising towards (n, n) and a round hill; the CPU
// reference (src/sim/shallow_water.rs, `bottom`) computes the same function.
float bottom(ivec2 g) {
    vec2 x = (vec2(g) + 0.5) / float(u_n);
    vec2 c = vec2(0.62, 0.38);
    float hill = u_bottom.z * exp(-dot(x - c, x - c) / (u_bottom.w * u_bottom.w));
    return u_bottom.x + u_bottom.y * (x.x + x.y) + hill;
}
