#!/usr/bin/env bash
# Smoke test of the live viewer as a person would use it: start a virtual X server, open
# `gpgpu-repro sim NAME --window`, let it run, press keys (pause, solver switch, disturbance),
# take screenshots, and check that the window showed something and named its FPS.
#
#   scripts/window-smoke.sh [SIM] [OUTDIR]        (default: shallow-water, /tmp/window-smoke)
#
# Needs Xvfb, xwd and ImageMagick (Debian: apt-get install xvfb x11-apps imagemagick) and
# xdotool for the key presses if present (skipped otherwise). BIN overrides the binary.
set -euo pipefail
SIM=${1:-shallow-water}
OUT=${2:-/tmp/window-smoke}
BIN=${BIN:-target/release/gpgpu-repro}
SIZE=${SIZE:-256}
mkdir -p "$OUT"
DISP=:$((90 + RANDOM % 100))
Xvfb "$DISP" -screen 0 1024x768x24 >"$OUT/xvfb.log" 2>&1 &
XVFB=$!
trap 'kill $APP 2>/dev/null || true; kill $XVFB 2>/dev/null || true' EXIT
sleep 1
DISPLAY=$DISP "$BIN" sim "$SIM" --size "$SIZE" --window >"$OUT/app.log" 2>&1 &
APP=$!
sleep "${WAIT:-12}"
if ! kill -0 $APP 2>/dev/null; then
    echo "the viewer exited early:"; cat "$OUT/app.log"; exit 1
fi
DISPLAY=$DISP xwd -root -silent | convert xwd:- "$OUT/$SIM-1.png"
if command -v xdotool >/dev/null; then
    DISPLAY=$DISP xdotool search --name gpgpu-repro windowactivate --sync key d key s 2>/dev/null || true
    sleep "${WAIT2:-8}"
    DISPLAY=$DISP xwd -root -silent | convert xwd:- "$OUT/$SIM-2.png"
fi
TITLE=$(DISPLAY=$DISP xwininfo -root -tree | grep -o '"[^"]*FPS[^"]*"' | head -1 || true)
echo "window title: $TITLE"
# A blank screen has one colour; a drawn simulation has many.
COLOURS=$(convert "$OUT/$SIM-1.png" -format %k info:)
echo "screenshot $OUT/$SIM-1.png: $COLOURS colours"
[ -n "$TITLE" ] && [ "$COLOURS" -gt 50 ]
