// The smallest dispatch: one invocation writes u_value (the fixed cost of a dispatch).
layout(local_size_x = 1) in;
layout(std430, binding = 0) writeonly buffer Y { float y[]; };
uniform float u_value;

void main() {
    y[0] = u_value;
}
