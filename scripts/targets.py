#!/usr/bin/env python3
"""The performance targets of issue 13 (item 5), read from a run's tables.

    python3 scripts/targets.py [RUN_DIR]        (default: figures/llvmpipe)

Every figure printed comes from the run's `<paper>/<table>.json` rows; the thresholds are the
issue's. A table the run lacks (a paper not run, a quick run's sizes) is said so and skipped.
"""
import json
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "figures/llvmpipe"


def table(path):
    """(column names, rows by key) of ROOT/path.json, or None when the run lacks it."""
    f = os.path.join(ROOT, path + ".json")
    if not os.path.exists(f):
        return None
    d = json.load(open(f))
    cols = [c["name"] if isinstance(c, dict) else c for c in d["columns"]]
    return cols, {r["key"]: r for r in d["rows"]}


def val(t, key, col):
    cols, rows = t
    return rows[key]["values"][cols.index(col)]


def times_bound(t, key):
    """Measured time over the row's bound (1 = at the device's limit), or None."""
    a = t[1][key].get("attained") or {}
    b = a.get("bound") or {}
    return a["ms"] / b["ms"] if b.get("ms") else None


def bound_ms(t, key):
    """The device's least time for the row's work (its bound), or None."""
    b = (t[1][key].get("attained") or {}).get("bound") or {}
    return b.get("ms")


def verdict(ok):
    return "**met**" if ok else "**not met**"


def adi(out):
    t = table("tridiagonal/fig14_heat")
    if not t:
        return out.append("- ADI heat: no `tridiagonal/fig14_heat` in this run")
    grids = sorted({int(k.split("/")[0]) for k in t[1]})
    g = grids[-1]
    fps = {k.split("/")[1]: val(t, k, "FPS") for k in t[1] if k.startswith(f"{g}/")}
    best = max(fps, key=fps.get)
    cr = max(fps.get("cr", 0), fps.get("cr-copy", 0))
    others = ", ".join(f"{k} {v:.1f}" for k, v in sorted(fps.items(), key=lambda kv: -kv[1]))
    out.append(
        f"- ADI heat {g}² (≥ 35 FPS with the best solver; ≥ 15 FPS with the fragment CR): "
        f"best {best} {fps[best]:.1f} FPS {verdict(fps[best] >= 35)}, fragment CR {cr:.1f} "
        f"FPS {verdict(cr >= 15)} (all: {others}) — `tridiagonal/fig14_heat`"
    )


def tridiagonal(out):
    t = table("tridiagonal/fig11")
    if not t:
        return out.append("- tridiagonal: no `tridiagonal/fig11` in this run")
    g = max({k.split(" ")[0] for k in t[1]}, key=lambda s: int(s.split("×")[0]))
    frag = {m: f"{g} CR fragment ({m})" for m in ("copy", "switch")}
    best_frag = min(frag.values(), key=lambda k: val(t, k, "time"))
    x = val(t, best_frag, "× Thomas CPU f32")
    comp = [k for k in t[1] if k.startswith(g) and "compute" in k and "PCR" not in k]
    best_comp = min(comp, key=lambda k: val(t, k, "time"))
    fc, cc = val(t, best_frag, "time"), val(t, best_comp, "time")
    th = fc / x
    out.append(
        f"- tridiagonal {g} (fragment CR ≤ 2.0× single-thread Thomas): {best_frag} "
        f"{fc:.2f} ms = {x:.2f}× Thomas {verdict(x <= 2.0)}; its bound {bound_ms(t, best_frag):.2f} ms "
        f"= {bound_ms(t, best_frag) / th:.2f}× Thomas (the device allows the target where "
        f"this is ≤ 2) — `tridiagonal/fig11`"
    )
    rest = ", ".join(f"{k[len(g) + 1:]} {val(t, k, 'time'):.2f} ms" for k in comp)
    out.append(
        f"- tridiagonal {g} (compute CR faster than fragment CR): the fastest, "
        f"{best_comp[len(g) + 1:]}, {cc:.2f} ms vs {fc:.2f} ms {verdict(cc < fc)} ({rest}) "
        f"— `tridiagonal/fig11`"
    )


def matmul(out):
    t = table("matmul/table1_kernels")
    if not t:
        return out.append("- matmul: no `matmul/table1_kernels` in this run")
    n = 1024 if "1024 blocked compute" in t[1] else max(int(k.split(" ")[0]) for k in t[1])
    c = val(t, f"{n} blocked compute", "GFLOPS")
    f = val(t, f"{n} fragment multipass", "GFLOPS")
    out.append(
        f"- matmul N = {n} (best compute ≥ 2× the fragment multipass and ≥ 20 GFLOPS): "
        f"blocked compute {c:.2f} GFLOPS, fragment multipass {f:.2f}, ratio {c / f:.2f} "
        f"{verdict(c >= 2 * f and c >= 20)}; time / bound {times_bound(t, f'{n} blocked compute'):.2f} "
        f"(compute), {times_bound(t, f'{n} fragment multipass'):.2f} (fragment); at its bound the "
        f"compute kernel would reach {c * times_bound(t, f'{n} blocked compute'):.2f} GFLOPS "
        f"({'within' if c * times_bound(t, f'{n} blocked compute') >= 20 else 'so 20 GFLOPS is beyond'} "
        f"this device's limits for its work) — `matmul/table1_kernels`"
    )


def lu(out):
    t = table("lu/table4")
    if not t:
        return out.append("- lu: no `lu/table4` in this run")
    n = max(int(k.split(" ")[0][2:]) for k in t[1])
    key = f"N={n} I3 switch"
    a, qa = val(t, key, "A"), val(t, key, "Quadro A")
    ratios = sorted(
        (times_bound(t, k), k) for k in t[1] if k.startswith(f"N={n} ") and times_bound(t, k)
    )
    out.append(
        f"- lu N = {n} (I3 + switch ≤ the Quadro FX 3400's time): A = {a:.0f} ms vs "
        f"{qa:.0f} ms {verdict(a <= qa)}; its bound on this device {bound_ms(t, key):.0f} ms "
        f"({'below' if bound_ms(t, key) <= qa else 'above'} the Quadro's time: the target is "
        f"{'within' if bound_ms(t, key) <= qa else 'beyond'} this device's limits) — `lu/table4`"
    )
    out.append(
        f"- lu N = {n} (every fragment variant within 2× of its bound): time / bound from "
        f"{ratios[0][0]:.2f} ({ratios[0][1]}) to {ratios[-1][0]:.2f} ({ratios[-1][1]}) "
        f"{verdict(ratios[-1][0] <= 2)} — `lu/table4`"
    )


def bicg(out):
    t = table("bicg/periter")
    if not t:
        return out.append("- bicg: no `bicg/periter` in this run")
    for k in t[1]:
        r = times_bound(t, k)
        it = val(t, k, "Iterations")
        out.append(
            f"- bicg {k} (a GL fp64 iteration within 1.5× of its bandwidth bound): "
            f"{r:.2f}× its bound {verdict(r <= 1.5)}, {val(t, k, 'GPU per iteration'):.1f} ms "
            f"per iteration against a bound of {bound_ms(t, k) / it:.1f} ms — `bicg/periter`"
        )


def fem(out):
    t = table("fem-storage/perf")
    if not t:
        return out.append("- fem-storage: no `fem-storage/perf` in this run")
    for k in t[1]:
        if " GL" in k:
            f = val(t, k, "fraction of SSBO stream")
            out.append(
                f"- fem-storage {k} (a GL Jacobi sweep ≥ 70 % of the SSBO stream): "
                f"{100 * f:.0f} % {verdict(f >= 0.7)}, {val(t, k, 'ms/sweep'):.1f} ms/sweep, "
                f"time / bound {times_bound(t, k):.2f} (bound {bound_ms(t, k):.1f} ms) "
                f"— `fem-storage/perf`"
            )


out = []
for part in (adi, tridiagonal, matmul, lu, bicg, fem):
    part(out)
print("\n".join(out))
