"""Turns the tally-load --json reports of run-e2e.sh into the Markdown table kept in Benchmarks/README.md.

Arguments: report directory, machine label, broker RSS before / peak / after the flood (KiB).
"""
import json
import sys
from pathlib import Path

directory, machine, rss_before, rss_peak, rss_after = sys.argv[1:6]
reports = {path.stem: json.loads(path.read_text()) for path in Path(directory).glob("*.json")}
# nats-bench's reports (requests, seconds, per_second, p50_us, p99_us), when NATS could be run.
nats = {path.stem: json.loads(path.read_text()) for path in Path(directory).glob("*.nats")}
# floor-client's reports (sent, replies, per_second, p50_us, p99_us, …): floor-broker and two echo workers.
floors = {path.stem: json.loads(path.read_text()) for path in Path(directory).glob("*.floor")}
usages = {path.stem: [int(field) for field in path.read_text().split()] for path in Path(directory).glob("*.usage")}
# The workers' dispatch time around each run, before then after (run-e2e.sh's dispatch_seconds): wall-clock seconds
# and requests, then CPU seconds and sampled requests.
dispatches = {path.stem: [float(field) for field in path.read_text().split()] for path in Path(directory).glob("*.dispatch")}


def throughput(report):
    """Successes per second (errors are not throughput)."""
    return report["tally"]["successes_per_second"]


def latency(summary, key):
    """A latency of successes in µs, or n/a when nothing succeeded (the report writes null then)."""
    return summary["latency"][key] if summary.get("latency") else "n/a"


def ratio(value, text, factor=1):
    """`value` × `factor` written with `text`, or n/a when it was not measured (null in the report)."""
    return text.format(value * factor) if value is not None else "n/a"


def errors(report):
    counts = report["tally"]["errors"]
    text = ", ".join(f"{code} {count}" for code, count in sorted(counts.items())) or "none"
    return text + (f"; {report['tally']['unanswered']} unanswered" if report["tally"]["unanswered"] else "")


rows = [
    ("system.ping", "ping-1", 1, "ping-1"),
    ("system.ping", "ping-100", 100, "ping-100"),
    ("streak.summary 1y", "streak-1y-1", 1, "ping-1"),
    ("streak.summary 1y", "streak-1y-100", 100, "ping-100"),
]
lines = [
    f"Measured by `Benchmarks/run-e2e.sh` on {machine}: one broker and two workers (default concurrency) on",
    "loopback, `tally-load --baseline` closed loop. The raw echo is a libzmq ROUTER↔DEALER echo of the same body",
    "size and in-flight count measured just before each run (one hop, no broker, no JSON). Shared machine: read",
    "the ratios; absolute figures move with the load of the other tenants.",
    "",
    "| request | in flight | Tally req/s | raw echo req/s | Tally ÷ echo throughput | ÷ ping throughput "
    "| p50 µs (Tally / echo) | p50 ratio | p99 µs | errors |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
]
for label, name, in_flight, ping in rows:
    report = reports[name]
    ping_ratio = throughput(report) / throughput(reports[ping]) if throughput(reports[ping]) else 0
    tally, echo = report["tally"], report["baseline"]
    lines.append(
        f"| {label} | {in_flight} | {throughput(report):,.0f} | {echo['successes_per_second']:,.0f} "
        f"| {ratio(report['throughput_ratio'], '{:.1f}%', 100)} "
        f"| {ping_ratio * 100:.0f}% "
        f"| {latency(tally, 'p50_us')} / {latency(echo, 'p50_us')} | {ratio(report['p50_latency_ratio'], '{:.2f}×')} "
        f"| {latency(tally, 'p99_us')} | {errors(report)} |")
for in_flight in (1, 100):
    run, echo_report = nats.get(f"nats-{in_flight}"), reports[f"ping-{in_flight}"]
    if run is None:
        continue
    echo = echo_report["baseline"]
    echo_throughput, echo_p50 = echo["successes_per_second"], latency(echo, "p50_us")
    throughput_ratio = f"{run['per_second'] / echo_throughput * 100:.1f}%" if echo_throughput else "n/a"
    p50_ratio = f"{run['p50_us'] / echo_p50:.2f}×" if isinstance(echo_p50, int) and echo_p50 else "n/a"
    lines.append(
        f"| NATS queue group (2 echo workers) | {in_flight} | {run['per_second']:,.0f} | {echo_throughput:,.0f} "
        f"| {throughput_ratio} | — | {run['p50_us']} / {echo_p50} | {p50_ratio} | {run['p99_us']} | — |")
for in_flight in (1, 100):
    run, echo_report = floors.get(f"floor-{in_flight}"), reports[f"ping-{in_flight}"]
    if run is None:
        continue
    echo = echo_report["baseline"]
    echo_throughput, echo_p50 = echo["successes_per_second"], latency(echo, "p50_us")
    throughput_ratio = f"{run['per_second'] / echo_throughput * 100:.1f}%" if echo_throughput else "n/a"
    p50_ratio = f"{run['p50_us'] / echo_p50:.2f}×" if isinstance(echo_p50, int) and echo_p50 else "n/a"
    lost = run["unanswered"] + run["unexpected"] + run["malformed"]
    lines.append(
        f"| floor: C MDP/0.1 broker without logic (2 echo workers) | {in_flight} | {run['per_second']:,.0f} "
        f"| {echo_throughput:,.0f} | {throughput_ratio} | — | {run['p50_us']} / {echo_p50} | {p50_ratio} "
        f"| {run['p99_us']} | {'none' if lost == 0 else f'{lost} lost'} |")
if nats:
    lines += [
        "",
        "The NATS rows: `nats-server` with two C echo workers in a queue group (`Benchmarks/nats/nats_bench.c`, "
        "libnats), driven closed-loop with the same body size; their ratios are to the raw echo of the Tally run "
        "with the same in-flight count.",
    ]

if floors:
    lines += [
        "",
        "The floor rows: `Benchmarks/floor/`'s `floor-broker` (one ROUTER that deals each request round robin to "
        "two C echo workers and forwards their replies: MDP/0.1's frames, no queues, credit, heartbeats or checks) "
        "driven closed-loop by `floor-client` with pings of the same body size, every reply matched to its request; "
        "`Benchmarks/run-floor.sh` takes turns between it, NATS and Tally.",
    ]

lines += [
    "",
    "Where each request's cost lands, per role, from `/proc` before and after each run (CPU is user + system",
    "time, so it includes the kernel's TCP work and the wake-ups; a context switch is a thread going to sleep or",
    "being preempted). In-process dispatch is the CPU time the workers' threads spent in the dispatcher per",
    "request (decode, compute, encode) in the same run, measured for one request in 16",
    "(`tally_worker_request_cpu_seconds`); the transport share is what remains of the workers' CPU per request.",
    "In parentheses, the ping's figures as multiples of the floor's at the same in-flight count, measured in the",
    "same run (its last rows; the floor was run with pings only):",
    "",
    "| request | in flight | broker CPU µs / request (× floor) | workers CPU µs / request (× floor) "
    "| in-process dispatch CPU µs | transport share of worker CPU | broker switches / request "
    "| workers switches / request |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
]


def floor_usage(in_flight):
    """The floor's broker and workers CPU µs per request and switches per request at `in_flight`, or None."""
    run, usage = floors.get(f"floor-{in_flight}"), usages.get(f"floor-{in_flight}")
    if run is None or usage is None or not run["replies"]:
        return None
    ticks_per_second, *counters = usage
    delta = [b - a for a, b in zip(counters[:4], counters[4:])]
    micros = 1_000_000 / ticks_per_second / run["replies"]
    return delta[0] * micros, delta[2] * micros, delta[1] / run["replies"], delta[3] / run["replies"]


def times(value, floor):
    return f" ({value / floor:.1f}×)" if floor else ""


worker_cpu, dispatch_micros = {}, {}
for label, name, in_flight, _ in rows:
    answered = reports[name]["tally"]["answered"]
    ticks_per_second, *counters = usages[name]
    before, after = counters[:4], counters[4:]
    delta = [b - a for a, b in zip(before, after)]
    micros = 1_000_000 / ticks_per_second / max(answered, 1)
    worker_cpu[name] = delta[2] * micros
    # The in-process CPU time of the same requests (decode, compute, encode), from the workers' own histogram of the
    # thread's CPU clock (not the wall clock, which counts a thread preempted mid-request as busy): what is left
    # of the workers' CPU is the transport's (sockets, framing, wake-ups, libzmq's I/O thread).
    _, _, cpu_before, sampled_before, _, _, cpu_after, sampled_after = dispatches.get(name, [0] * 8)
    if sampled_after > sampled_before:
        dispatch_micros[name] = (cpu_after - cpu_before) / (sampled_after - sampled_before) * 1_000_000
    dispatch = dispatch_micros.get(name)
    share = 1 - dispatch / worker_cpu[name] if dispatch is not None and worker_cpu[name] else None
    floor = floor_usage(in_flight) if label == "system.ping" else None
    lines.append(
        f"| {label} | {in_flight} | {delta[0] * micros:.0f}{times(delta[0] * micros, floor and floor[0])} "
        f"| {worker_cpu[name]:.0f}{times(worker_cpu[name], floor and floor[1])} "
        f"| {ratio(dispatch, '{:.0f}')} | {ratio(share, '{:.0f}%', 100)} "
        f"| {delta[1] / max(answered, 1):.1f} | {delta[3] / max(answered, 1):.1f} |")
for in_flight in (1, 100):
    floor = floor_usage(in_flight)
    if floor:
        lines.append(
            f"| floor (C, no logic; echo workers) | {in_flight} | {floor[0]:.1f} | {floor[1]:.1f} | — | — "
            f"| {floor[2]:.1f} | {floor[3]:.1f} |")

flood = reports["flood"]
flood_latency = flood["tally"]["latency"]
lines += [
    "",
    f"Broker flood: 100,000 `system.ping` sent at once (100,000 in flight, queue limit raised to 200,000): "
    f"{flood['tally']['answered']:,} answered in {flood['tally']['elapsed_seconds']:.1f} s "
    f"({throughput(flood):,.0f}/s, p99 {ratio(flood_latency and flood_latency['p99_us'], '{:.0f} ms', 1 / 1000)}), "
    f"errors: {errors(flood)}. "
    f"Broker RSS {int(rss_before) / 1024:.1f} MiB before, {int(rss_peak) / 1024:.1f} MiB peak (VmHWM), "
    f"{int(rss_after) / 1024:.1f} MiB after.",
    "",
    "| target | measured | |",
    "|---|---:|---|",
]
# The targets of issue #20.
ping_100 = reports["ping-100"]["throughput_ratio"]
ping_1_p50 = reports["ping-1"]["p50_latency_ratio"]
streak_dispatch = dispatch_micros.get("streak-1y-100")
streak_share = (
    1 - streak_dispatch / worker_cpu["streak-1y-100"]
    if streak_dispatch is not None and worker_cpu["streak-1y-100"] else None)
for text, value, met in [
    ("ping, 100 in flight: ≥ 30% of raw echo throughput", ratio(ping_100, "{:.1f}%", 100),
     ping_100 is not None and ping_100 >= 0.30),
    ("ping, 1 in flight: p50 ≤ 2.0× raw echo p50", ratio(ping_1_p50, "{:.2f}×"),
     ping_1_p50 is not None and ping_1_p50 <= 2.0),
    ("streak.summary 1y, 100 in flight: transport ≤ 25% of worker CPU (worker CPU per request minus its "
     "in-process dispatch time)", ratio(streak_share, "{:.0f}%", 100),
     streak_share is not None and streak_share <= 0.25),
]:
    lines.append(f"| {text} | {value} | {'met' if met else '**missed**'} |")
print("\n".join(lines))
