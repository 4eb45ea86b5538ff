// Bi-CG, legacy pipeline: out = a + s * b, one fragment pass (V_plus_bU of the compute build:
// p = z + beta p, x = x + alpha p, r = r - alpha z; with s = -1, r = b - A x; with s = 0, a
// copy). The scalar comes in as a uniform (the host computes it in f64 from the read-back
// reductions). Padding texels hold 0 in a and b, so they stay 0.
uniform sampler2D u_a;
uniform sampler2D u_b;
uniform float u_s;
out vec4 o_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_color = vec4(texelFetch(u_a, p, 0).r + u_s * texelFetch(u_b, p, 0).r, 0.0, 0.0, 0.0);
}
