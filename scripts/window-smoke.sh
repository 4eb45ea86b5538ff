#!/usr/bin/env bash
# Smoke test of the live viewer as a person would use it: start a virtual X server, open
# `gpgpu-repro sim NAME --window`, let it run, press keys, take screenshots of the window,
# and check them pixel by pixel against the boxes the viewer lays out (it prints them with
# GPGPU_REPRO_LAYOUT=1):
#   1. (physical range) the colour bar is a gradient of many colours; the strip on top and
#      the bar's labels hold text (light pixels on the dark panels); the field is drawn;
#   2. after `A` (automatic range) the field is still drawn, with many colours;
#   3. after `V` (split view) two fields of many colours side by side that look alike (CR and
#      Thomas agree), their captions and the difference line under them hold text;
#   4. after `D` and `S` the viewer still runs, and its title names the FPS.
# Exits non-zero when a check fails.
#
#   scripts/window-smoke.sh [SIM] [OUTDIR]        (default: shallow-water, /tmp/window-smoke)
#
# Needs Xvfb, xwd, xwininfo, ImageMagick (Debian: apt-get install xvfb x11-apps x11-utils
# imagemagick) and xdotool for the key presses (steps 2–4 are skipped without it). BIN
# overrides the binary, SIZE the grid (--size), WAIT / WAIT2 the seconds before the first
# screenshot and between the others.
set -euo pipefail
SIM=${1:-shallow-water}
OUT=${2:-/tmp/window-smoke}
BIN=${BIN:-target/release/gpgpu-repro}
SIZE=${SIZE:-256}
for tool in Xvfb xwd xwininfo; do
    command -v $tool >/dev/null || { echo "needs $tool (apt-get install xvfb x11-apps x11-utils)"; exit 2; }
done
convert -version 2>/dev/null | grep -q '^Version: ImageMagick' ||
    { echo "needs ImageMagick's convert and compare (apt-get install imagemagick; is another convert earlier in PATH?)"; exit 2; }
mkdir -p "$OUT"
DISP=:$((90 + RANDOM % 100))
Xvfb "$DISP" -screen 0 1024x768x24 >"$OUT/xvfb.log" 2>&1 &
XVFB=$!
APP=
trap 'kill $APP 2>/dev/null || true; kill $XVFB 2>/dev/null || true' EXIT
sleep 1
GPGPU_REPRO_LAYOUT=1 DISPLAY=$DISP "$BIN" sim "$SIM" --size "$SIZE" --window >"$OUT/app.log" 2>&1 &
APP=$!
sleep "${WAIT:-12}"

FAILED=0
check() { # check WHAT CONDITION...: prints ok/FAILED and remembers a failure
    local what=$1; shift
    if "$@"; then echo "ok      $what"; else echo "FAILED  $what"; FAILED=1; fi
}
alive() {
    if ! kill -0 "$APP" 2>/dev/null; then
        echo "the viewer exited early:"; cat "$OUT/app.log"; exit 1
    fi
}
alive
# The window (its title names the FPS once the first half second has passed).
WID=$(DISPLAY=$DISP xwininfo -root -tree | awk '/FPS/ {print $1; exit}')
[ -n "$WID" ] || { echo "no viewer window with FPS in its title"; exit 1; }
shot() { DISPLAY=$DISP xwd -id "$WID" -silent | convert xwd:- "$OUT/$SIM-$1.png"; echo "screenshot $OUT/$SIM-$1.png"; }
# The box NAME (the Nth of that name) of the last layout printed: WxH+X+Y for ImageMagick.
box() {
    grep '^layout' "$OUT/app.log" | tail -1 | tr ' ' '\n' | grep "^$1=" | sed -n "${2:-1}p" |
        cut -d= -f2 | awk -F, '{print $3 "x" $4 "+" $1 "+" $2}'
}
colours() { convert "$OUT/$SIM-$1.png" -crop "$2" +repage -format %k info:; }
# Pixels lighter than 50 % grey (the overlay's text on its dark panels).
light() { convert "$OUT/$SIM-$1.png" -crop "$2" +repage -colorspace gray -threshold 50% -format '%[fx:int(mean*w*h)]' info:; }
# The bar's labels: right of the bar, inside the panel.
labels() {
    grep '^layout' "$OUT/app.log" | tail -1 | tr ' ' '\n' | grep -E '^(bar|panel)=' | cut -d= -f2 |
        paste -sd, | awk -F, '{x = $5 + $7 + 6; print ($1 + $3 - x) "x" $8 "+" x "+" $6}'
}
gt() { [ "$1" -gt "$2" ]; }

shot 1
BAR=$(box bar); INFO=$(box info); VIEW=$(box view)
echo "bar $BAR: $(colours 1 "$BAR") colours; strip $INFO: $(light 1 "$INFO") text pixels;" \
    "labels $(labels): $(light 1 "$(labels)") text pixels; view $VIEW: $(colours 1 "$VIEW") colours"
check "colour bar: a gradient of many colours" gt "$(colours 1 "$BAR")" 100
check "strip on top: text" gt "$(light 1 "$INFO")" 300
check "colour bar labels: text" gt "$(light 1 "$(labels)")" 40
check "view: drawn" gt "$(colours 1 "$VIEW")" 20

if command -v xdotool >/dev/null; then
    # Focus the window (there is no window manager to activate it), then type through XTEST.
    key() { DISPLAY=$DISP xdotool windowfocus "$WID" key "$@"; }
    # The first key after the focus moves can be lost: move it once before.
    DISPLAY=$DISP xdotool windowfocus "$WID"; sleep 1
    key a
    sleep "${WAIT2:-6}"; alive
    shot 2-auto
    FIELD=$(box inset || true); FIELD=${FIELD:-$(box view)}
    echo "auto range, field $FIELD: $(colours 2-auto "$FIELD") colours"
    check "auto range: field of many colours" gt "$(colours 2-auto "$FIELD")" 50
    key v
    sleep "${WAIT2:-6}"; alive
    shot 3-split
    A=$(box view 1 || true); B=$(box view 2 || true); FOOT=$(box footer || true); CAP=$(box caption 1 || true)
    if [ -z "$B" ]; then
        check "split view: two views laid out" false
    else
        convert "$OUT/$SIM-3-split.png" -crop "$A" +repage "$OUT/split-a.png"
        convert "$OUT/$SIM-3-split.png" -crop "$B" +repage "$OUT/split-b.png"
        # Normalised RMS difference of the two fields' pictures (0: identical).
        RMSE=$(compare -metric RMSE "$OUT/split-a.png" "$OUT/split-b.png" null: 2>&1 | sed 's/.*(\(.*\)).*/\1/' || true)
        echo "split: left $A $(colours 3-split "$A") colours, right $B $(colours 3-split "$B") colours," \
            "RMSE between them $RMSE; caption $(light 3-split "$CAP"), footer $(light 3-split "$FOOT") text pixels"
        check "split view: left field drawn" gt "$(colours 3-split "$A")" 20
        check "split view: right field drawn" gt "$(colours 3-split "$B")" 20
        check "split view: the two fields agree (RMSE < 0.02)" awk -v r="$RMSE" 'BEGIN { exit !(r != "" && r < 0.02) }'
        check "split view: captions" gt "$(light 3-split "$CAP")" 40
        check "split view: difference line" gt "$(light 3-split "$FOOT")" 100
    fi
    key d s
    sleep "${WAIT2:-6}"; alive
    shot 4
fi
TITLE=$(DISPLAY=$DISP xwininfo -root -tree | grep -o '"[^"]*FPS[^"]*"' | head -1 || true)
echo "window title: $TITLE"
check "title names the FPS" test -n "$TITLE"
grep -v '^layout' "$OUT/app.log" | head -5 || true
exit $FAILED
