#!/usr/bin/env python3
"""Spread of the device's roofs over several `bench` runs (issue 23's "three consecutive
benches, every roof within ±10 % of their median").

    scripts/roof_spread.py A/device.json B/device.json C/device.json

Prints each measurement's value per run, and marks those with a run more than 10 % from the
median of the runs; ends with the count. Exit status 1 when any roof is outside.
"""
import json
import statistics
import sys


def rows(path):
    return {m["key"]: m.get("value") for m in json.load(open(path))["measurements"]}


def main(paths):
    if len(paths) < 2:
        sys.exit("usage: roof_spread.py DEVICE_JSON DEVICE_JSON [...]")
    runs = [rows(p) for p in paths]
    out = total = 0
    for key in runs[0]:
        values = [r.get(key) for r in runs]
        if not all(values):
            continue
        med = statistics.median(values)
        bad = any(abs(v / med - 1) > 0.10 for v in values)
        out += bad
        total += 1
        cells = " ".join(f"{v:10.3f}" for v in values)
        print(f"{key:42s}{cells}{'  outside ±10 %' if bad else ''}")
    print(f"{out} of {total} roofs have a run outside ±10 % of their median")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
