// The Thomas algorithm's two sweeps over grid line j, shared by thomas.comp and
// fused_thomas.comp. The forward elimination keeps the modified super-diagonal c′ and right
// side d′ of unknown i of line j as one vec2 in the std430 buffer u_scratch at index
// i·u_lines + j: for a fixed i, the invocations of consecutive lines touch consecutive
// elements (coalesced on a GPU; one cache line per 8 lanes on llvmpipe), and one store and
// one load per unknown carry both. The back substitution writes the solution into u_x.
// No pivoting: the ADI matrices are strictly diagonally dominant (or identity rows).
layout(r32f, binding = 0) uniform writeonly image2DRect u_x;
layout(std430, binding = 1) buffer Scratch { vec2 u_scratch[]; };
uniform int u_lines;     // the number of lines (systems) in the batch

// Elimination of unknown i of line j, equation e = (a, b, c, k), after c′ and d′ of unknown
// i − 1 (cp, dp), which become unknown i's.
void thomas_forward(int i, int j, vec4 e, inout float cp, inout float dp) {
    float m = e.y - e.x * cp;
    cp = e.z / m;
    dp = (e.w - e.x * dp) / m;
    u_scratch[i * u_lines + j] = vec2(cp, dp);
}

// Back substitution on line j of n unknowns, from the last unknown's x = d′.
void thomas_back(int n, int j, float dp) {
    float x = dp;
    imageStore(u_x, ivec2(n - 1, j), vec4(x));
    for (int i = n - 2; i >= 0; --i) {
        vec2 s = u_scratch[i * u_lines + j];
        x = s.y - s.x * x;
        imageStore(u_x, ivec2(i, j), vec4(x));
    }
}
