// Second level of the stopping test's reduction (the paper's two thrust::reduce calls):
// one work group sums the per-group partial (diff^2, x^2) pairs into norms[0].
layout(local_size_x = WG) in;
layout(std430, binding = 6) readonly buffer Partial { vec2 partial[]; };
layout(std430, binding = 7) writeonly buffer Norms { vec2 norms[]; };
uniform uint count;

shared vec2 red[WG];

void main() {
    uint l = gl_LocalInvocationID.x;
    vec2 s = vec2(0.0);
    for (uint j = l; j < count; j += WG) s += partial[j];
    red[l] = s;
    memoryBarrierShared();
    barrier();
    for (uint w = WG / 2u; w > 0u; w >>= 1u) {
        if (l < w) red[l] += red[l + w];
        memoryBarrierShared();
        barrier();
    }
    if (l == 0u) norms[0] = red[0];
}
