// Table 5 (a small GPU "paranoia"): texel .rg holds operands (a, b); the output holds
// (a + b, a − b, a · b, a / b) as this fragment processor computes them. `precise` keeps the
// compiler from fusing or reassociating anything.
uniform sampler2DRect u_ab;
in vec4 v_tex;
out vec4 o_color;

void main() {
    vec2 ab = texture(u_ab, v_tex.xy).rg;
    precise float s = ab.x + ab.y;
    precise float d = ab.x - ab.y;
    precise float p = ab.x * ab.y;
    precise float q = ab.x / ab.y;
    o_color = vec4(s, d, p, q);
}
