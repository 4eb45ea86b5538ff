// Shallow-water visualisation, pass 1: per grid point the surface normal and height,
// (nx, ny, nz, h), from central differences of h (one-sided at the walls). `u_scale` is the
// vertical exaggeration of the rendered surface, in grid cells per height unit.
uniform sampler2DRect u_h;
uniform int u_h_t;
uniform int u_n;
uniform float u_scale;
out vec4 o_nh;

float h(ivec2 g) {
    g = clamp(g, ivec2(0), ivec2(u_n - 1));
    return texelFetch(u_h, u_h_t == 1 ? g.yx : g).r;
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    float dx = 0.5 * (h(g + ivec2(1, 0)) - h(g - ivec2(1, 0))) * u_scale;
    float dy = 0.5 * (h(g + ivec2(0, 1)) - h(g - ivec2(0, 1))) * u_scale;
    o_nh = vec4(normalize(vec3(-dx, -dy, 1.0)), h(g));
}
