// Beyond the paper: one ADI half-step in one compute dispatch. Appended to a scheme's build
// shader (compiled with FUSED, so that file contributes its uniforms and `equation(p)` and no
// fragment main): one invocation per grid line builds each equation as the build pass would
// and runs the Thomas algorithm (thomas.glsl) on it at once, so the RGBA32F systems texture is
// never written or read. x: R32F rect n × n in the solvers' layout (unknown i of line j at
// (i, j)); it must not be the state the equations read (the caller ping-pongs). cp: scratch.
layout(local_size_x = 32) in;
#include "tridiagonal/sim/thomas.glsl"

void main() {
    int j = int(gl_GlobalInvocationID.x);
    if (j >= u_n) return;
    float cp = 0.0;
    float dp = 0.0;
    for (int i = 0; i < u_n; ++i) {
        thomas_forward(i, j, equation(ivec2(i, j)), cp, dp);
    }
    thomas_back(u_n, j, dp);
}
