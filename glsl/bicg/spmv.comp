// SpMV y = A x with A in ELLPACK-R (paper §IV.1, Fig. 1): one invocation per row.
// REAL is double (the paper) or float (the fp32 build); LOCAL_SIZE is the threads per block.
layout(local_size_x = LOCAL_SIZE) in;
#include "bicg/ell.glsl"

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) {
        y[i] = ell_row(i);
    }
}
