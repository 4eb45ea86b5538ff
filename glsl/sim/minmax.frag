// The live viewer's automatic colour range, on the GPU: each output texel holds the minimum
// (.r) and the maximum (.g) of one u_block × u_block block of the field, non-finite values
// left out (a block without a finite value gives +inf, -inf). The CPU folds the few texels
// (src/sim/overlay.rs, auto_range): a 32 × 32 readback instead of the whole field.
uniform sampler2DRect u_field;
uniform int u_field_t;
uniform int u_n;
uniform int u_block;
in vec4 v_tex;
out vec4 o_color;

void main() {
    ivec2 b0 = ivec2(v_tex.xy) * u_block;
    ivec2 b1 = min(b0 + ivec2(u_block), ivec2(u_n));
    float inf = uintBitsToFloat(0x7F800000u);
    float lo = inf;
    float hi = -inf;
    for (int y = b0.y; y < b1.y; ++y) {
        for (int x = b0.x; x < b1.x; ++x) {
            ivec2 g = ivec2(x, y);
            float v = texelFetch(u_field, u_field_t == 1 ? g.yx : g).r;
            if (!isnan(v) && !isinf(v)) {
                lo = min(lo, v);
                hi = max(hi, v);
            }
        }
    }
    o_color = vec4(lo, hi, 0.0, 0.0);
}
