#!/usr/bin/env bash
# The broker's CPU per request by body size: what forwarding a request and its reply costs the broker process
# (user + system time from /proc, all its threads: its loop, libzmq's I/O thread, the kernel's TCP work) for
# bodies of ~100 B (system.ping), 10 KB, 30 KB and 100 KB (streak.summary with as many daily records), one broker
# and two workers on loopback, a closed loop of 50 in flight. The replies are small; the request is what grows.
#
# Each size runs ROUNDS times, the brokers given with --broker taking turns within a round (A/B pairs on a shared
# machine), each round on a fresh cluster: the table gives the median per broker and size, and the ratio of each
# size to the same broker's ~100 B figure.
#
# Usage: Benchmarks/run-broker-bytes.sh [--requests N] [--rounds N] [--broker PATH]...
#        (default: one broker, this package's release build; workers and tally-load are always this build's)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
requests=20000
rounds=3
brokers=()
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) requests="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --broker) brokers+=("$2"); shift 2 ;;
        *) echo "usage: $0 [--requests N] [--rounds N] [--broker PATH]..." >&2; exit 64 ;;
    esac
done
cd "$root"
bin="$(swift build -c release --show-bin-path)"
for product in tally-broker tally-worker tally-load; do
    [ -x "$bin/$product" ] || swift build -c release --product "$product" >&2
done
[ ${#brokers[@]} -gt 0 ] || brokers=("$bin/tally-broker")
work="$(mktemp -d)"
pids=()
stop_all() {
    for pid in "${pids[@]:1}" "${pids[@]:0:1}"; do [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
export TALLY_PARENT_PID=$$

# Request bodies: a ping, and streak.summary requests of about 10, 30 and 100 KB (~95 bytes per daily record).
python3 - "$work" <<'PYTHON'
import datetime, json, sys
directory = sys.argv[1]
def write(name, body):
    with open(f"{directory}/{name}.json", "w") as file:
        json.dump(body, file, separators=(",", ":"))
write("100B", {"version": 1, "id": "bytes-1", "method": "system.ping", "params": {}})
for name, target in (("10KB", 10_000), ("30KB", 30_000), ("100KB", 100_000)):
    today = datetime.date(2026, 11, 23)
    records, size, day = [], 200, 0
    while size < target:
        record = {"date": (today - datetime.timedelta(days=day + 1)).isoformat(), "steps": 8000 + day % 977,
                  "distance_m": 6100 + day % 13, "calories_kcal": 310, "flights_climbed": day % 9}
        records.append(record)
        size += len(json.dumps(record, separators=(",", ":"))) + 1
        day += 1
    write(name, {"version": 1, "id": "bytes-1", "method": "streak.summary", "params": {
        "time_zone": "Europe/Berlin", "today": today.isoformat(), "week_starts_on": "monday",
        "goal_tracking_enabled": True, "goal_log": [{"goal": 8000, "effective_date": "2000-01-01"}], "records": records[::-1]}})
PYTHON

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hertz="$(getconf CLK_TCK)"

measure() {  # broker binary, body name: writes the broker's CPU µs per request to $work/last
    # (not a command substitution: the cluster must be this shell's children, for TALLY_PARENT_PID)
    local broker="$1" body="$2" endpoint
    endpoint="tcp://127.0.0.1:$(free_port)"
    "$broker" --bind "$endpoint" --log-level warning 2>>"$work/broker.log" &
    pids+=($!)
    for _ in 1 2; do
        "$bin/tally-worker" --broker "$endpoint" --log-level warning 2>>"$work/worker.log" &
        pids+=($!)
    done
    for _ in $(seq 1 100); do
        "$bin/tally-load" --broker "$endpoint" --mix system.ping --requests 1 --in-flight 1 --timeout 1s --json \
            --max-error-rate 0 >/dev/null 2>&1 && break
        sleep 0.2
    done
    # A warm-up, then the measured run.
    "$bin/tally-load" --broker "$endpoint" --body "$work/$body.json" --requests 2000 --in-flight 50 --json \
        --max-error-rate 0 >/dev/null
    local before after
    before="$(ticks "${pids[0]}")"
    "$bin/tally-load" --broker "$endpoint" --body "$work/$body.json" --requests "$requests" --in-flight 50 --json \
        --max-error-rate 0 >/dev/null
    after="$(ticks "${pids[0]}")"
    stop_all
    python3 -c "print(f'{($after - $before) / $hertz / $requests * 1e6:.1f}')" >"$work/last"
}

results="$work/results"
for round in $(seq 1 "$rounds"); do
    for body in 100B 10KB 30KB 100KB; do
        for index in "${!brokers[@]}"; do
            measure "${brokers[$index]}" "$body"
            micros="$(cat "$work/last")"
            echo "round $round, broker $index, $body: $micros µs" >&2
            echo "$index $body $micros" >>"$results"
        done
    done
done

python3 - "$results" "${brokers[@]}" <<'PYTHON'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
brokers = sys.argv[2:]
sizes = ["100B", "10KB", "30KB", "100KB"]
median = {(int(b), s): statistics.median(float(m) for i, z, m in rows if int(i) == int(b) and z == s)
          for b in range(len(brokers)) for s in sizes}
print("| broker | " + " | ".join(f"{s} µs (÷ 100 B)" for s in sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for b, path in enumerate(brokers):
    cells = [f"{median[(b, s)]:.1f} ({median[(b, s)] / median[(b, '100B')]:.2f}×)" for s in sizes]
    print(f"| `{path}` | " + " | ".join(cells) + " |")
if len(brokers) > 1:
    for b in range(1, len(brokers)):
        print(f"\nbroker {b} ÷ broker 0: " + ", ".join(f"{s} {median[(b, s)] / median[(0, s)]:.2f}" for s in sizes))
PYTHON
