// Switch method: carries texels the previous pass wrote (and this pass does not) into this
// pass's output texture, which otherwise holds the state of two passes ago.
uniform sampler2DRect u_a;
in vec4 v_tex;
out vec4 o_color;

void main() {
    o_color = texture(u_a, v_tex.xy);
}
