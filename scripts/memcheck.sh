#!/usr/bin/env bash
# valgrind memcheck on the three runs issue 40 names: a headless simulation, one `trace`, and
# the live viewer with two simulations on one context (split view, `V`) under a virtual X
# server. Per run it prints the error contexts of each kind (invalid read/write/free, use of
# uninitialised memory) and how many of them fault in the crate's own code (the top frame a
# file under this checkout's src/) or have a crate frame anywhere in the stack (the crate
# called into Mesa, libglvnd or ld.so, which faulted). Exits 1 when any top frame is the
# crate's.
#
#   scripts/memcheck.sh [OUTDIR]        (default: /tmp/memcheck; one LOG.vg.log per run)
#
# Slow: llvmpipe's JIT runs under valgrind (about 1, 1 and 3 minutes on 2 cores with a warm
# Mesa shader cache; a cold cache adds Mesa's own shader-cache compression errors, libzstd
# and libz called from swrast_dri.so). Needs valgrind, Xvfb, xvfb-run, xwininfo and xdotool
# (Debian: apt-get install valgrind xvfb x11-utils xdotool). BIN overrides the binary, SIM
# and SIZE the viewer's simulation, RUN the seconds the split view runs.
set -euo pipefail
OUT=${1:-/tmp/memcheck}
BIN=${BIN:-target/release/gpgpu-repro}
SIM=${SIM:-shallow-water}
SIZE=${SIZE:-63}
for tool in valgrind xvfb-run xwininfo xdotool; do
    command -v $tool >/dev/null || { echo "needs $tool"; exit 2; }
done
mkdir -p "$OUT"
SRC=$(cd "$(dirname "$0")/.." && pwd)/src/
# --fullpath-after= prints whole paths, so the crate's frames are told from its dependencies'.
VG=(valgrind --tool=memcheck --error-exitcode=0 --track-origins=no --num-callers=30
    --error-limit=no --fullpath-after=)
export LP_NUM_THREADS=1

# The viewer: wait for its window, V, let the split view run, Q.
viewer() {
    GPGPU_REPRO_LAYOUT=1 "${VG[@]}" --log-file="$OUT/viewer-split.vg.log" \
        "$BIN" sim "$SIM" --size "$SIZE" --window >"$OUT/viewer-split.app.log" 2>&1 &
    local app=$! wid= i
    for i in $(seq 1 120); do
        sleep 5
        kill -0 $app 2>/dev/null || { echo "the viewer exited before its window"; wait $app; return 1; }
        wid=$(xwininfo -root -tree | awk '/FPS/ {print $1; exit}')
        [ -n "$wid" ] && break
    done
    [ -n "$wid" ] || { kill $app; echo "no viewer window"; return 1; }
    xdotool windowfocus "$wid"
    sleep 2
    xdotool windowfocus "$wid" key v
    for i in $(seq 1 60); do
        grep '^layout' "$OUT/viewer-split.app.log" | tail -1 | tr ' ' '\n' | grep -c '^view=' |
            grep -q 2 && break
        sleep 5
    done
    sleep "${RUN:-30}"
    xdotool windowfocus "$wid" key q
    wait $app
}

# count LOG: error contexts per kind, crate top frames, crate frames anywhere; fails when a
# top frame is the crate's.
count() {
    local rc=0
    awk -v src="$SRC" '
        function flush() {
            if (kind != "") { n[kind]++; if (top) t[kind]++; if (any) a[kind]++ }
            kind = ""; top = 0; any = 0; first = 1; inaddr = 0
        }
        /^==[0-9]+== $/ { flush(); next }
        /^==[0-9]+== (Invalid read|Invalid write|Invalid free|Mismatched free)/ {
            flush(); kind = $2 " " $3; next }
        /^==[0-9]+== .*[Uu]ninitialised/ && !/track-origins/ { flush(); kind = "uninitialised"; next }
        kind != "" && /^==[0-9]+== +Address|Block was/ { inaddr = 1 }
        kind != "" && !inaddr && /^==[0-9]+== +(at|by) 0x/ {
            mine = index($0, src) > 0
            if (first && mine) top = 1
            if (mine) any = 1
            first = 0
        }
        END {
            flush()
            for (k in n) printf "  %s: %d error contexts, %d with the top frame in the crate, %d with a crate frame anywhere\n", k, n[k], t[k] + 0, a[k] + 0
            bad = 0; for (k in t) bad += t[k]
            exit bad > 0
        }' "$1" || rc=1
    grep -o 'ERROR SUMMARY.*' "$1" | tail -1 | sed 's/^/  /'
    return $rc
}

"${VG[@]}" --log-file="$OUT/sim-heat.vg.log" "$BIN" sim heat --size 63 --steps 3 \
    >"$OUT/sim-heat.app.log" 2>&1 || echo "sim heat exited with $? (see $OUT/sim-heat.app.log)"
"${VG[@]}" --log-file="$OUT/trace.vg.log" "$BIN" trace cr-switch --size 7 --batch 2 \
    --out "$OUT/trace" >"$OUT/trace.app.log" 2>&1 || echo "trace exited with $? (see $OUT/trace.app.log)"
xvfb-run -a -s '-screen 0 1024x768x24' \
    bash -c "$(declare -f viewer); $(declare -p VG OUT BIN SIM SIZE); viewer" ||
    echo "the viewer run exited with $? (see $OUT/viewer-split.app.log)"

FAILED=0
for run in sim-heat trace viewer-split; do
    echo "$run ($OUT/$run.vg.log):"
    count "$OUT/$run.vg.log" || FAILED=1
done
exit $FAILED
