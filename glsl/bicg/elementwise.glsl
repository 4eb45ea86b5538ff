// The frame of the Bi-CG element-wise kernels (the paper's V_plus_bU, V_mul_U, asolveKernel,
// …): one-dimensional groups of LOCAL_SIZE invocations, the vectors' length u_n, and the
// grid-stride loop in which invocation g takes elements g, g + (invocations launched), …
// below u_n (any number of groups covers any n).
layout(local_size_x = LOCAL_SIZE) in;
uniform uint u_n;
#define FOR_EACH_ELEMENT(i) for (uint i = gl_GlobalInvocationID.x; i < u_n; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x)
