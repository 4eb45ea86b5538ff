// CG result (not in Table 1): x from the scalar or packed texture into the R32F n x batch result.
uniform sampler2DRect u_x;
out vec4 o_x;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    vec4 v = texelFetch(u_x, ivec2(t.x / LANES, t.y));
    o_x = vec4(v[t.x % LANES]);
}
