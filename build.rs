// The shaders in glsl/ are embedded with include_dir!, which cannot tell cargo about files
// added later: rebuild whenever anything under glsl/ or experiments/ changes.
// It also records the build (profile, rustc version) for the reports' provenance.
fn main() {
    println!("cargo:rerun-if-changed=glsl");
    println!("cargo:rerun-if-changed=experiments");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown rustc".into());
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=GPGPU_REPRO_BUILD={profile} build, {version}");
}
