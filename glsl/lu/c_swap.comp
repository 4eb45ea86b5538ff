// Partial pivoting, step 2: swaps rows i and piv[i] over all N columns (the whole row, L part
// included, so that the result is the LU of P·A).
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Mat { float a[]; };
layout(std430, binding = 1) readonly buffer Piv { int piv[]; };
uniform int u_n;
uniform int u_i;

void main() {
    int k = int(gl_GlobalInvocationID.x);
    int p = piv[u_i];
    if (k >= u_n || p == u_i) return;
    float x = a[u_i * u_n + k];
    a[u_i * u_n + k] = a[p * u_n + k];
    a[p * u_n + k] = x;
}
