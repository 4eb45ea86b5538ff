// Beyond the paper: one ADI half-step in one compute dispatch. Appended to a scheme's build
// shader (compiled with FUSED, so that file contributes its uniforms and `equation(p)` and no
// fragment main): one invocation per grid line builds each equation as the build pass would
// and runs the Thomas algorithm on it at once, so the RGBA32F systems texture is never written
// or read. x: R32F rect n × n in the solvers' layout (unknown i of line j at (i, j)); it must
// not be the state the equations read (the caller ping-pongs). cp: scratch.
// No pivoting: the ADI matrices are strictly diagonally dominant (or identity rows).
layout(local_size_x = 32) in;
layout(r32f, binding = 0) uniform image2DRect u_x;
layout(r32f, binding = 1) uniform image2DRect u_cp;

void main() {
    int j = int(gl_GlobalInvocationID.x);
    if (j >= u_n) return;
    float cp = 0.0;
    float dp = 0.0;
    for (int i = 0; i < u_n; ++i) {
        vec4 e = equation(ivec2(i, j));
        float m = e.y - e.x * cp;
        cp = e.z / m;
        dp = (e.w - e.x * dp) / m;
        imageStore(u_cp, ivec2(i, j), vec4(cp));
        imageStore(u_x, ivec2(i, j), vec4(dp));
    }
    float x = dp;
    for (int i = u_n - 2; i >= 0; --i) {
        x = imageLoad(u_x, ivec2(i, j)).r - imageLoad(u_cp, ivec2(i, j)).r * x;
        imageStore(u_x, ivec2(i, j), vec4(x));
    }
}
