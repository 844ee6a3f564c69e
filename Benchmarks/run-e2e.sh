#!/usr/bin/env bash
# End-to-end throughput and latency of a real cluster on loopback, as ratios of a raw libzmq echo measured in the
# same run (tally-load --baseline) and of system.ping, plus the broker's memory under a 100,000-request flood; then a
# NATS queue group and the floor (a logic-free C MDP/0.1 broker, Benchmarks/floor/) in the same run, so that the
# broker's CPU per request is also a multiple of the floor's.
#
# Builds release binaries, starts one tally-broker and two tally-workers on a free 127.0.0.1 port, runs
# tally-load, stops everything (also on Ctrl-C or failure), and writes the results table between
# <!-- bench:start --> and <!-- bench:end --> in Benchmarks/README.md (its "End to end" section).
#
# Usage: Benchmarks/run-e2e.sh [--duration SECONDS] [--no-build] [--no-readme]
#   --no-readme: print the table only, leave Benchmarks/README.md as it is.
# Environment: TALLY_E2E_DURATION (seconds per run, default 8).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${TALLY_E2E_DURATION:-8}"
build=1
write_readme=1
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) duration="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --no-readme) write_readme=0; shift ;;
        *) echo "usage: $0 [--duration SECONDS] [--no-build] [--no-readme]" >&2; exit 64 ;;
    esac
done

cd "$root"
if [ "$build" = 1 ]; then
    for product in tally-broker tally-worker tally-load; do  # one --product per build: the last one wins
        swift build -c release --product "$product" >&2
    done
fi
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d)"
pids=()

stop_all() {
    # Workers first (they drain and disconnect), then the broker; each by its own pid.
    for pid in "${pids[@]:1}" "${pids[@]:0:1}"; do
        [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    pids=()
}
trap 'stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# A free TCP port on loopback (the kernel picks it; closed again before the broker binds it).
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
endpoint="tcp://127.0.0.1:$port"

# If this script is killed outright, the cluster notices and stops by itself.
export TALLY_PARENT_PID=$$

# A queue large enough for the flood: the point is to measure memory, not to be told "overloaded".
"$bin/tally-broker" --bind "$endpoint" --max-queue 200000 --queue-timeout 120s --log-level warning \
    2>"$work/broker.log" &
pids+=($!)
broker_pid=$!
# Each worker serves /metrics, for the time its requests spent in the dispatcher (see dispatch_seconds).
# shellcheck source=Benchmarks/cluster.sh
source "$root/Benchmarks/cluster.sh"
metrics_endpoints=()
for worker in 1 2; do
    metrics="127.0.0.1:$(free_port)"
    metrics_endpoints+=("$metrics")
    "$bin/tally-worker" --broker "$endpoint" --http "$metrics" --log-level warning 2>"$work/worker$worker.log" &
    pids+=($!)
done

# Ready when a ping succeeds (an error answer, such as no worker yet, fails the threshold and exits non-zero).
for _ in $(seq 1 100); do
    if "$bin/tally-load" --broker "$endpoint" --mix system.ping --requests 1 --in-flight 1 --timeout 1s --json \
        --max-error-rate 0 >/dev/null 2>&1; then
        break
    fi
    sleep 0.2
done

rss_kib() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }

# CPU time (clock ticks, user + system) and context switches (all threads, voluntary + not) of the broker and of
# the two workers together: where a request's cost lands, per role. The raw echo runs inside tally-load, so the
# cluster is idle (heartbeats only) while it is measured.
role_usage() {  # prints "broker_ticks broker_switches worker_ticks worker_switches"
    local usage=()
    for pid in "${pids[@]}"; do
        local ticks switches
        ticks="$(awk '{ print $14 + $15 }' "/proc/$pid/stat")"
        switches="$(cat /proc/"$pid"/task/*/status | awk '/ctxt_switches/ { total += $2 } END { print total }')"
        usage+=("$ticks" "$switches")
    done
    echo "${usage[0]} ${usage[1]} $((usage[2] + usage[4])) $((usage[3] + usage[5]))"
}

# Seconds the workers' dispatchers spent on requests (decode, compute, encode: the in-process time of each request)
# and how many requests that was, both workers together: by the wall clock for every request
# (tally_worker_request_duration_seconds), and in the thread's CPU time for the one request in 16 measured so
# (tally_worker_request_cpu_seconds).
dispatch_seconds() {  # prints "wall-seconds requests cpu-seconds sampled-requests"
    python3 - "${metrics_endpoints[@]}" <<'PY'
import sys, urllib.request
sums = {"tally_worker_request_duration_seconds": [0.0, 0.0], "tally_worker_request_cpu_seconds": [0.0, 0.0]}
for endpoint in sys.argv[1:]:
    for line in urllib.request.urlopen(f"http://{endpoint}/metrics", timeout=5).read().decode().splitlines():
        for name, totals in sums.items():
            if line.startswith(name + "_sum"):
                totals[0] += float(line.rsplit(" ", 1)[1])
            elif line.startswith(name + "_count"):
                totals[1] += float(line.rsplit(" ", 1)[1])
wall, cpu = sums.values()
print(f"{wall[0]:.9f} {wall[1]:.0f} {cpu[0]:.9f} {cpu[1]:.0f}")
PY
}

run() {  # name, then tally-load arguments; saves the JSON report as $work/NAME.json, role usage as NAME.usage and
    # the workers' dispatch time as NAME.dispatch
    local name="$1"
    shift
    echo "run $name: tally-load $*" >&2
    local before after dispatch_before dispatch_after
    before="$(role_usage)"
    dispatch_before="$(dispatch_seconds)"
    "$bin/tally-load" --broker "$endpoint" --json "$@" >"$work/$name.json"
    after="$(role_usage)"
    dispatch_after="$(dispatch_seconds)"
    echo "$(getconf CLK_TCK) $before $after" >"$work/$name.usage"
    echo "$dispatch_before $dispatch_after" >"$work/$name.dispatch"
}

run ping-1 --mix system.ping --in-flight 1 --duration "${duration}s" --baseline
run ping-100 --mix system.ping --in-flight 100 --duration "${duration}s" --baseline
run streak-1y-1 --mix "streak.summary@1y" --in-flight 1 --duration "${duration}s" --baseline
run streak-1y-100 --mix "streak.summary@1y" --in-flight 100 --duration "${duration}s" --baseline

rss_before="$(rss_kib "$broker_pid" VmRSS)"
run flood --mix system.ping --in-flight 100000 --requests 100000 --timeout 120s
rss_peak="$(rss_kib "$broker_pid" VmHWM)"
rss_after="$(rss_kib "$broker_pid" VmRSS)"
echo "broker RSS KiB: before $rss_before, peak $rss_peak, after $rss_after" >&2

stop_all

# What a backend team would run instead of Tally's broker, measured the same way on the same machine in the same run:
# nats-server with two echo workers in a queue group, driven closed-loop (Benchmarks/nats/nats_bench.c). Installed
# when missing (Debian's nats-server and libnats-dev); skipped, and left out of the table, where they cannot be.
if ! command -v nats-server >/dev/null || [ ! -f /usr/include/nats/nats.h ]; then
    apt-get install -y nats-server libnats-dev >/dev/null 2>&1 || true
fi
if command -v nats-server >/dev/null && [ -f /usr/include/nats/nats.h ]; then
    mkdir -p "$root/.build-nats"
    cc -O2 -o "$root/.build-nats/nats-bench" "$root/Benchmarks/nats/nats_bench.c" -lnats
    nats_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    nats_url="nats://127.0.0.1:$nats_port"
    nats-server -a 127.0.0.1 -p "$nats_port" 2>"$work/nats-server.log" &
    pids+=($!)
    sleep 0.5
    for worker in 1 2; do
        "$root/.build-nats/nats-bench" worker "$nats_url" tally.echo workers >/dev/null 2>"$work/nats-worker$worker.log" &
        pids+=($!)
    done
    sleep 0.5
    # The body size of system.ping as tally-load sends it, so that both carry the same bytes.
    body_bytes="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["body_bytes"])' "$work/ping-1.json")"
    for in_flight in 1 100; do
        echo "run nats-$in_flight: nats-bench load, $in_flight in flight" >&2
        "$root/.build-nats/nats-bench" load "$nats_url" tally.echo "$in_flight" "$duration" "$body_bytes" \
            >"$work/nats-$in_flight.nats"
    done
    stop_all
fi

# The floor (Benchmarks/floor/, as Benchmarks/run-floor.sh runs it): an MDP/0.1 broker in C with no logic at all and
# two C echo workers, driven closed-loop by floor-client with pings of the same body size. The broker's CPU per request
# in the tables is then also a multiple of the floor's, measured in the same run: what libzmq alone costs for the same
# frames on the same machine that minute.
mkdir -p "$root/.build-floor"
for program in broker worker client; do
    cc -O2 -Wall -o "$root/.build-floor/floor-$program" "$root/Benchmarks/floor/floor_$program.c" -lzmq
done
floor_endpoint="tcp://127.0.0.1:$(free_port)"
"$root/.build-floor/floor-broker" "$floor_endpoint" >/dev/null 2>"$work/floor-broker.log" &
pids+=($!)
for worker in 1 2; do
    "$root/.build-floor/floor-worker" "$floor_endpoint" tally.history 2>>"$work/floor-worker.log" &
    pids+=($!)
done
for _ in $(seq 1 100); do
    [ "$(grep -c 'worker ready' "$work/floor-broker.log")" -ge 2 ] && break
    sleep 0.1
done
# The ping's body size as tally-load sends it; floor-client's shortest body is a ping with a 12-character id too.
floor_body_bytes="$(python3 -c 'import json,sys; print(max(68, json.load(open(sys.argv[1]))["body_bytes"]))' \
    "$work/ping-1.json")"
for in_flight in 1 100; do
    echo "run floor-$in_flight: floor-client, $in_flight in flight" >&2
    before="$(role_usage)"
    "$root/.build-floor/floor-client" "$floor_endpoint" --in-flight "$in_flight" --seconds "$duration" \
        --body-bytes "$floor_body_bytes" >"$work/floor-$in_flight.floor"
    after="$(role_usage)"
    echo "$(getconf CLK_TCK) $before $after" >"$work/floor-$in_flight.usage"
done
stop_all

cpu="$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
machine="$(uname -m), $(nproc) cores ($cpu), load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
python3 "$root/Benchmarks/e2e_table.py" "$work" "$machine" "$rss_before" "$rss_peak" "$rss_after" >"$work/table.md"
cat "$work/table.md"

if [ "$write_readme" = 1 ]; then
    python3 - "$root/Benchmarks/README.md" "$work/table.md" <<'PY'
import sys
readme, table = sys.argv[1], open(sys.argv[2]).read()
text = open(readme).read()
start, end = "<!-- bench:start -->", "<!-- bench:end -->"
if start not in text or end not in text.split(start, 1)[1]:
    sys.exit(f"{readme}: no {start} … {end} markers to write the table between")
before, rest = text.split(start, 1)
_, after = rest.split(end, 1)
open(readme, "w").write(before + start + "\n" + table + end + after)
PY
    echo "Benchmarks/README.md updated" >&2
fi
