// Partial pivoting, step 1 (beyond the paper; its §5.3 open problem): the row of the largest
// |A_ji| for j ≥ i, by a shared-memory tree reduction in one work group. Ties go to the
// smaller row index, as LAPACK's i_amax and our CPU reference.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Mat { float a[]; };
layout(std430, binding = 1) buffer Piv { int piv[]; };
uniform int u_n;
uniform int u_i;

shared float s_val[256];
shared int s_idx[256];

void main() {
    int t = int(gl_LocalInvocationID.x);
    float best = -1.0;
    int idx = u_i;
    for (int j = u_i + t; j < u_n; j += 256) {
        float v = abs(a[j * u_n + u_i]);
        if (v > best) { best = v; idx = j; }
    }
    s_val[t] = best;
    s_idx[t] = idx;
    barrier();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) {
            float v = s_val[t + s];
            int k = s_idx[t + s];
            if (v > s_val[t] || (v == s_val[t] && k < s_idx[t])) {
                s_val[t] = v;
                s_idx[t] = k;
            }
        }
        barrier();
    }
    if (t == 0) piv[u_i] = s_idx[0];
}
