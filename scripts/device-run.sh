#!/usr/bin/env bash
# A full run on a lent GPU machine, in as many calls as its time needs: each call goes on where
# the last one stopped (`reproduce --resume` into `.device/out`, whose `device.json` — the
# bench — is reused), and logs the GPU's clocks every 2 s beside the run, which is how the
# H200 run of session 13 found the GPU idling at 345 MHz through matmul's CPU loop
# (`figures/nvidia-h200-pcie-sse2/README.md`).
#
# Here, first: `../shared/device/prepare.sh` (the stripped binary, the GL loader packages and
# `commit` into `.device/`, ignored by git), then `cp scripts/device-run.sh .device/`.
# There (the GPU machine, from the project root, carrying `.device`):
#
#   bash .device/device-run.sh BUDGET_S PAPER...     e.g. 500 all;  or 290 lu bicg fem-storage
#
# BUDGET_S: SIGTERM to the run at that many seconds (SIGKILL 20 s later); the interrupted
# paper keeps the tables it finished. Writes `info.txt` (GPU, driver, clocks, `gpgpu-repro
# info`), `run.log`, `smi.csv` and `results.tgz` (`.device/out`) into `$OUT` (default
# `./device-out`). Before a second call, unpack the first call's `results.tgz` into `.device/`
# here, so that `.device/out` travels with it.
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
if [ $# -lt 2 ]; then
  echo "usage: bash .device/device-run.sh BUDGET_S PAPER..." >&2
  exit 2
fi
for f in .device/gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
bin=$PWD/.device/gpgpu-repro
runs=$PWD/.device/out
mkdir -p "$runs"
budget=$1
shift
{
  echo "commit $(cat .device/commit 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  nproc
  "$bin" info
} > "$OUT/info.txt" 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw,temperature.gpu \
  --format=csv -l 2 > "$OUT/smi.csv" 2>&1 &
smi=$!
t0=$(date +%s)
timeout -k 20 "$budget" "$bin" reproduce "$@" --resume --out "$runs" 2>&1 |
  while IFS= read -r line; do printf '%s %s\n' "$(date +%H:%M:%S)" "$line"; done > "$OUT/run.log"
echo "rc=${PIPESTATUS[0]} seconds=$(($(date +%s) - t0))" >> "$OUT/run.log"
kill "$smi" 2>/dev/null
tar czf "$OUT/results.tgz" -C "$PWD/.device" out
tail -12 "$OUT/run.log"
