// Copy: y = x.
#include "bicg/elementwise.glsl"
layout(std430, binding = 0) readonly buffer X { REAL x[]; };
layout(std430, binding = 1) writeonly buffer Y { REAL y[]; };

void main() {
    FOR_EACH_ELEMENT(i) {
        y[i] = x[i];
    }
}
