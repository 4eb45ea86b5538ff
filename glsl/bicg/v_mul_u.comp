// V_mul_U: out = v ⊙ u, the element-wise product (the first half of a dot product, whose
// sum the reduction kernels take, as in the paper's profile).
layout(local_size_x = LOCAL_SIZE) in;
layout(std430, binding = 0) readonly buffer V { REAL v[]; };
layout(std430, binding = 1) readonly buffer U { REAL u[]; };
layout(std430, binding = 2) writeonly buffer Out { REAL outv[]; };
uniform uint u_n;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        outv[i] = v[i] * u[i];
    }
}
