#!/usr/bin/env bash
# Instructions per request on the broker's threads, counted by callgrind on a real cluster: the broker's loop
# (`mdp-broker`: the state machine, the envelope, and libzmq's calls made on that thread) and libzmq's I/O thread,
# for `system.ping` (~100 B) and `streak.summary` over a year (~33 KB), 2 workers, 50 in flight. Each figure is the
# difference between a run of N and one of 2N requests, divided by N, so that start-up, warm-up and shutdown cancel
# out; instruction counts do not move with the machine's load, unlike times.
#
# The broker is Benchmarks/Sources/broker-process: tally-broker's BrokerService in a plain process, because valgrind
# crashes on tally-broker itself (its async main parks the main thread in libdispatch's sigsuspend). #30's target is
# ≤ 10,000 instructions per request on the loop thread, libzmq's calls included.
#
# Usage: Benchmarks/run-broker-instructions.sh [--requests N]      (default 2000)
set -euo pipefail
# measure runs in command substitutions: a failed load must stop the script, not count a broken run.
shopt -s inherit_errexit
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
requests=2000
while [ $# -gt 0 ]; do
    case "$1" in
        --requests) requests="$2"; shift 2 ;;
        *) echo "usage: $0 [--requests N]" >&2; exit 64 ;;
    esac
done
cd "$root"
command -v valgrind >/dev/null || apt-get install -y valgrind >/dev/null
TALLY_BENCHMARKS=1 swift build --scratch-path .build-bench -c release --product broker-process >&2
broker="$root/.build-bench/release/broker-process"
bin="$(swift build -c release --show-bin-path)"
for product in tally-worker tally-load; do
    [ -x "$bin/$product" ] || swift build -c release --product "$product" >&2
done
work="$(mktemp -d)"
# shellcheck source=Benchmarks/cluster.sh
source "$here/cluster.sh"
pids=()
stop_workers() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
trap 'stop_workers; rm -rf "$work"' EXIT
export TALLY_PARENT_PID=$$

# The loop's and the I/O thread's instructions in callgrind's per-thread files OUT-NN: the loop is the thread whose
# functions include BrokerLoop's; libzmq's symbols are hidden, so its I/O thread is the busiest of the others but the
# main thread (01, which only waits on standard input): the reaper is idle.
thread_counts() {
    local loop=0 io=0 file total
    for file in "$1"-*; do
        total="$(awk '/^(summary|totals):/ { print $2; exit }' "$file")"
        if grep -q "BrokerLoop" "$file"; then
            loop="$total"
        elif [ "${file##*-}" != "01" ] && [ "$total" -gt "$io" ]; then
            io="$total"
        fi
    done
    echo "$loop $io"
}

measure() {  # mix, requests: prints "loop io" instruction totals of one run
    local mix="$1" count="$2" endpoint fifo out
    endpoint="tcp://127.0.0.1:$(free_port)"
    fifo="$work/stdin"
    out="$work/cg-$count"
    rm -f "$fifo" "$out"-*
    mkfifo "$fifo"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out" "$broker" "$endpoint" \
        <"$fifo" >"$work/broker.out" 2>"$work/valgrind.log" &
    local valgrind_pid=$!
    exec 3>"$fifo"
    for _ in $(seq 1 600); do grep -q "listening" "$work/broker.out" 2>/dev/null && break; sleep 0.1; done
    start_workers "$endpoint"
    wait_for_service "$endpoint" 5s
    "$bin/tally-load" --broker "$endpoint" --mix "$mix" --requests "$count" --in-flight 50 --timeout 60s --json \
        --max-error-rate 0 >/dev/null
    stop_workers
    exec 3>&-
    wait "$valgrind_pid" || true
    thread_counts "$out"
}

echo "| request | loop thread, instructions / request | libzmq I/O thread, instructions / request |"
echo "|---|---:|---:|"
for mix in system.ping streak.summary@1y; do
    # Assigned first, so that a run that failed (a load with errors) stops the script.
    short="$(measure "$mix" "$requests")"
    long="$(measure "$mix" $((requests * 2)))"
    read -r loop1 io1 <<<"$short"
    read -r loop2 io2 <<<"$long"
    echo "| $mix | $(( (loop2 - loop1) / requests )) | $(( (io2 - io1) / requests )) |"
done
