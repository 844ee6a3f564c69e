# Shell functions the benchmark scripts share (sourced, not run): a free loopback port, two workers on a broker,
# waiting until the broker answers a ping through them, stopping what a script started, and the CPU a process
# has used. They expect $bin (this build's release binaries), $work (a
# scratch directory) and a pids array, which start_workers appends to.

# A loopback TCP port nobody listens on, picked by the kernel.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

# Two tally-workers connected to ENDPOINT, their logs appended to $work/worker.log. Each is told to end when the
# shell that starts it does (TALLY_PARENT_PID): that shell is its parent, which in a command substitution is not $$.
start_workers() {
    # Read here: in the background command below, $BASHPID would already be the worker's own pid.
    local _ parent=$BASHPID
    for _ in 1 2; do
        TALLY_PARENT_PID=$parent "$bin/tally-worker" --broker "$1" --log-level warning >/dev/null \
            2>>"$work/worker.log" &
        pids+=($!)
    done
}

# Waits until ENDPOINT answers a ping (its workers registered), each try allowed TIMEOUT (e.g. 1s; more for a broker
# under valgrind); gives up after 100 tries.
wait_for_service() {
    local _
    for _ in $(seq 1 100); do
        "$bin/tally-load" --broker "$1" --mix system.ping --requests 1 --in-flight 1 --timeout "$2" --json \
            --max-error-rate 0 >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    echo "no answer from $1" >&2
    return 1
}

# Stops every process of the pids array, the last started first (workers before their broker, a gateway before
# both), each by its own pid with SIGTERM; what is still alive after about five seconds is killed, so that none
# outlives a stop for long.
stop_pids() {
    local pid index
    for ((index = ${#pids[@]} - 1; index >= 0; index--)); do
        kill -TERM "${pids[index]}" 2>/dev/null || true
    done
    for _ in $(seq 1 100); do
        local alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.05
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}

# User + system clock ticks of a process, every thread it ever had: /proc/PID/stat's fields 14 and 15, counted after
# the command name, which is in parentheses.
ticks() {
    local stat
    stat="$(cat "/proc/$1/stat")"
    stat="${stat##*) }"
    # shellcheck disable=SC2086
    set -- $stat
    echo $((${12} + ${13}))
}
