#!/usr/bin/env python3
"""Where the time of one ADI step goes: the heat simulation with the fused build-and-Thomas
solver (`--solver fused-thomas`, glsl/tridiagonal/sim/fused_thomas.comp + thomas.glsl), timed
as landed and with one part of the kernel taken out at a time, through GPGPU_REPRO_GLSL (edited
shader copies, no rebuild):

  landed        the shaders as built;
  no build      each equation a constant (no state fetches, no scheme arithmetic);
  no scratch    the forward sweep's (c', d') neither stored nor loaded back (a constant),
                wherever thomas.glsl keeps them (a private array up to 1024 unknowns, else
                a buffer);
  no back       the back substitution's loop skipped (only the last unknown is written);
  no build, no scratch
                both: what is left is the sweeps' arithmetic and the solution's stores.

The ablated kernels compute wrong fields: they are timing probes, never results. Runs are
interleaved (one of each variant per round) so that drift hits them alike; each variant's
median FPS over the rounds is printed with its [min, max], and the share of the landed step
that the part taken out costs, 1 - landed / variant (medians).

    scripts/ablate-heat.py [--size 1023] [--steps 40] [--rounds 5] [--bin target/release/gpgpu-repro]

Run it on a quiet machine (nothing else running): it is a measurement.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

SIM = "tridiagonal/sim/"
# (file, text as landed, replacement) per part; every text must occur in the landed shader.
PARTS = {
    "build": [(SIM + "fused_thomas.comp", "equation(ivec2(i, j))",
               "vec4(-0.25, 1.5, -0.25, float(i + j))")],
    "scratch": [(SIM + "thomas.glsl", "SCRATCH(i, j) = vec2(cp, dp);", ""),
                (SIM + "thomas.glsl", "vec2 s = SCRATCH(i, j);",
                 "vec2 s = vec2(0.125, float(i));")],
    "back": [(SIM + "thomas.glsl", "for (int i = n - 2; i >= 0; --i) {",
              "for (int i = n - 2; i >= n; --i) {")],
}
VARIANTS = [("landed", []), ("no build", ["build"]), ("no scratch", ["scratch"]),
            ("no back", ["back"]), ("no build, no scratch", ["build", "scratch"])]


def builtin(glsl, path):
    with open(os.path.join(glsl, path)) as f:
        return f.read()


def make_dir(root, glsl, name, parts):
    """A GPGPU_REPRO_GLSL folder with `parts` taken out (None for the landed shaders)."""
    if not parts:
        return None
    d = os.path.join(root, name.replace(", ", "-").replace(" ", "-"))
    texts = {}
    for part in parts:
        for path, old, new in PARTS[part]:
            t = texts.get(path) or builtin(glsl, path)
            if old not in t:
                sys.exit(f"error: `{old}` is not in glsl/{path} any more: update {sys.argv[0]}")
            texts[path] = t.replace(old, new)
    for path, t in texts.items():
        os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as f:
            f.write(t)
    return d


def fps(binary, size, steps, glsl_dir):
    env = dict(os.environ)
    env.pop("GPGPU_REPRO_GLSL", None)
    if glsl_dir:
        env["GPGPU_REPRO_GLSL"] = glsl_dir
    out = subprocess.run([binary, "sim", "heat", "--size", str(size), "--steps", str(steps),
                          "--solver", "fused-thomas"], env=env, capture_output=True, text=True)
    m = re.search(r"= ([0-9.]+) FPS", out.stdout + out.stderr)
    if out.returncode != 0 or not m:
        sys.exit(f"error: the run failed:\n{out.stderr}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=1023)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bin", default="target/release/gpgpu-repro")
    ap.add_argument("--glsl", default="glsl", help="the landed shaders (the checkout's glsl/)")
    a = ap.parse_args()
    if a.size < 3 or a.steps < 1 or a.rounds < 1:
        sys.exit("error: --size ≥ 3, --steps ≥ 1, --rounds ≥ 1")
    with tempfile.TemporaryDirectory() as root:
        dirs = [(name, make_dir(root, a.glsl, name, parts)) for name, parts in VARIANTS]
        runs = {name: [] for name, _ in dirs}
        for r in range(a.rounds):
            for name, d in dirs:
                runs[name].append(fps(a.bin, a.size, a.steps, d))
            print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"heat {a.size}², `--solver fused-thomas`, {a.steps} steps per run, "
          f"{a.rounds} interleaved rounds (`{' '.join(sys.argv)}`)\n")
    print("| variant | FPS (median) | [min, max] | share of the landed step it removes |")
    print("|---|---:|---|---:|")
    for name, v in runs.items():
        share = "—" if name == "landed" else f"{1 - med['landed'] / med[name]:.2f}"
        print(f"| {name} | {med[name]:.1f} | [{min(v):.1f}, {max(v):.1f}] | {share} |")


if __name__ == "__main__":
    main()
