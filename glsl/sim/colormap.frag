// The live 2D view: a field through viridis (the same polynomial as src/sim/frames.rs).
// v_tex.xy: grid coordinates of the fragment (the quad maps the view onto the grid).
uniform sampler2DRect u_field;
uniform int u_field_t;
uniform int u_n;
uniform vec2 u_range;   // (lo, hi)
in vec4 v_tex;
out vec4 o_color;

vec3 viridis(float t) {
    const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
    const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
    const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
    const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
    const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
    const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
    const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
    t = clamp(t, 0.0, 1.0);
    return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

void main() {
    ivec2 g = clamp(ivec2(v_tex.xy), ivec2(0), ivec2(u_n - 1));
    float v = texelFetch(u_field, u_field_t == 1 ? g.yx : g).r;
    o_color = vec4(viridis((v - u_range.x) / (u_range.y - u_range.x)), 1.0);
}
