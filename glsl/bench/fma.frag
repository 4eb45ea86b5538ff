// FMA throughput in a fragment pass: the chains of fma_chains.glsl, one set per fragment,
// seeded by the fragment's index; the sum goes to an R32F render target.
uniform float u_width;
out vec4 o_color;
#include "bench/fma_chains.glsl"

void main() {
    uint i = uint(gl_FragCoord.y) * uint(u_width) + uint(gl_FragCoord.x);
    o_color = vec4(float(fma_chains(i)), 0.0, 0.0, 1.0);
}
