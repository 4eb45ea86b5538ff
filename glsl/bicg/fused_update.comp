// Beyond the paper (the fused variant): the end of a linbcg iteration in two passes instead
// of three V_plus_bU, one asolveKernel and three max-norm stage-1 reductions.
//   UPDATE_X:  x += α p, with each group's max |p| and max |x| (new) into
//              partial[u_off_a + group] and partial[u_off_b + group];
//   else:      r −= α z, r̄ −= α z̄, z = r / diag(A), with each group's max |z| (new) into
//              partial[u_off_a + group].
// α is coef[1] (see v_plus_bu.comp). reduce_partials.comp folds each run of partials.
layout(local_size_x = LOCAL_SIZE) in;
#ifdef UPDATE_X
layout(std430, binding = 0) buffer X { REAL x[]; };
layout(std430, binding = 1) readonly buffer P { REAL p[]; };
#else
layout(std430, binding = 0) buffer R { REAL r[]; };
layout(std430, binding = 1) buffer Z { REAL z[]; };
layout(std430, binding = 2) buffer Rr { REAL rr[]; };
layout(std430, binding = 3) readonly buffer Zz { REAL zz[]; };
layout(std430, binding = 4) readonly buffer Diag { REAL diag[]; };
#endif
layout(std430, binding = 5) readonly buffer Coef { REAL coef[]; };
layout(std430, binding = 6) writeonly buffer Partial { REAL partial[]; };
uniform uint u_n;
uniform uint u_off_a;
uniform uint u_off_b;
shared REAL sa[LOCAL_SIZE];
shared REAL sb[LOCAL_SIZE];

void main() {
    uint tid = gl_LocalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * LOCAL_SIZE;
    REAL alpha = coef[1];
    REAL ma = REAL(0);
    REAL mb = REAL(0);
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
#ifdef UPDATE_X
        REAL pi = p[i];
        precise REAL xi = x[i] + alpha * pi;
        x[i] = xi;
        ma = max(ma, abs(pi));
        mb = max(mb, abs(xi));
#else
        precise REAL ri = r[i] + (-alpha) * z[i];
        precise REAL rri = rr[i] + (-alpha) * zz[i];
        r[i] = ri;
        rr[i] = rri;
        REAL zi = ri / diag[i];
        z[i] = zi;
        ma = max(ma, abs(zi));
#endif
    }
    sa[tid] = ma;
    sb[tid] = mb;
    barrier();
    for (uint s = LOCAL_SIZE / 2u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sa[tid] = max(sa[tid], sa[tid + s]);
            sb[tid] = max(sb[tid], sb[tid + s]);
        }
        barrier();
    }
    if (tid == 0u) {
        partial[u_off_a + gl_WorkGroupID.x] = sa[0];
#ifdef UPDATE_X
        partial[u_off_b + gl_WorkGroupID.x] = sb[0];
#endif
    }
}
