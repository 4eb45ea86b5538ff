// Bi-CG, legacy pipeline: the diagonal preconditioner z = r / diag(A) (asolveKernel), one
// fragment pass. The diagonal texture is padded with 1, so padding texels stay 0.
uniform sampler2D u_r;
uniform sampler2D u_diag;
out vec4 o_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_color = vec4(texelFetch(u_r, p, 0).r / texelFetch(u_diag, p, 0).r, 0.0, 0.0, 0.0);
}
