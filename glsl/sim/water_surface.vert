// Shallow-water visualisation, pass 2: the surface as an m × m mesh drawn without vertex
// attributes; each vertex fetches its height and normal (water_normals.frag) by gl_VertexID.
// Quads are emitted from the far row (high y) to the near one, so that without a depth buffer
// (offscreen) the painter's order hides what lies behind a crest.
uniform sampler2DRect u_nh;
uniform int u_n;        // grid size
uniform int u_m;        // mesh vertices per side (≤ n)
uniform float u_scale;  // vertical exaggeration, grid cells per height unit
uniform mat4 u_mvp;
out vec3 v_normal;
out float v_height;
out float v_depth;

void main() {
    int q = gl_VertexID / 6;
    int corner = gl_VertexID % 6;
    int cells = u_m - 1;
    int row = cells - 1 - q / cells;
    int col = q % cells;
    // Two triangles: (0,0) (1,0) (1,1) and (0,0) (1,1) (0,1).
    ivec2 offs[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(1, 1),
                              ivec2(0, 0), ivec2(1, 1), ivec2(0, 1));
    ivec2 v = ivec2(col, row) + offs[corner];
    vec2 grid = vec2(v) * float(u_n - 1) / float(cells);
    vec4 nh = texelFetch(u_nh, ivec2(grid + 0.5));
    v_normal = vec3(nh.xy, sqrt(max(1.0 - dot(nh.xy, nh.xy), 0.0)));
    v_height = nh.z;
    v_depth = nh.w;
    vec3 p = vec3(grid / float(u_n - 1) - 0.5, nh.z * u_scale / float(u_n));
    gl_Position = u_mvp * vec4(p, 1.0);
}
