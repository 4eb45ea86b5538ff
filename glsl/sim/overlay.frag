// The live viewer's overlay (text and colour bar, drawn on the CPU): its colour and alpha as
// they are, blended over the view. The quad's coordinates flip it upright.
uniform sampler2D u_img;
in vec4 v_tex;
out vec4 o_color;

void main() {
    o_color = texture(u_img, v_tex.xy);
}
