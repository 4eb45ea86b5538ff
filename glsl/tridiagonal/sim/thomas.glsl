// The Thomas algorithm's two sweeps over grid line j, shared by thomas.comp and
// fused_thomas.comp: the forward elimination keeps the modified super-diagonal c′ in u_cp and
// the modified right side d′ in u_x, the back substitution overwrites u_x with the solution.
// No pivoting: the ADI matrices are strictly diagonally dominant (or identity rows).
layout(r32f, binding = 0) uniform image2DRect u_x;
layout(r32f, binding = 1) uniform image2DRect u_cp;

// Elimination of unknown i of line j, equation e = (a, b, c, k), after c′ and d′ of unknown
// i − 1 (cp, dp), which become unknown i's.
void thomas_forward(int i, int j, vec4 e, inout float cp, inout float dp) {
    float m = e.y - e.x * cp;
    cp = e.z / m;
    dp = (e.w - e.x * dp) / m;
    imageStore(u_cp, ivec2(i, j), vec4(cp));
    imageStore(u_x, ivec2(i, j), vec4(dp));
}

// Back substitution on line j of n unknowns, from the last unknown's x = d′.
void thomas_back(int n, int j, float dp) {
    float x = dp;
    for (int i = n - 2; i >= 0; --i) {
        x = imageLoad(u_x, ivec2(i, j)).r - imageLoad(u_cp, ivec2(i, j)).r * x;
        imageStore(u_x, ivec2(i, j), vec4(x));
    }
}
