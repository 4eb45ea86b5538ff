// Copies a (possibly transposed) R32F field into grid order, optionally adding a Gaussian
// bump (the viewer's "add a disturbance"). texel (x, y) of the output = grid point (x, y).
uniform sampler2DRect u_src;
uniform int u_src_t;
uniform vec4 u_bump;   // (centre x, centre y, radius, amplitude); amplitude 0: plain copy
out vec4 o_val;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    float v = texelFetch(u_src, u_src_t == 1 ? g.yx : g).r;
    if (u_bump.w != 0.0) {
        vec2 d = (vec2(g) + 0.5 - u_bump.xy) / u_bump.z;
        v += u_bump.w * exp(-dot(d, d));
    }
    o_val = vec4(v);
}
