// The shaders in glsl/ are embedded with include_dir!, which cannot tell cargo about files
// added later: rebuild whenever anything under glsl/ or experiments/ changes.
fn main() {
    println!("cargo:rerun-if-changed=glsl");
    println!("cargo:rerun-if-changed=experiments");
}
