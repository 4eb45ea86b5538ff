// The shaders in glsl/ are embedded with include_dir!, which cannot tell cargo about files
// added later: rebuild whenever anything under glsl/ or experiments/ changes.
// It also records the build (profile, rustc version, and the commit it was built from, with
// `+dirty` where src/, glsl/, experiments/ or the build files differed from it) for the
// reports' provenance: a binary copied to a machine without the checkout still knows it.
fn main() {
    println!("cargo:rerun-if-changed=glsl");
    println!("cargo:rerun-if-changed=experiments");
    println!("cargo:rerun-if-changed=src");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // A new commit or a change of the index reruns this script.
    for path in ["HEAD", "index"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &r])
    {
        println!("cargo:rerun-if-changed={p}");
    }
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(c) => {
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "src",
                "glsl",
                "experiments",
                "build.rs",
                "Cargo.toml",
                "Cargo.lock",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty { format!("{c}+dirty") } else { c }
        }
        None => String::new(),
    };
    println!("cargo:rustc-env=GPGPU_REPRO_BUILD_COMMIT={commit}");
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
