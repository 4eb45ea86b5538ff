// Shallow-water visualisation: Blinn–Phong lighting of the water surface.
uniform vec3 u_light;   // direction towards the light
uniform vec3 u_eye;     // direction towards the viewer
uniform float u_range;  // height mapped to the full tint
in vec3 v_normal;
in float v_height;
out vec4 o_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light);
    vec3 hv = normalize(l + normalize(u_eye));
    float t = clamp(0.5 + 0.5 * v_height / u_range, 0.0, 1.0);
    vec3 base = mix(vec3(0.02, 0.16, 0.35), vec3(0.25, 0.62, 0.78), t);
    float diff = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, hv), 0.0), 60.0);
    o_color = vec4(base * (0.25 + 0.75 * diff) + vec3(0.8) * spec, 1.0);
}
