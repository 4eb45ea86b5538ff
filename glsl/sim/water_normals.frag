// Shallow-water visualisation, pass 1: per grid point (nx, ny, h, d): the horizontal part of
// the surface normal (nz = sqrt(1 - nx² - ny²)) from central differences of h, the height and
// the water depth d = h - b (the bottom function of water_build.frag). `u_scale` is the
// vertical exaggeration of the rendered surface, in grid cells per height unit.
uniform sampler2DRect u_h;
uniform int u_h_t;
uniform int u_n;
uniform float u_scale;
uniform vec4 u_bottom;
out vec4 o_nh;

#include "sim/bottom.glsl"

float h(ivec2 g) {
    g = clamp(g, ivec2(0), ivec2(u_n - 1));
    return texelFetch(u_h, u_h_t == 1 ? g.yx : g).r;
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    float dx = 0.5 * (h(g + ivec2(1, 0)) - h(g - ivec2(1, 0))) * u_scale;
    float dy = 0.5 * (h(g + ivec2(0, 1)) - h(g - ivec2(0, 1))) * u_scale;
    vec3 n = normalize(vec3(-dx, -dy, 1.0));
    o_nh = vec4(n.xy, h(g), h(g) - bottom(g));
}
