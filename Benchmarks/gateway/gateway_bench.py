"""The helpers of Benchmarks/run-gateway.sh: its request bodies, the load clients' own CPU, and its tables.

    gateway_bench.py body EXAMPLE OUT          the params of a Protocol example as the body of POST /v1/{method},
                                               written to OUT (empty for none); prints the method
    gateway_bench.py check URL BODY            POSTs BODY's bytes to URL: exit 0 for a 200, else 1 and why
    gateway_bench.py measure CPU_OUT -- CMD…   runs CMD; writes the user + system seconds it and its children took
                                               to CPU_OUT (from the kernel's accounting of waited-for children, not
                                               sampled); exits with CMD's status
    gateway_bench.py --phase HZ                one phase's JSON line from standard input: a line of progress
    gateway_bench.py --summary HZ PHASES OUT MACHINE SECONDS CONNECTIONS
                                               medians over rounds and the ratios of the same run: a Markdown table
                                               on standard output, everything as JSON in OUT

HZ is the clock ticks per second of /proc/PID/stat. A ratio is given two ways: of the medians, and the range of the
same ratio within each round (a round's phases ran within a minute of each other, so a round's ratio is the pair a
shared machine's slow spells disturb least).
"""

import json
import pathlib
import resource
import statistics
import subprocess
import sys
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from figures import medians as medians_of
from figures import number, ratio_cell


def body(example_path, out_path):
    example = json.load(open(example_path))
    request = example.get("request", example)
    params = request.get("params")
    with open(out_path, "w") as out:
        if params is not None:
            out.write(json.dumps(params, separators=(",", ":"), ensure_ascii=False))
    print(request["method"])


def check(url, body_path):
    data = open(body_path, "rb").read()
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
            return 0
    except urllib.error.HTTPError as error:
        print(f"{url}: {error.code} {error.read()[:300]!r}", file=sys.stderr)
    except OSError as error:
        print(f"{url}: {error}", file=sys.stderr)
    return 1


def measure(cpu_path, command):
    status = subprocess.run(command, check=False).returncode
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(cpu_path, "w") as out:
        out.write(f"{usage.ru_utime + usage.ru_stime:.6f}\n")
    return status if status >= 0 else 128 - status


def derive(phase, hertz):
    """The phase's figures: requests, req/s, latency in µs, and CPU µs per request of each process."""
    report = phase.get("report") or {}
    if phase["client"] == "wrk":
        requests = report.get("requests", 0)
        seconds = report.get("duration_us", 0) / 1e6
        per_second = requests / seconds if seconds else None
        latency = report.get("latency") or {}
    else:
        summary = report.get("tally") or {}
        requests = summary.get("answered", 0)
        per_second = summary.get("successes_per_second")
        latency = summary.get("latency") or {}
    figures = {
        "requests": requests,
        "per_second": per_second,
        "p50_us": latency.get("p50_us"),
        "p90_us": latency.get("p90_us"),
        "p99_us": latency.get("p99_us"),
    }
    for role in ("broker", "workers", "gateway"):
        ticks = phase.get(f"{role}_ticks")
        figures[f"{role}_us"] = ticks / hertz * 1e6 / requests if requests and ticks is not None else None
    cpu = phase.get("client_cpu_seconds")
    figures["client_us"] = cpu * 1e6 / requests if requests and cpu is not None else None
    figures["gateway_threads_us"] = (
        {
            name: ticks / hertz * 1e6 / requests
            for name, ticks in (phase.get("gateway_threads") or {}).items()
            if requests
        }
        if phase["client"] == "wrk"
        else {}
    )
    if phase["client"] == "wrk" and figures["gateway_us"] is not None and figures["broker_us"]:
        figures["gateway_per_broker"] = figures["gateway_us"] / figures["broker_us"]
    else:
        figures["gateway_per_broker"] = None
    return figures


# Thread names as /proc has them (15 characters at most), and what they are.
THREAD_NAMES = {
    "oot.default-qos": "Swift's global pool",
    "NIO-SGLTN": "NIO event loops",
    "mdp-client": "TallyClient's I/O thread",
    "ZMQbg/IO": "libzmq's I/O thread",
}


def threads_text(by_thread):
    top = sorted(by_thread.items(), key=lambda item: -item[1])
    return ", ".join(f"{THREAD_NAMES.get(name, name)} {value:.1f}" for name, value in top if value >= 0.05)


def phase_line(hertz):
    phase = json.loads(sys.stdin.readline())
    figures = derive(phase, hertz)
    status = "" if phase["status"] == 0 else f" FAILED ({phase.get('why') or 'status ' + str(phase['status'])})"
    client = phase["client"] + (f" → {phase['gateway']}" if phase.get("gateway") else "")
    line = (
        f"round {phase['round']}, {phase['method']}, {client}: "
        f"{number(figures['per_second'], 0)} req/s, p50 {number(figures['p50_us'], 0)} µs, "
        f"p99 {number(figures['p99_us'], 0)} µs; CPU µs/req: broker {number(figures['broker_us'])}, "
        f"workers {number(figures['workers_us'])}, gateway {number(figures['gateway_us'])}, "
        f"{phase['client']} {number(figures['client_us'])}"
    )
    if figures["gateway_per_broker"] is not None:
        line += f"; gateway ÷ broker {figures['gateway_per_broker']:.2f}×"
        line += f" (gateway by thread: {threads_text(figures['gateway_threads_us'])})"
    print(line + f" (load average {phase['load_average']}){status}")


def ratio_of(key, wrk, load):
    """One ratio from a wrk phase's figures and a tally-load phase's (either may be None)."""

    def divide(top, bottom):
        return top / bottom if top is not None and bottom else None

    if key == "gateway_per_broker":
        return wrk and wrk["gateway_per_broker"]
    if not wrk or not load:
        return None
    return {
        "gateway_per_tally_load": lambda: divide(wrk["gateway_us"], load["client_us"]),
        "broker_wrk_per_tally_load": lambda: divide(wrk["broker_us"], load["broker_us"]),
        "workers_wrk_per_tally_load": lambda: divide(wrk["workers_us"], load["workers_us"]),
        "throughput_wrk_per_tally_load": lambda: divide(wrk["per_second"], load["per_second"]),
        "p50_wrk_per_tally_load": lambda: divide(wrk["p50_us"], load["p50_us"]),
        "gateway_per_first": lambda: divide(wrk["gateway_us"], load["gateway_us"]),
        "throughput_per_first": lambda: divide(wrk["per_second"], load["per_second"]),
    }[key]()


# (key, label, denominator): the ratios the README reports, per method and gateway; the denominator is the
# tally-load phase of the same round, or the first gateway's wrk phase (an A/B of gateways).
RATIOS = [
    ("gateway_per_broker", "gateway CPU / req ÷ broker CPU / req (goal ≤ 2×)", None),
    (
        "gateway_per_tally_load",
        "gateway CPU / req ÷ tally-load's CPU / req (HTTP on top of a TallyClient caller)",
        "tally-load",
    ),
    ("broker_wrk_per_tally_load", "broker CPU / req, through the gateway ÷ from tally-load", "tally-load"),
    ("workers_wrk_per_tally_load", "workers CPU / req, through the gateway ÷ from tally-load", "tally-load"),
    ("throughput_wrk_per_tally_load", "req/s, wrk through the gateway ÷ tally-load", "tally-load"),
    ("p50_wrk_per_tally_load", "p50, wrk through the gateway ÷ tally-load", "tally-load"),
    ("gateway_per_first", "gateway CPU / req ÷ the first gateway's", "first"),
    ("throughput_per_first", "req/s ÷ the first gateway's", "first"),
]


def summary(hertz, phases_path, out_path, machine, seconds, connections):
    phases = [json.loads(line) for line in open(phases_path) if line.strip()]
    for phase in phases:
        phase["figures"] = derive(phase, hertz)
    good = [phase for phase in phases if phase["status"] == 0 and phase["figures"]["requests"]]
    methods = list(dict.fromkeys(phase["method"] for phase in phases))
    gateways = list(dict.fromkeys(phase["gateway"] for phase in phases if phase["client"] == "wrk"))
    rounds = sorted({phase["round"] for phase in phases})
    keys = [
        "per_second",
        "p50_us",
        "p90_us",
        "p99_us",
        "broker_us",
        "workers_us",
        "gateway_us",
        "client_us",
        "gateway_per_broker",
    ]
    # A row: tally-load's, or wrk's through one gateway.
    rows = [("tally-load", None)] + [("wrk", gateway) for gateway in gateways]

    def runs_of(method, row, round_=None):
        return [
            phase["figures"]
            for phase in good
            if phase["method"] == method
            and (phase["client"], phase.get("gateway")) == row
            and round_ in (None, phase["round"])
        ]

    medians = {}
    for method in methods:
        for row in rows:
            runs = runs_of(method, row)
            if not runs:
                continue
            median = medians_of(runs, keys)
            names = {name for run in runs for name in run["gateway_threads_us"]}
            median["gateway_threads_us"] = {
                name: statistics.median([run["gateway_threads_us"].get(name, 0.0) for run in runs]) for name in names
            }
            medians.setdefault(method, {})[" → ".join(filter(None, row))] = median

    def name(row):
        return " → ".join(filter(None, row))

    ratios = {}
    for method in methods:
        for gateway in gateways:
            row = ("wrk", gateway)
            for key, label, against in RATIOS:
                if against == "first" and (len(gateways) < 2 or gateway == gateways[0]):
                    continue
                other = {"tally-load": ("tally-load", None), "first": ("wrk", gateways[0]), None: None}[against]
                # gateway ÷ broker is the median of each phase's own ratio; the others are ratios of medians.
                top = medians.get(method, {}).get(name(row))
                bottom = medians.get(method, {}).get(name(other)) if other else None
                of_medians = ratio_of(key, top, bottom)
                if of_medians is None:
                    continue
                per_round = []
                for round_ in rounds:
                    pair = [
                        next(iter(runs_of(method, row, round_)), None),
                        next(iter(runs_of(method, other, round_)), None) if other else None,
                    ]
                    value = ratio_of(key, *pair)
                    if value is not None:
                        per_round.append(value)
                shown = label if len(gateways) < 2 else f"{label}: {gateway}"
                ratios.setdefault(method, {})[f"{key}/{gateway}"] = {
                    "label": shown,
                    "of_medians": of_medians,
                    "per_round": per_round,
                }

    failed = [phase for phase in phases if phase not in good]
    with open(out_path, "w") as out:
        json.dump(
            {
                "machine": machine,
                "seconds_per_phase": float(seconds),
                "connections": int(connections),
                "clock_ticks_per_second": hertz,
                "phases": phases,
                "medians": medians,
                "ratios": ratios,
                "failed_phases": len(failed),
            },
            out,
            indent=2,
            ensure_ascii=False,
        )
        out.write("\n")

    plural = "s" if len(rounds) != 1 else ""
    print(
        f"Measured by `Benchmarks/run-gateway.sh` on {machine}: {len(rounds)} round{plural}, {seconds} s per "
        f"phase, {connections} keep-alive connections (wrk) or requests in flight (tally-load), one broker and "
        "two workers, loopback. Medians over rounds; CPU is user + system time per request, from /proc for the "
        "servers and from the kernel's accounting of each load client.\n"
    )
    print("| ratio, same run | " + " | ".join(f"`{m}` (per round)" for m in methods) + " |")
    print("|---|" + "---:|" * len(methods))
    keys_in_order = list(dict.fromkeys(key for method in methods for key in ratios.get(method, {})))
    for key in keys_in_order:
        cells = []
        for method in methods:
            cells.append(ratio_cell(ratios.get(method, {}).get(key)))
        label = next(ratios[m][key]["label"] for m in methods if key in ratios.get(m, {}))
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    print(
        "| method | client | req/s | p50 µs | p90 µs | p99 µs | broker CPU µs / req | workers CPU µs / req "
        "| gateway CPU µs / req | load client CPU µs / req |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for method in methods:
        for row in rows:
            median = medians.get(method, {}).get(name(row))
            if not median:
                continue
            if row[0] == "tally-load":
                client, gateway = "tally-load → broker (TallyClient)", "— (idle)"
            else:
                client, gateway = f"wrk → {row[1]} → broker", number(median["gateway_us"])
            print(
                f"| `{method}` | {client} | {number(median['per_second'], 0)} | {number(median['p50_us'], 0)} "
                f"| {number(median['p90_us'], 0)} | {number(median['p99_us'], 0)} | {number(median['broker_us'])} "
                f"| {number(median['workers_us'])} | {gateway} | {number(median['client_us'])} |"
            )
    print()
    for method in methods:
        for gateway in gateways:
            median = medians.get(method, {}).get(name(("wrk", gateway)))
            if median and median["gateway_threads_us"]:
                print(
                    f"- {gateway}'s CPU µs per `{method}` request by thread (medians): "
                    f"{threads_text(median['gateway_threads_us'])}."
                )
    if failed:
        print(
            f"\n{len(failed)} phase(s) failed and are left out: "
            + ", ".join(f"round {p['round']} {p['method']} {p['client']} {p.get('gateway') or ''}" for p in failed)
        )


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if len(arguments) == 3 and arguments[0] == "body":
        body(arguments[1], arguments[2])
    elif len(arguments) == 3 and arguments[0] == "check":
        sys.exit(check(arguments[1], arguments[2]))
    elif len(arguments) >= 4 and arguments[0] == "measure" and arguments[2] == "--":
        sys.exit(measure(arguments[1], arguments[3:]))
    elif len(arguments) == 2 and arguments[0] == "--phase":
        phase_line(int(arguments[1]))
    elif len(arguments) == 7 and arguments[0] == "--summary":
        summary(int(arguments[1]), *arguments[2:7])
    else:
        sys.exit(__doc__)
