#!/usr/bin/env bash
# Typed decode of request params, in MB/s, on the three real shapes (daily records with a goal log; a day's hourly
# samples beside three years of records; two years of workouts with exercises and sets) as Tally's encoder writes
# them: the standard decoder (tape, then typed values), the direct read (JSONCursor, one pass), and, in the same
# run on the same bytes, Python's orjson and json building dicts; each the median of five rounds taken in turn.
# Ratios within the run are what to compare: the machines are shared.
#
# Usage: Benchmarks/run-decode.sh [--no-build] [ITERATIONS]
set -euo pipefail
# shellcheck source=Benchmarks/codec-dump.sh
source "$(dirname "${BASH_SOURCE[0]}")/codec-dump.sh"
iterations="${codec_arguments[0]:-300}"
python3 - "$dump" "$iterations" <<'PYTHON'
import json, os, subprocess, sys, time
sys.path.insert(0, "Benchmarks")
from codec_timing import interleaved_medians, mb_per_second
import orjson

directory, iterations = sys.argv[1], int(sys.argv[2])

def swift_mb_s(step, name):
    out = subprocess.run([".build-bench/release/codec-loop", step, name, str(iterations)], capture_output=True,
                         text=True, check=True).stdout
    return float(out.split(" MB/s")[0].split(", ")[-1])

print("| shape | bytes | standard | direct | orjson | json | direct / standard | direct / orjson |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name in ["streak-1y", "streak-10y", "dashboard-daily-3y", "workout-day-2y"]:
    data = open(os.path.join(directory, name + ".json"), "rb").read()
    standard, direct, fast, slow = interleaved_medians([
        lambda: swift_mb_s("shape", name), lambda: swift_mb_s("direct", name),
        lambda: mb_per_second(orjson.loads, data, len(data)), lambda: mb_per_second(json.loads, data, len(data))])
    print(f"| {name} | {len(data):,} | {standard:,.0f} MB/s | {direct:,.0f} MB/s | {fast:,.0f} MB/s | "
          f"{slow:,.0f} MB/s | {direct / standard:.1f}× | {direct / fast:.1f}× |")
PYTHON
