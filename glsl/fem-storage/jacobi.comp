// One Jacobi sweep x_new = D^-1 (rhs - R x_old) (eq. 5) in the paper's flattened layout
// (Fig. 4): row i occupies [accm_size[i-1], accm_size[i]) of idx/val, diagonal first.
// As the CUDA kernel of Fig. 5, invocation t handles rows t, t + T, t + 2T, ... (T = all
// invocations), but x_old and x_new are separate buffers (Fig. 5 overwrites T1 in place while
// other threads may still read it). Instead of the paper's per-row squareDiff/squareX arrays,
// each invocation sums (x_new - x_old)^2 and x_new^2 over its rows into partial[t]: the first
// level of the GPU reduction behind the stopping test, with no shared memory or barrier.
//
// With TEXTURE, every input is read as Fig. 5 reads it, through the texture units: its
// tex1Dfetch on linear memory is texelFetch on a buffer texture viewing the same buffer.
// Without, the inputs are read-only SSBOs. The loads and the arithmetic are the same.
layout(local_size_x = WG) in;
#ifdef TEXTURE
uniform usamplerBuffer u_idx;
uniform samplerBuffer u_val;
uniform usamplerBuffer u_accm;
uniform samplerBuffer u_rhs;
uniform samplerBuffer u_x_old;
#define IDX(k) texelFetch(u_idx, int(k)).x
#define VAL(k) texelFetch(u_val, int(k)).x
#define ACCM(i) texelFetch(u_accm, int(i)).x
#define RHS(i) texelFetch(u_rhs, int(i)).x
#define X_OLD(i) texelFetch(u_x_old, int(i)).x
#else
layout(std430, binding = 0) readonly buffer Idx { uint idx[]; };
layout(std430, binding = 1) readonly buffer Val { float val[]; };
layout(std430, binding = 2) readonly buffer Accm { uint accm_size[]; };
layout(std430, binding = 3) readonly buffer Rhs { float rhs[]; };
layout(std430, binding = 4) readonly buffer XOld { float x_old[]; };
#define IDX(k) idx[k]
#define VAL(k) val[k]
#define ACCM(i) accm_size[i]
#define RHS(i) rhs[i]
#define X_OLD(i) x_old[i]
#endif
layout(std430, binding = 5) writeonly buffer XNew { float x_new[]; };
layout(std430, binding = 6) writeonly buffer Partial { vec2 partial[]; };
uniform uint n;

void main() {
    uint t = gl_GlobalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * WG;
    vec2 s = vec2(0.0);
    for (uint i = t; i < n; i += stride) {
        uint start = i == 0u ? 0u : ACCM(i - 1u);
        uint end = ACCM(i);
        float sum = 0.0;
        for (uint k = start + 1u; k < end; ++k) {
            sum += VAL(k) * X_OLD(IDX(k));
        }
        float xi = (RHS(i) - sum) / VAL(start);
        x_new[i] = xi;
        float d = xi - X_OLD(i);
        s += vec2(d * d, xi * xi);
    }
    partial[t] = s;
}
