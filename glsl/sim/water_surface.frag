// Shallow-water visualisation: Blinn–Phong lighting of the water surface.
uniform vec3 u_light;   // direction towards the light
uniform vec3 u_eye;     // direction towards the viewer
uniform float u_range;  // height mapped to the full tint
uniform float u_deep;   // depth of the darkest water
in vec3 v_normal;
in float v_height;
in float v_depth;
out vec4 o_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light);
    vec3 hv = normalize(l + normalize(u_eye));
    // Shallow water light, deep water dark: the bottom relief shows through; crests lighter.
    float t = clamp(v_depth / u_deep, 0.0, 1.0);
    vec3 base = mix(vec3(0.45, 0.80, 0.78), vec3(0.02, 0.14, 0.34), t);
    base *= 1.0 + 0.4 * clamp(v_height / u_range, -1.0, 1.0);
    float diff = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, hv), 0.0), 60.0);
    o_color = vec4(base * (0.25 + 0.75 * diff) + vec3(0.8) * spec, 1.0);
}
