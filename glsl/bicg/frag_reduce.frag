// Bi-CG, legacy pipeline: one 2x2 -> 1 reduction pass (Krueger & Westermann 2003; Bolz et
// al. 2003): output texel t combines source texels 2t + {0,1}^2 of a u_size source, texels
// beyond it counting as 0 (neutral for a sum and for a max of absolute values). The first
// pass of a dot product multiplies two vectors (PRODUCT), of a max-norm takes |a| (ABS);
// MAX combines by max, otherwise by a sum. The last pass renders one texel of the results
// texture, at u_origin (the output texel index is gl_FragCoord - u_origin).
uniform sampler2D u_a;
uniform sampler2D u_b;
uniform vec2 u_size;
uniform vec2 u_origin;
out vec4 o_color;

float at(ivec2 q) {
    if (any(greaterThanEqual(q, ivec2(u_size)))) {
        return 0.0;
    }
#if defined(PRODUCT)
    return texelFetch(u_a, q, 0).r * texelFetch(u_b, q, 0).r;
#elif defined(ABS)
    return abs(texelFetch(u_a, q, 0).r);
#else
    return texelFetch(u_a, q, 0).r;
#endif
}

void main() {
    ivec2 q = 2 * (ivec2(gl_FragCoord.xy) - ivec2(u_origin));
    float v00 = at(q);
    float v10 = at(q + ivec2(1, 0));
    float v01 = at(q + ivec2(0, 1));
    float v11 = at(q + ivec2(1, 1));
#ifdef MAX
    float v = max(max(v00, v10), max(v01, v11));
#else
    float v = (v00 + v10) + (v01 + v11);
#endif
    o_color = vec4(v, 0.0, 0.0, 0.0);
}
