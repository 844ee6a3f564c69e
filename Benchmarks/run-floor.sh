#!/usr/bin/env bash
# The floor: what libzmq alone costs for MDP/0.1's frames, measured beside Tally and a tuned NATS queue group in the
# same run, so that Tally's broker is judged as a multiple of it (issue #44) rather than by figures of another day.
#
# Three systems take turns, each phase on processes started for it and stopped after it, on loopback, 2 workers each:
#   floor  floor-broker (Benchmarks/floor/floor_broker.c: one ROUTER, no logic at all) and 2 floor-workers (echo),
#          driven by floor-client;
#   nats   nats-server and a queue group of 2 C echo workers (Benchmarks/nats/nats_bench.c, tuned as there), driven
#          by nats-bench's own closed-loop load with bodies of the same size;
#   tally  tally-broker and 2 tally-workers (their defaults, and --http as deployed: metrics and the console's
#          recording; the workers sized as docs/deploying.md says for workers sharing a host, cores ÷ 2 I/O threads
#          each), system.ping, driven by the same floor-client as the floor.
# and on request, with CURVE on for every connection (keys made for the run by floor-keys):
#   floor-curve  the floor, its broker a CURVE server and its workers and client CURVE clients (floor_curve.h)
#   tally-curve  Tally with --curve-secret-key and its lists of worker and client keys (its ZAP handler admitting
#                them), its workers and floor-client with theirs
# Each round runs every in-flight count through floor, NATS and Tally in turn (floor, NATS, Tally, floor, …), so
# that a slow spell of a shared machine lands on all three. Every phase is a short warm-up, then SECONDS of closed
# loop; it reports requests per second, p50/p99 latency and the CPU per request of the broker process (nats-server
# for NATS), of the two workers together and of the load client, user + system time from /proc/PID/stat over the
# phase (every thread the process had, the kernel's TCP work in its context included); a libzmq broker's CPU also by
# thread, its loop and libzmq's I/O thread. Then the medians over rounds and the ratios to the floor of the same run:
# a table on stdout, everything in a JSON file.
#
# floor-client checks every reply against the request it answers: a request unanswered, a reply that answers no
# request in flight, or an error answer fails the phase, and the script exits non-zero.
#
# Usage: Benchmarks/run-floor.sh [--rounds N] [--seconds S] [--warm-up S] [--in-flight LIST] [--systems LIST]
#                                [--body-bytes B] [--bin DIR | --tally LABEL=DIR…] [--json FILE] [--build-dir DIR]
#                                [--no-build]
#   --in-flight 1,100     in-flight counts (comma-separated; default 1,100)
#   --systems floor,nats,tally
#                         which systems to run, in this order within a round (default these three; NATS is left
#                         out, with a warning, where nats-server and libnats-dev cannot be installed); floor-poll is
#                         the floor's broker waiting in zmq_poll and reading without blocking, as a loop that
#                         serves more than one socket must (floor-broker --poll); floor-curve and tally-curve are
#                         the floor and Tally with CURVE (--systems floor,nats,tally,floor-curve,tally-curve gives
#                         both beside CURVE off; --tally variants run without CURVE)
#   --bin DIR             tally-broker and tally-worker from DIR (default this package's release build)
#   --tally LABEL=DIR     instead of --bin, repeatable: Tally built at DIR as system tally:LABEL, each in the place of
#                         `tally` in every round, so that a change is measured before and after in the same run
#                         (--tally before=/tmp/old/.build/release --tally after=.build/release); the table adds each
#                         one's ratios to the floor and to the first
#   --json FILE           where the JSON goes (default .build-floor/run-floor.json)
#   --build-dir DIR       where the C programs are built (default .build-floor)
#   --no-build            do not build Tally's release binaries when they are missing
# Environment: FLOOR_KEEP_WORK=1 keeps the scratch directory (every process's log) and says where it is.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
rounds=3
seconds=5
warm_up=1
in_flight_list=1,100
systems=floor,nats,tally
body_bytes=100
bin=""
tally_variants=()
declare -A tally_bins=()
floor="$root/.build-floor"
json_out=""
build=1
usage() {
    echo "usage: $0 [--rounds N] [--seconds S] [--warm-up S] [--in-flight LIST] [--systems LIST] [--body-bytes B]" \
        "[--bin DIR | --tally LABEL=DIR…] [--json FILE] [--build-dir DIR] [--no-build]" >&2
    exit 64
}
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --warm-up) warm_up="$2"; shift 2 ;;
        --in-flight) in_flight_list="$2"; shift 2 ;;
        --systems) systems="$2"; shift 2 ;;
        --body-bytes) body_bytes="$2"; shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        --tally)
            [[ "$2" == ?*=?* && "${2%%=*}" =~ ^[A-Za-z0-9_.-]+$ ]] || usage
            tally_variants+=("${2%%=*}")
            tally_bins["${2%%=*}"]="${2#*=}"
            shift 2
            ;;
        --json) json_out="$2"; shift 2 ;;
        --build-dir) floor="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) usage ;;
    esac
done
IFS=, read -r -a in_flights <<<"$in_flight_list"
IFS=, read -r -a wanted <<<"$systems"
cd "$root"

# The floor's programs, rebuilt every run (a second each) so that an edit is never measured stale.
[ -n "$json_out" ] || json_out="$floor/run-floor.json"
mkdir -p "$floor" "$(dirname "$json_out")"
# Any C compiler will do: Swift's toolchain brings clang where no `cc` is installed.
compiler="${CC:-$(command -v cc || command -v clang || echo cc)}"
for program in broker worker client keys; do
    "$compiler" -O2 -Wall -o "$floor/floor-$program" "$here/floor/floor_$program.c" -lzmq
done

run_systems=()
for system in "${wanted[@]}"; do
    case "$system" in
        floor | floor-poll | floor-curve) run_systems+=("$system") ;;
        tally | tally-curve)
            if [ ${#tally_variants[@]} -gt 0 ] && [ "$system" = tally ]; then
                for label in "${tally_variants[@]}"; do
                    for product in tally-broker tally-worker; do
                        [ -x "${tally_bins[$label]}/$product" ] \
                            || { echo "--tally $label: ${tally_bins[$label]}/$product is missing" >&2; exit 1; }
                    done
                    run_systems+=("tally:$label")
                done
                continue
            fi
            if [ -z "$bin" ]; then
                bin="$(swift build -c release --show-bin-path)"
                for product in tally-broker tally-worker; do  # one --product per build: the last one wins
                    if [ ! -x "$bin/$product" ]; then
                        [ "$build" = 1 ] || { echo "$bin/$product is missing (and --no-build)" >&2; exit 1; }
                        swift build -c release --product "$product" >&2
                    fi
                done
            fi
            run_systems+=("$system")
            ;;
        nats)
            # Debian's packages, as the other NATS phases install them.
            if ! command -v nats-server >/dev/null || [ ! -f /usr/include/nats/nats.h ]; then
                apt-get install -y nats-server libnats-dev >/dev/null 2>&1 || true
            fi
            if command -v nats-server >/dev/null && [ -f /usr/include/nats/nats.h ]; then
                "$compiler" -O2 -o "$floor/nats-bench" "$here/nats/nats_bench.c" -lnats
                run_systems+=(nats)
            else
                echo "warning: nats-server or libnats-dev missing and not installable: the NATS phase is left out" >&2
            fi
            ;;
        *) echo "unknown system '$system' (floor, floor-poll, floor-curve, nats, tally, tally-curve)" >&2; exit 64 ;;
    esac
done

work="$(mktemp -d)"
pids=()
# shellcheck source=Benchmarks/cluster.sh
source "$here/cluster.sh"  # free_port, stop_pids, ticks
trap 'stop_pids; if [ -n "${FLOOR_KEEP_WORK:-}" ]; then echo "logs: $work" >&2; else rm -rf "$work"; fi' EXIT
trap 'exit 130' INT TERM

# The CURVE systems' keys, in the files `tally keys` writes: the broker's, one pair for the workers and one for the
# load client, and the broker's lists of each role's public keys.
# Made only when a CURVE system runs: a libzmq without CURVE still runs the others.
keys="$work/keys"
if [[ " ${run_systems[*]} " == *-curve\ * ]]; then
    mkdir "$keys"
    "$floor/floor-keys" "$keys" broker worker client
    cp "$keys/worker.pub" "$keys/workers.pub"
    cp "$keys/client.pub" "$keys/clients.pub"
fi
# What the phase's processes encrypt with (floor_curve.h): the keys' directory for a CURVE system, else empty.
curve=""

# Waits up to SECONDS for COMMAND to succeed.
wait_until() {
    local limit="$1"
    shift
    local tries=$((limit * 20))
    for _ in $(seq 1 "$tries"); do
        "$@" && return 0
        sleep 0.05
    done
    return 1
}
lines_in() { [ -f "$2" ] && [ "$(grep -c -- "$3" "$2")" -ge "$1" ]; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The broker's ticks by thread, as "loop io": the thread that runs the broker's loop and makes its libzmq calls
# (floor-broker's main thread, tally-broker's `mdp-broker`) and libzmq's I/O threads (`ZMQbg/IO/N`: the TCP work).
# Both live as long as the broker does, so their deltas are whole.
thread_ticks() {
    local task comm stat loop=0 io=0
    for task in /proc/"$1"/task/*; do
        comm="$(cat "$task/comm" 2>/dev/null)" || continue
        stat="$(cat "$task/stat" 2>/dev/null)" || continue
        stat="${stat##*) }"
        # shellcheck disable=SC2086
        set -- $stat
        case "$comm" in
            floor-broker | mdp-broker) loop=$((loop + ${12} + ${13})) ;;
            ZMQbg/IO/*) io=$((io + ${12} + ${13})) ;;
        esac
    done
    echo "$loop $io"
}

broker_pid=""
worker_pids=()
endpoint=""

start_floor() {  # [--poll]
    endpoint="tcp://127.0.0.1:$(free_port)"
    : >"$work/floor-broker.log"
    FLOOR_CURVE="$curve" "$floor/floor-broker" "$endpoint" "$@" >/dev/null 2>>"$work/floor-broker.log" &
    broker_pid=$!
    pids+=($!)
    local _
    for _ in 1 2; do
        FLOOR_CURVE="$curve" "$floor/floor-worker" "$endpoint" tally.history 2>>"$work/floor-worker.log" &
        worker_pids+=($!)
        pids+=($!)
    done
    wait_until 10 lines_in 2 "$work/floor-broker.log" "worker ready" \
        || { echo "floor: workers not ready" >&2; return 1; }
}

start_floor-poll() { start_floor --poll; }

start_tally() {  # [DIR]: the binaries' directory, $bin by default
    local from="${1:-$bin}"
    local broker_curve=() worker_curve=()
    if [ -n "$curve" ]; then
        broker_curve=(--curve-secret-key "$curve/broker.key" --curve-worker-keys "$curve/workers.pub"
            --curve-client-keys "$curve/clients.pub")
        worker_curve=(--curve-secret-key "$curve/worker.key" --curve-server-key "$curve/broker.pub")
    fi
    endpoint="tcp://127.0.0.1:$(free_port)"
    # Each ends itself once this shell is gone, if the trap never ran (they are children of the main shell).
    # --http as deployed: the broker's metrics and the console's recording are part of what it costs.
    TALLY_PARENT_PID=$$ "$from/tally-broker" --bind "$endpoint" --log-level warning "${broker_curve[@]}" \
        --http "127.0.0.1:$(free_port)" >/dev/null 2>>"$work/tally-broker.log" &
    broker_pid=$!
    pids+=($!)
    local worker io_threads=$(($(nproc) / 2))
    [ "$io_threads" -ge 1 ] || io_threads=1
    for worker in 1 2; do
        : >"$work/tally-worker$worker.out"
        TALLY_PARENT_PID=$$ "$from/tally-worker" --broker "$endpoint" --log-level warning "${worker_curve[@]}" \
            --io-threads "$io_threads" --http "127.0.0.1:$(free_port)" >"$work/tally-worker$worker.out" \
            2>>"$work/tally-worker.log" &
        worker_pids+=($!)
        pids+=($!)
    done
    for worker in 1 2; do
        wait_until 30 lines_in 1 "$work/tally-worker$worker.out" "tally-worker registered" \
            || { echo "tally: worker $worker did not register" >&2; return 1; }
    done
}

start_nats() {
    local port
    port="$(free_port)"
    endpoint="nats://127.0.0.1:$port"
    nats-server -a 127.0.0.1 -p "$port" 2>>"$work/nats-server.log" &
    broker_pid=$!
    pids+=($!)
    wait_until 10 port_open "$port" || { echo "nats-server did not listen" >&2; return 1; }
    local worker
    for worker in 1 2; do
        : >"$work/nats-worker$worker.out"
        "$floor/nats-bench" worker "$endpoint" tally.echo workers >"$work/nats-worker$worker.out" \
            2>>"$work/nats-worker.log" &
        worker_pids+=($!)
        pids+=($!)
    done
    for worker in 1 2; do
        wait_until 10 lines_in 1 "$work/nats-worker$worker.out" "worker ready" \
            || { echo "nats: worker $worker not ready" >&2; return 1; }
    done
}

# The load of SYSTEM at IN_FLIGHT for SECONDS, its JSON report on stdout; bounded by `timeout` whatever the peers do.
load() {
    local system="$1" in_flight="$2" duration="$3"
    if [ "$system" = nats ]; then
        timeout 60 "$floor/nats-bench" load "$endpoint" tally.echo "$in_flight" "$duration" "$body_bytes"
    else
        FLOOR_CURVE="$curve" timeout 60 "$floor/floor-client" "$endpoint" --service tally.history \
            --in-flight "$in_flight" --seconds "$duration" --body-bytes "$body_bytes" --timeout 5
    fi
}

failed=0
phase() {  # round, system, in-flight: appends one JSON line to $work/phases.jsonl
    local round="$1" system="$2" in_flight="$3"
    worker_pids=()
    # Called as an `if` condition, where errexit is off: every failure returns by hand.
    curve=""
    case "$system" in
        tally:*) start_tally "${tally_bins[${system#tally:}]}" || return 1 ;;
        *-curve) curve="$keys" && "start_${system%-curve}" || return 1 ;;
        *) "start_$system" || return 1 ;;
    esac
    if awk -v seconds="$warm_up" 'BEGIN { exit !(seconds > 0) }'; then
        load "$system" "$in_flight" "$warm_up" >/dev/null || true
    fi
    local broker_before workers_before=0 broker_after workers_after=0 pid status=0 load_before
    local loop_before io_before loop_after io_after
    load_before="$(cut -d' ' -f1 /proc/loadavg)"
    broker_before="$(ticks "$broker_pid")" || return 1
    read -r loop_before io_before <<<"$(thread_ticks "$broker_pid")"
    for pid in "${worker_pids[@]}"; do workers_before=$((workers_before + $(ticks "$pid"))) || return 1; done
    load "$system" "$in_flight" "$seconds" >"$work/report.json" || status=$?
    broker_after="$(ticks "$broker_pid")" || return 1
    read -r loop_after io_after <<<"$(thread_ticks "$broker_pid")"
    for pid in "${worker_pids[@]}"; do workers_after=$((workers_after + $(ticks "$pid"))) || return 1; done
    stop_pids
    if [ "$status" != 0 ]; then
        echo "round $round, $system, $in_flight in flight: the load failed (status $status):" \
            "$(cat "$work/report.json")" >&2
        failed=1
    fi
    python3 - "$round" "$system" "$in_flight" "$status" "$((broker_after - broker_before))" \
        "$((workers_after - workers_before))" "$((loop_after - loop_before))" "$((io_after - io_before))" \
        "$load_before" "$work/report.json" >>"$work/phases.jsonl" <<'PYTHON'
import json, sys
round_, system, in_flight, status, broker, workers, loop, io, load_average, report = sys.argv[1:]
try:
    client = json.load(open(report))
except ValueError:
    client = None
print(json.dumps({"round": int(round_), "system": system, "in_flight": int(in_flight), "status": int(status),
                  "broker_ticks": int(broker), "workers_ticks": int(workers),
                  # nats-server is not a libzmq broker: it has no such threads.
                  "broker_loop_ticks": int(loop) if system != "nats" else None,
                  "broker_io_ticks": int(io) if system != "nats" else None, "load_average": float(load_average),
                  "client": client}))
PYTHON
    tail -n 1 "$work/phases.jsonl" | python3 "$here/floor/floor_table.py" --phase "$(getconf CLK_TCK)" >&2
}

cpu="$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
machine_start="$(uname -m), $(nproc) cores ($cpu), load average $(cut -d' ' -f1-3 /proc/loadavg),"
machine_start+=" $(date -u +%Y-%m-%dT%H:%MZ)"
: >"$work/phases.jsonl"
for round in $(seq 1 "$rounds"); do
    for in_flight in "${in_flights[@]}"; do
        for system in "${run_systems[@]}"; do
            if ! phase "$round" "$system" "$in_flight"; then
                stop_pids
                echo "round $round, $system, $in_flight in flight: did not start, or could not be measured" >&2
                failed=1
            fi
        done
    done
done
machine_end="load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

python3 "$here/floor/floor_table.py" --summary "$(getconf CLK_TCK)" "$work/phases.jsonl" "$json_out" \
    "$machine_start; $machine_end" "$seconds" "$body_bytes"
echo "JSON: $json_out" >&2
exit "$failed"
