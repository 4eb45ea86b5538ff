// Blocked LU, after a panel [u_p, u_pe): U12 = L11⁻¹ A12 by forward substitution, one thread
// per column k ≥ u_pe (L11 unit lower triangular, stored in the panel).
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Mat { float a[]; };
uniform int u_n;
uniform int u_p;
uniform int u_pe;

void main() {
    int k = u_pe + int(gl_GlobalInvocationID.x);
    if (k >= u_n) return;
    for (int r = u_p + 1; r < u_pe; r++) {
        float x = a[r * u_n + k];
        for (int q = u_p; q < r; q++) {
            precise float prod = a[r * u_n + q] * a[q * u_n + k];
            x -= prod;
        }
        a[r * u_n + k] = x;
    }
}
