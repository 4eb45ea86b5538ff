// Blocked LU, panel step i (columns u_i … u_pe−1 of the panel): one thread per row j > i
// divides A_ji by the pivot and updates the rest of its panel row, A_jk −= A_ji · A_ik.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Mat { float a[]; };
uniform int u_n;
uniform int u_i;
uniform int u_pe;

void main() {
    int j = u_i + 1 + int(gl_GlobalInvocationID.x);
    if (j >= u_n) return;
    float l = a[j * u_n + u_i] / a[u_i * u_n + u_i];
    a[j * u_n + u_i] = l;
    for (int k = u_i + 1; k < u_pe; k++) {
        precise float prod = l * a[u_i * u_n + k];
        a[j * u_n + k] -= prod;
    }
}
