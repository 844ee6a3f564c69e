#!/usr/bin/env bash
# tally-gateway's cost per request (issue #45), measured beside the same calls made through TallyClient in the same
# run: is the gateway's own CPU per request at most 2× the broker's?
#
# Builds release tally-broker, tally-worker, tally-gateway and tally-load in a scratch path, starts one broker, two
# workers and the gateway (or each of several, --gateway) on loopback, stopped at the end (also on Ctrl-C or
# failure), and drives each method two ways:
#   tally-load  straight to the broker through TallyClient, CONNECTIONS requests in flight (--body: the Protocol
#               example as its envelope, a fresh id for each request);
#   wrk         POST /v1/{method} to the gateway over CONNECTIONS keep-alive connections (Debian's wrk, installed
#               when missing; Benchmarks/gateway/wrk-post.lua sends the example's params as the body).
# Each phase is a short warm-up, then SECONDS of closed loop; it reports requests per second, p50/p90/p99 latency,
# and the CPU per request of the broker, the two workers together and the gateway (user + system time from
# /proc/PID/stat over the phase: every thread, the kernel's TCP work in their context included; the gateway also by
# thread), and of the load client (its own and its children's, as the kernel accounts them). A round takes every
# method with both clients, the clients' order swapped every other round, so that a slow spell of a shared machine
# lands on both; the table gives medians over rounds and the ratios of the same run, gateway ÷ broker first.
# A non-2xx answer, a socket error or a failed tally-load request fails the phase and the script exits non-zero.
#
# Usage: Benchmarks/run-gateway.sh [--rounds N] [--seconds S] [--warm-up S] [--connections N] [--threads N]
#                                  [--example FILE]… [--gateway [LABEL=]PATH]… [--bin DIR] [--scratch-path DIR]
#                                  [--json FILE] [--no-build]
#   --example FILE     a Protocol example whose request is sent (repeat; default system.ping/basic.json and
#                      streak.summary/active-streak.json)
#   --gateway [LABEL=]PATH
#                      the tally-gateway binary to measure (default this build's); twice or more for an A/B: every
#                      one runs beside the others on the same broker, and each round drives each in turn
#   --threads N        wrk's threads (default 2, the machine's cores)
#   --bin DIR          the four programs from DIR instead of building them
#   --scratch-path DIR where the release build goes (default .build-release)
#   --json FILE        where the JSON goes (default SCRATCH/run-gateway.json)
# Environment: GATEWAY_KEEP_WORK=1 keeps the scratch directory (every process's log) and says where it is.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
rounds=3
seconds=5
warm_up=1
connections=100
threads=2
examples=()
gateways=()
bin=""
scratch="$root/.build-release"
json_out=""
build=1
usage() {
    echo "usage: $0 [--rounds N] [--seconds S] [--warm-up S] [--connections N] [--threads N] [--example FILE]…" \
        "[--gateway [LABEL=]PATH]… [--bin DIR] [--scratch-path DIR] [--json FILE] [--no-build]" >&2
    exit 64
}
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --warm-up) warm_up="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --example) examples+=("$2"); shift 2 ;;
        --gateway) gateways+=("$2"); shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        --scratch-path) scratch="$2"; shift 2 ;;
        --json) json_out="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) usage ;;
    esac
done
[ "${#examples[@]}" -gt 0 ] || examples=("$root/Protocol/examples/system.ping/basic.json"
    "$root/Protocol/examples/streak.summary/active-streak.json")
cd "$root"

# Debian's wrk: only this benchmark needs it, so it is installed here rather than by scripts/install-dependencies.
if ! command -v wrk >/dev/null; then
    apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; } \
        || { echo "wrk is missing and could not be installed (Debian's package wrk)" >&2; exit 1; }
fi

if [ -z "$bin" ]; then
    if [ "$build" = 1 ]; then
        for product in tally-broker tally-worker tally-gateway tally-load; do  # one --product per build
            swift build --scratch-path "$scratch" -c release --product "$product" >&2
        done
    fi
    bin="$(swift build --scratch-path "$scratch" -c release --show-bin-path)"
fi
[ "${#gateways[@]}" -gt 0 ] || gateways=("$bin/tally-gateway")
gateway_labels=()
gateway_paths=()
for gateway in "${gateways[@]}"; do
    if [[ "$gateway" == *=* ]]; then
        gateway_labels+=("${gateway%%=*}")
        gateway_paths+=("${gateway#*=}")
    else
        label=gateway
        [ "${#gateways[@]}" = 1 ] || label="gateway $((${#gateway_labels[@]} + 1))"
        gateway_labels+=("$label")
        gateway_paths+=("$gateway")
    fi
done
for program in "$bin/tally-broker" "$bin/tally-worker" "$bin/tally-load" "${gateway_paths[@]}"; do
    [ -x "$program" ] || { echo "$program is missing" >&2; exit 1; }
done
[ -n "$json_out" ] || json_out="$scratch/run-gateway.json"
mkdir -p "$(dirname "$json_out")"

work="$(mktemp -d)"
pids=()
# shellcheck source=Benchmarks/cluster.sh
source "$here/cluster.sh"  # free_port, start_workers, wait_for_service, stop_pids, ticks
trap 'stop_pids; if [ -n "${GATEWAY_KEEP_WORK:-}" ]; then echo "logs: $work" >&2; else rm -rf "$work"; fi' EXIT
trap 'exit 130' INT TERM

# One "TID NAME TICKS" line per live thread of a process, for the gateway's cost by thread (a thread that ends
# within the phase is left out of that split, not of the process's total).
thread_ticks() {
    local task comm stat
    for task in /proc/"$1"/task/*; do
        comm="$(cat "$task/comm" 2>/dev/null)" || continue
        stat="$(cat "$task/stat" 2>/dev/null)" || continue
        stat="${stat##*) }"
        # shellcheck disable=SC2086
        set -- $stat
        echo "${task##*/} ${comm// /_} $((${12} + ${13}))"
    done
}

# The bodies wrk posts and the methods they go to.
methods=()
for index in "${!examples[@]}"; do
    methods+=("$(python3 "$here/gateway/gateway_bench.py" body "${examples[index]}" "$work/body-$index.json")")
done

endpoint="tcp://127.0.0.1:$(free_port)"
export TALLY_PARENT_PID=$$  # if this shell is killed outright, every process it started ends by itself
"$bin/tally-broker" --bind "$endpoint" --log-level warning >/dev/null 2>"$work/broker.log" &
pids+=($!)
broker_pid=$!
start_workers "$endpoint"
worker_pids=("${pids[@]:1:2}")
wait_for_service "$endpoint" 1s
# Every gateway at once, on the same broker: those not driven in a phase only send heartbeats.
gateway_pids=()
gateway_urls=()
for g in "${!gateway_paths[@]}"; do
    "${gateway_paths[g]}" --broker "$endpoint" --listen 127.0.0.1:0 --log-level warning >"$work/gateway$g.out" \
        2>"$work/gateway$g.log" &
    pids+=($!)
    gateway_pids+=($!)
    for _ in $(seq 1 200); do
        grep -q "listening on" "$work/gateway$g.out" 2>/dev/null && break
        kill -0 "${gateway_pids[g]}" 2>/dev/null \
            || { echo "${gateway_paths[g]} ended: $(cat "$work/gateway$g.log")" >&2; exit 1; }
        sleep 0.05
    done
    gateway_urls+=("$(awk '/listening on/ { print $NF; exit }' "$work/gateway$g.out")")
    [ -n "${gateway_urls[g]}" ] || { echo "${gateway_paths[g]} did not say where it listens" >&2; exit 1; }
    for index in "${!methods[@]}"; do
        python3 "$here/gateway/gateway_bench.py" check "${gateway_urls[g]}/v1/${methods[index]}" \
            "$work/body-$index.json" \
            || { echo "${gateway_labels[g]} does not answer ${methods[index]} with 200" >&2; exit 1; }
    done
done

# The load of CLIENT (tally-load, or wrk-G for gateway G) on example INDEX for SECONDS, its report in
# $work/report.json and its CPU seconds in $work/client.cpu; bounded by `timeout` whatever the servers do.
load() {
    local client="$1" index="$2" duration="$3"
    local limit=$((${duration%.*} + 30))
    if [[ "$client" == wrk-* ]]; then
        GATEWAY_BODY="$work/body-$index.json" GATEWAY_REPORT="$work/report.json" \
            python3 "$here/gateway/gateway_bench.py" measure "$work/client.cpu" -- \
            timeout "$limit" wrk --threads "$threads" --connections "$connections" --duration "${duration}s" \
            --timeout 5s --script "$here/gateway/wrk-post.lua" "${gateway_urls[${client#wrk-}]}/v1/${methods[index]}" \
            >"$work/wrk.out"
    else
        python3 "$here/gateway/gateway_bench.py" measure "$work/client.cpu" -- \
            timeout "$limit" "$bin/tally-load" --broker "$endpoint" --body "${examples[index]}" \
            --in-flight "$connections" --duration "${duration}s" --timeout 5s --progress-interval 0 \
            --max-error-rate 0 --json >"$work/report.json"
    fi
}

failed=0
phase() {  # round, example index, client: appends one JSON line to $work/phases.jsonl
    local round="$1" index="$2" client="$3" status=0 load_before pid kind=tally-load label=""
    local gateway_pid="${gateway_pids[0]}"
    if [[ "$client" == wrk-* ]]; then
        kind=wrk
        gateway_pid="${gateway_pids[${client#wrk-}]}"
        label="${gateway_labels[${client#wrk-}]}"
    fi
    local broker_before broker_after workers_before=0 workers_after=0 gateway_before gateway_after
    if awk -v seconds="$warm_up" 'BEGIN { exit !(seconds > 0) }'; then
        load "$client" "$index" "$warm_up" || true
    fi
    rm -f "$work/report.json" "$work/client.cpu"
    load_before="$(cut -d' ' -f1 /proc/loadavg)"
    broker_before="$(ticks "$broker_pid")"
    for pid in "${worker_pids[@]}"; do workers_before=$((workers_before + $(ticks "$pid"))); done
    gateway_before="$(ticks "$gateway_pid")"
    thread_ticks "$gateway_pid" >"$work/threads.before"
    load "$client" "$index" "$seconds" || status=$?
    broker_after="$(ticks "$broker_pid")"
    for pid in "${worker_pids[@]}"; do workers_after=$((workers_after + $(ticks "$pid"))); done
    gateway_after="$(ticks "$gateway_pid")"
    thread_ticks "$gateway_pid" >"$work/threads.after"
    python3 - "$round" "${methods[index]}" "$kind" "$label" "$status" "$((broker_after - broker_before))" \
        "$((workers_after - workers_before))" "$((gateway_after - gateway_before))" "$load_before" \
        "$work/report.json" "$work/client.cpu" "$work/threads.before" "$work/threads.after" \
        >>"$work/phases.jsonl" <<'PYTHON'
import json, re, sys
(round_, method, client, label, status, broker, workers, gateway, load_average, report_path, cpu_path, before_path,
 after_path) = sys.argv[1:]
try:
    report = json.load(open(report_path))
except (OSError, ValueError):
    report = None
try:
    cpu = float(open(cpu_path).read())
except (OSError, ValueError):
    cpu = None
status, why = int(status), None
if client == "wrk" and report:
    errors = {name: count for name, count in report["errors"].items() if count}
    if errors:
        status, why = status or 1, "wrk: " + ", ".join(f"{count} {name}" for name, count in errors.items())
elif client == "tally-load" and status:
    why = f"tally-load exited {status}"
if report is None:
    status, why = status or 1, why or f"{client} wrote no report"
def threads(path):
    found = {}
    for line in open(path):
        tid, name, ticks = line.split()
        found[tid] = (name, int(ticks))
    return found
before, after = threads(before_path), threads(after_path)
by_name = {}
for tid, (name, ticks) in after.items():
    if tid in before:
        # Threads of one kind by one name: NIO-ELT-0-#1 and ZMQbg/IO/0 lose their numbers.
        group = re.sub(r"[-/#]*\d+$", "", re.sub(r"-\d+-#\d+$", "", name)) or name
        by_name[group] = by_name.get(group, 0) + ticks - before[tid][1]
print(json.dumps({"round": int(round_), "method": method, "client": client, "gateway": label or None,
                  "status": status, "why": why,
                  "broker_ticks": int(broker), "workers_ticks": int(workers), "gateway_ticks": int(gateway),
                  "gateway_threads": by_name, "client_cpu_seconds": cpu, "load_average": float(load_average),
                  "report": report}))
PYTHON
    tail -n 1 "$work/phases.jsonl" | python3 "$here/gateway/gateway_bench.py" --phase "$(getconf CLK_TCK)" >&2
    if [ "$(tail -n 1 "$work/phases.jsonl" | python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')" \
        != 0 ]; then
        [[ "$client" == wrk-* ]] && [ -f "$work/wrk.out" ] && cat "$work/wrk.out" >&2
        failed=1
    fi
}

cpu="$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
machine_start="$(uname -m), $(nproc) cores ($cpu), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start,"
machine_start+=" $(date -u +%Y-%m-%dT%H:%MZ)"
: >"$work/phases.jsonl"
clients=(tally-load)
for g in "${!gateway_paths[@]}"; do clients+=("wrk-$g"); done
for round in $(seq 1 "$rounds"); do
    for index in "${!methods[@]}"; do
        # Every other round the other way round: no client always runs first, or right after another.
        order=("${clients[@]}")
        if [ $((round % 2)) = 0 ]; then
            order=()
            for ((c = ${#clients[@]} - 1; c >= 0; c--)); do order+=("${clients[c]}"); done
        fi
        for client in "${order[@]}"; do
            phase "$round" "$index" "$client"
        done
    done
done
machine_end="load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
stop_pids

python3 "$here/gateway/gateway_bench.py" --summary "$(getconf CLK_TCK)" "$work/phases.jsonl" "$json_out" \
    "$machine_start; $machine_end" "$seconds" "$connections"
echo "JSON: $json_out" >&2
exit "$failed"
