// The Thomas algorithm's two sweeps over grid line j, shared by thomas.comp and
// fused_thomas.comp. The forward elimination keeps the modified super-diagonal c′ and right
// side d′ of each unknown for the back substitution, which writes the solution into u_x.
// Where they are kept:
//   THOMAS_PRIVATE_N defined (systems of up to that many unknowns): in the invocation's own
//     array. A GPU puts it in per-thread local memory, interleaved across threads as the
//     buffer below is; llvmpipe keeps it in the invocation batch's frame, loaded and stored
//     one SIMD vector at a time, where a buffer's loads and stores go lane by lane.
//   otherwise: one vec2 per unknown in the std430 buffer u_scratch at index i·u_lines + j
//     (for a fixed i the invocations of consecutive lines touch consecutive elements:
//     coalesced on a GPU), for systems too long for a private array.
// No pivoting: the ADI matrices are strictly diagonally dominant (or identity rows).
layout(r32f, binding = 0) uniform writeonly image2DRect u_x;
#ifdef THOMAS_PRIVATE_N
vec2 t_scratch[THOMAS_PRIVATE_N];
#define SCRATCH(i_, j_) t_scratch[i_]
#else
layout(std430, binding = 1) buffer Scratch { vec2 u_scratch[]; };
#define SCRATCH(i_, j_) u_scratch[(i_) * u_lines + (j_)]
#endif
uniform int u_lines;     // the number of lines (systems) in the batch

// Elimination of unknown i of line j, equation e = (a, b, c, k), after c′ and d′ of unknown
// i − 1 (cp, dp), which become unknown i's.
void thomas_forward(int i, int j, vec4 e, inout float cp, inout float dp) {
    float m = e.y - e.x * cp;
    cp = e.z / m;
    dp = (e.w - e.x * dp) / m;
    SCRATCH(i, j) = vec2(cp, dp);
}

// Back substitution on line j of n unknowns, from the last unknown's x = d′.
void thomas_back(int n, int j, float dp) {
    float x = dp;
    imageStore(u_x, ivec2(n - 1, j), vec4(x));
    for (int i = n - 2; i >= 0; --i) {
        vec2 s = SCRATCH(i, j);
        x = s.y - s.x * x;
        imageStore(u_x, ivec2(i, j), vec4(x));
    }
}
