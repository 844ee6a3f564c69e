#!/usr/bin/env bash
# The broker's CPU per request by body size: what forwarding a request and its reply costs the broker process
# (time on CPU of all its threads from /proc: its loop, libzmq's I/O thread, the kernel's TCP work in their context) for
# bodies of ~100 B (system.ping), 10 KB, 30 KB and 100 KB (streak.summary with as many daily records), one broker
# and two workers on loopback, a closed loop of 50 in flight. The replies are small; the request is what grows.
#
# The broker process's CPU is also split by thread: its loop (`mdp-broker`, the state machine, one thread whatever the
# host) and the busiest of libzmq's I/O threads (`ZMQbg/IO/K`, the TCP work, --transport-threads of them). The busier
# of the two is the broker's ceiling: one broker forwards at most 1 s ÷ its µs per request, however many cores its
# host has (Benchmarks/README.md, "More cores than one broker feeds"). A --broker may be a script that runs tally-broker with
# options of its own (`exec tally-broker --transport-threads 2 "$@"`). libzmq gives each connection to one I/O thread:
# --connections N spreads the load client over N connections (default 1), as many clients would.
#
# Each size runs ROUNDS times, the brokers given with --broker taking turns within a round (A/B pairs on a shared
# machine), each round on a fresh cluster: the table gives the median per broker and size, and the ratio of each
# size to the same broker's ~100 B figure. Beside them, in the same rounds, a NATS server (Debian's nats-server) with
# two C workers in a queue group (Benchmarks/nats/nats_bench.c, tuned as its users tune it) carrying the same
# request sizes and answering with as many bytes as Tally's answer to that request: its server's CPU per request,
# measured the same way. The NATS phase is skipped where nats-server and libnats-dev cannot be installed.
#
# Usage: Benchmarks/run-broker-bytes.sh [--requests N] [--rounds N] [--connections N] [--broker PATH]...
#        (default: one broker, this package's release build; workers and tally-load are always this build's)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
requests=20000
connections=1
rounds=3
brokers=()
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) requests="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --broker) brokers+=("$2"); shift 2 ;;
        *) echo "usage: $0 [--requests N] [--rounds N] [--connections N] [--broker PATH]..." >&2; exit 64 ;;
    esac
done
cd "$root"
bin="$(swift build -c release --show-bin-path)"
for product in tally-broker tally-worker tally-load; do
    [ -x "$bin/$product" ] || swift build -c release --product "$product" >&2
done
[ ${#brokers[@]} -gt 0 ] || brokers=("$bin/tally-broker")
if ! command -v nats-server >/dev/null || [ ! -f /usr/include/nats/nats.h ]; then
    apt-get install -y nats-server libnats-dev >/dev/null 2>&1 || true
fi
nats=0
if command -v nats-server >/dev/null && [ -f /usr/include/nats/nats.h ]; then
    mkdir -p "$root/.build-nats"
    cc -O2 -o "$root/.build-nats/nats-bench" "$root/Benchmarks/nats/nats_bench.c" -lnats
    nats=1
fi
python3 -c 'import zmq' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check pyzmq >&2
work="$(mktemp -d)"
# shellcheck source=Benchmarks/cluster.sh
source "$here/cluster.sh"
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

# CPU time of the process in nanoseconds: user + system from /proc/PID/stat, which counts every thread the process
# ever had (the per-thread schedstat files lose a thread's time when it exits, and nats-server's runtime starts and
# ends threads); it is reported in clock ticks, so every run is long enough to be a hundred ticks or more.
hertz="$(getconf CLK_TCK)"
cpu_ns() { awk -v hertz="$hertz" '{ printf "%.0f", ($14 + $15) * 1e9 / hertz }' "/proc/$1/stat"; }
# CPU time of each thread of the broker process $1 as "name tid nanoseconds" lines (its loop and libzmq's threads live
# as long as the process does).
thread_cpu() {
    local task
    for task in /proc/"$1"/task/*; do
        echo "$(cat "$task/comm" 2>/dev/null) ${task##*/} $(cpu_ns "${task#/proc/}")"
    done
}
# Requests per run, by body size: small bodies cost the broker least, so they run longer.
requests_for() { case "$1" in 100B) echo $((requests * 8)) ;; 10KB) echo $((requests * 3)) ;; *) echo "$requests" ;; esac; }

measure() {  # broker binary, body name: writes the broker's CPU µs per request (process, loop thread, libzmq I/O
    # thread) to $work/last
    # (not a command substitution: the cluster must be this shell's children, for TALLY_PARENT_PID)
    local broker="$1" body="$2" endpoint
    endpoint="tcp://127.0.0.1:$(free_port)"
    "$broker" --bind "$endpoint" --log-level warning 2>>"$work/broker.log" &
    pids+=($!)
    start_workers "$endpoint"
    wait_for_service "$endpoint" 1s
    # A warm-up, then the measured run.
    "$bin/tally-load" --broker "$endpoint" --body "$work/$body.json" --requests 2000 --in-flight 50 --json \
        --max-error-rate 0 >/dev/null
    # The size of Tally's answer to this request, for the NATS workers to answer with as many bytes.
    python3 - "$endpoint" "$work/$body.json" >"$work/$body.reply" <<'PYTHON'
import sys, zmq
socket = zmq.Context.instance().socket(zmq.DEALER)
socket.setsockopt(zmq.RCVTIMEO, 10000)
socket.setsockopt(zmq.LINGER, 0)
socket.connect(sys.argv[1])
service = b"tally.history" if b'"system.ping"' in open(sys.argv[2], "rb").read() else b"tally.streak"
socket.send_multipart([b"", b"MDPC01", service, open(sys.argv[2], "rb").read()])
print(len(socket.recv_multipart()[-1]))
PYTHON
    local before after count
    count="$(requests_for "$body")"
    before="$(cpu_ns "${pids[0]}")"
    thread_cpu "${pids[0]}" >"$work/threads-before"
    "$bin/tally-load" --broker "$endpoint" --body "$work/$body.json" --requests "$count" --in-flight 50 --json \
        --connections "$connections" \
        --max-error-rate 0 >/dev/null
    after="$(cpu_ns "${pids[0]}")"
    thread_cpu "${pids[0]}" >"$work/threads-after"
    stop_all
    # The process, its loop, and the busiest of libzmq's I/O threads (`ZMQbg/IO/K`, --transport-threads of them).
    python3 - "$work" "$count" "$before" "$after" >"$work/last" <<'PYTHON'
import sys
work, count, before, after = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def threads(name):
    return {tid: (comm, int(ns)) for comm, tid, ns in (line.split() for line in open(f"{work}/{name}"))}
was, now = threads("threads-before"), threads("threads-after")
spent = {tid: (comm, ns - was[tid][1]) for tid, (comm, ns) in now.items() if tid in was}
loop = sum(ns for comm, ns in spent.values() if comm == "mdp-broker")
io = max([ns for comm, ns in spent.values() if comm.startswith("ZMQbg/IO/")] or [0])
print(" ".join(f"{ns / count / 1e3:.1f}" for ns in (after - before, loop, io)))
PYTHON
}

measure_nats() {  # body name: writes nats-server's CPU µs per request to $work/last
    local body="$1" url bytes reply
    url="nats://127.0.0.1:$(free_port)"
    bytes="$(stat -c %s "$work/$body.json")"
    reply="$(cat "$work/$body.reply")"
    nats-server -a 127.0.0.1 -p "${url##*:}" 2>>"$work/nats-server.log" &
    pids+=($!)
    for _ in 1 2; do
        "$root/.build-nats/nats-bench" worker "$url" tally.echo workers "$reply" >/dev/null 2>>"$work/nats.log" &
        pids+=($!)
    done
    sleep 1
    "$root/.build-nats/nats-bench" load "$url" tally.echo 50 1 "$bytes" >/dev/null
    local before after
    before="$(cpu_ns "${pids[0]}")"
    "$root/.build-nats/nats-bench" load "$url" tally.echo 50 "$nats_seconds" "$bytes" >"$work/nats.json"
    after="$(cpu_ns "${pids[0]}")"
    stop_all
    python3 -c "import json; n = json.load(open('$work/nats.json'))['requests']; print(f'{($after - $before) / n / 1e3:.1f} - -')" >"$work/last"
}
# Long enough for a hundred ticks of nats-server's CPU at ~100 B, where it spends ~2 µs per request.
nats_seconds=8

results="$work/results"
for round in $(seq 1 "$rounds"); do
    for body in 100B 10KB 30KB 100KB; do
        for index in "${!brokers[@]}"; do
            measure "${brokers[$index]}" "$body"
            micros="$(cat "$work/last")"
            echo "round $round, broker $index, $body: $micros µs" >&2
            echo "$index $body $micros" >>"$results"
        done
        if [ "$nats" = 1 ]; then
            measure_nats "$body"
            micros="$(cat "$work/last")"
            echo "round $round, NATS, $body: $micros µs" >&2
            echo "nats $body $micros" >>"$results"
        fi
    done
done

python3 - "$results" "${brokers[@]}" <<'PYTHON'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
threads = {(row[0], row[1]): [] for row in rows}
for index, size, _, loop, io in rows:
    if loop != "-":
        threads[(index, size)].append((float(loop), float(io)))
rows = [row[:3] for row in rows]
names = [f"`{path}`" for path in sys.argv[2:]]
keys = [str(index) for index in range(len(names))]
if any(row[0] == "nats" for row in rows):
    names.append("NATS server (queue group of 2)")
    keys.append("nats")
sizes = ["100B", "10KB", "30KB", "100KB"]
median = {(k, s): statistics.median(float(m) for i, z, m in rows if i == k and z == s) for k in keys for s in sizes}
print("| server CPU µs / request | " + " | ".join(f"{s} (÷ its 100 B)" for s in sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for key, name in zip(keys, names):
    cells = [f"{median[(key, s)]:.1f} ({median[(key, s)] / median[(key, '100B')]:.2f}×)" for s in sizes]
    print(f"| {name} | " + " | ".join(cells) + " |")
for key, name in list(zip(keys, names))[1:]:
    print(f"\n{name} ÷ {names[0]}: " + ", ".join(f"{s} {median[(key, s)] / median[(keys[0], s)]:.2f}" for s in sizes))
print("\nBy thread (medians): the broker's loop and its busiest libzmq I/O thread, µs per request, and the ceiling of one broker,"
      " 1 s ÷ the busier thread's µs, with a core for each of its threads:\n")
print("| broker | " + " | ".join(sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for key, name in zip(keys, names):
    if key == "nats":
        continue
    cells = []
    for size in sizes:
        loop = statistics.median(pair[0] for pair in threads[(key, size)])
        io = statistics.median(pair[1] for pair in threads[(key, size)])
        cells.append(f"loop {loop:.1f}, I/O {io:.1f} → {1e6 / max(loop, io, 0.1) / 1e3:,.0f}k req/s")
    print(f"| {name} | " + " | ".join(cells) + " |")
PYTHON
