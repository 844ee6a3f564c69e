#!/usr/bin/env bash
# Encoding of large results, in MB/s: each request of `codec-loop dump` answered once, then its result encoded again
# and again as a worker encodes it (`codec-loop result`), and in the same run the same response written by Python's
# orjson and json from the dicts they read it into; each the median of five rounds taken in turn. Ratios within the
# run are what to compare: the machines are shared.
#
# Usage: Benchmarks/run-encode.sh [--no-build] [ITERATIONS]
set -euo pipefail
# shellcheck source=Benchmarks/codec-dump.sh
source "$(dirname "${BASH_SOURCE[0]}")/codec-dump.sh"
iterations="${codec_arguments[0]:-2000}"
python3 - "$dump" "$iterations" <<'PYTHON'
import json, os, subprocess, sys, time
sys.path.insert(0, "Benchmarks")
from codec_timing import interleaved_medians, mb_per_second
import orjson

directory, iterations = sys.argv[1], sys.argv[2]

print("| result | bytes | Tally | orjson | json | Tally / orjson |")
print("|---|---:|---:|---:|---:|---:|")
for name in sorted(os.listdir(directory)):
    if not name.endswith(".request"):
        continue
    # history.month-3y.tally.history.request: the request of history.month over 3 years, for tally.history.
    service = "tally." + name.split(".tally.")[1].split(".")[0]
    response = os.path.join(directory, name + ".json")
    command = [".build-bench/release/codec-loop", "result", os.path.join(directory, name), service, iterations,
               response]

    def tally_mb_s():
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        return float(out.split(" MB/s")[0].split(", ")[-1])

    tally_mb_s()  # writes the response for the Python side
    data = open(response, "rb").read()
    value = orjson.loads(data)
    tally, fast, slow = interleaved_medians([
        tally_mb_s, lambda: mb_per_second(orjson.dumps, value, len(data)),
        lambda: mb_per_second(lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False), value, len(data))])
    print(f"| {name.split('.tally.')[0]} | {len(data):,} | {tally:,.0f} MB/s | {fast:,.0f} MB/s | {slow:,.0f} MB/s "
          f"| {tally / fast:.2f}× |")
PYTHON
