// Render-target write bandwidth: every fragment writes (x, y, u_value, 1) from its own
// coordinates, no texture read. Also the "empty draw" of the fixed-cost measurement.
uniform float u_value;
out vec4 o_color;

void main() {
    o_color = vec4(floor(gl_FragCoord.xy), u_value, 1.0);
}
