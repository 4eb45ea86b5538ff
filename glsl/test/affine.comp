// Toolkit test: y[i] = 3 i + 1 for i < n.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float y[]; };
uniform uint n;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = 3.0 * float(i) + 1.0;
}
