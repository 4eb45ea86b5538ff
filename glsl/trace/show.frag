// The trace viewer (`gpgpu-repro trace … --window`): one pass picture, drawn on a quad whose
// texture coordinates flip it upright (image rows run downwards, GL's upwards).
uniform sampler2D u_img;
in vec4 v_tex;
out vec4 o_color;

void main() {
    o_color = vec4(texture(u_img, v_tex.xy).rgb, 1.0);
}
