"""The tables of Benchmarks/run-floor.sh, from its phases (one JSON line each).

    floor_table.py --phase HZ                  one phase's line from standard input: a line of progress
    floor_table.py --summary HZ PHASES OUT MACHINE SECONDS BODY_BYTES
                                               medians over rounds and ratios to the floor: a Markdown table on
                                               standard output, everything as JSON in OUT

HZ is the clock ticks per second of /proc/PID/stat. A ratio is given two ways: of the medians, and the range of the
same ratio within each round (the systems of one round ran within a minute of each other, so a round's ratio is the
pair a shared machine's slow spells disturb least).
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from figures import medians as medians_of
from figures import number, ratio_cell

NAMES = {"floor": "C floor (floor-broker + 2 floor-workers)",
         "floor-poll": "C floor, polling (floor-broker --poll + 2 floor-workers)",
         "nats": "NATS (nats-server + queue group of 2 C workers)",
         "tally": "Tally (tally-broker + 2 tally-workers, system.ping)",
         "floor-curve": "C floor, CURVE on (floor-broker + 2 floor-workers)",
         "tally-curve": "Tally, CURVE on (tally-broker + 2 tally-workers, system.ping)"}


def name(system):
    """The table's name of SYSTEM: one of NAMES, or `tally:LABEL` (run-floor.sh --tally LABEL=DIR)."""
    if system.startswith("tally:"):
        return f"Tally {system[6:]} (tally-broker + 2 tally-workers, system.ping)"
    return NAMES[system]


def derive(phase, hertz):
    """The phase's figures per request: CPU µs of the broker, the workers and the load client."""
    client = phase.get("client") or {}
    # floor-client counts every reply (the drain after the window too); nats-bench the replies within its window,
    # and its drain is at most the in-flight count.
    requests = client.get("replies", client.get("requests", 0))
    figures = {"requests": requests, "per_second": client.get("per_second"), "p50_us": client.get("p50_us"),
               "p99_us": client.get("p99_us")}
    for role in ("broker", "workers", "broker_loop", "broker_io"):
        ticks = phase.get(f"{role}_ticks")
        figures[f"{role}_us"] = ticks / hertz * 1e6 / requests if requests and ticks is not None else None
    cpu = client.get("cpu_seconds")
    figures["client_us"] = cpu * 1e6 / requests if requests and cpu is not None else None
    if figures["broker_us"] is not None:
        figures["broker_and_workers_us"] = figures["broker_us"] + figures["workers_us"]
    else:
        figures["broker_and_workers_us"] = None
    return figures


def threads(row):
    if row.get("broker_loop_us") is None:
        return ""
    return f" ({number(row['broker_loop_us'])}, {number(row['broker_io_us'])})"


def phase_line(hertz):
    phase = json.loads(sys.stdin.readline())
    figures = derive(phase, hertz)
    status = "" if phase["status"] == 0 else f" FAILED (status {phase['status']})"
    print(f"round {phase['round']}, {phase['system']}, {phase['in_flight']} in flight: "
          f"{number(figures['per_second'], 0)} req/s, p50 {figures['p50_us']} µs, p99 {figures['p99_us']} µs, "
          f"broker {number(figures['broker_us'])} µs/req{threads(figures)}, "
          f"workers {number(figures['workers_us'])} µs/req, "
          f"client {number(figures['client_us'])} µs/req (load average {phase['load_average']}){status}")


# (key, label, numerator system, denominator system, figure): the ratios the README reports.
RATIOS = [
    ("tally_broker_cpu_per_floor", "Tally broker CPU ÷ floor broker CPU", "tally", "floor", "broker_us"),
    ("floor_poll_broker_cpu_per_floor", "polling floor broker CPU ÷ floor broker CPU", "floor-poll", "floor",
     "broker_us"),
    ("tally_broker_cpu_per_floor_poll", "Tally broker CPU ÷ polling floor broker CPU", "tally", "floor-poll",
     "broker_us"),
    ("nats_server_cpu_per_floor", "NATS server CPU ÷ floor broker CPU", "nats", "floor", "broker_us"),
    ("tally_broker_loop_cpu_per_floor", "Tally broker's loop thread ÷ floor broker's", "tally", "floor",
     "broker_loop_us"),
    ("tally_broker_io_cpu_per_floor", "Tally broker's libzmq I/O thread ÷ floor broker's", "tally", "floor",
     "broker_io_us"),
    ("tally_broker_cpu_per_nats", "Tally broker CPU ÷ NATS server CPU", "tally", "nats", "broker_us"),
    ("tally_workers_cpu_per_floor", "Tally workers CPU ÷ floor workers CPU", "tally", "floor", "workers_us"),
    ("tally_cluster_cpu_per_floor", "Tally broker + workers CPU ÷ floor's", "tally", "floor", "broker_and_workers_us"),
    ("tally_throughput_per_nats", "Tally req/s ÷ NATS req/s", "tally", "nats", "per_second"),
    ("tally_throughput_per_floor", "Tally req/s ÷ floor req/s", "tally", "floor", "per_second"),
    ("nats_throughput_per_floor", "NATS req/s ÷ floor req/s", "nats", "floor", "per_second"),
    ("tally_p50_per_floor", "Tally p50 ÷ floor p50", "tally", "floor", "p50_us"),
    ("nats_p50_per_floor", "NATS p50 ÷ floor p50", "nats", "floor", "p50_us"),
    # CURVE on: Tally against the floor that encrypts too, and what encrypting costs each.
    ("tally_curve_broker_cpu_per_floor_curve", "CURVE on: Tally broker CPU ÷ floor broker CPU", "tally-curve",
     "floor-curve", "broker_us"),
    ("tally_curve_broker_loop_cpu_per_floor_curve", "CURVE on: Tally broker's loop thread ÷ floor broker's",
     "tally-curve", "floor-curve", "broker_loop_us"),
    ("tally_curve_broker_io_cpu_per_floor_curve", "CURVE on: Tally broker's libzmq I/O thread ÷ floor broker's",
     "tally-curve", "floor-curve", "broker_io_us"),
    ("tally_curve_workers_cpu_per_floor_curve", "CURVE on: Tally workers CPU ÷ floor workers CPU", "tally-curve",
     "floor-curve", "workers_us"),
    ("tally_curve_throughput_per_floor_curve", "CURVE on: Tally req/s ÷ floor req/s", "tally-curve", "floor-curve",
     "per_second"),
    ("tally_curve_throughput_per_nats", "Tally req/s, CURVE on, ÷ NATS req/s (plaintext)", "tally-curve", "nats",
     "per_second"),
    ("tally_curve_p50_per_floor_curve", "CURVE on: Tally p50 ÷ floor p50", "tally-curve", "floor-curve", "p50_us"),
    ("floor_curve_broker_cpu_per_floor", "floor broker CPU, CURVE on ÷ off", "floor-curve", "floor", "broker_us"),
    ("tally_curve_broker_cpu_per_tally", "Tally broker CPU, CURVE on ÷ off", "tally-curve", "tally", "broker_us"),
    ("tally_curve_workers_cpu_per_tally", "Tally workers CPU, CURVE on ÷ off", "tally-curve", "tally", "workers_us"),
    ("tally_curve_throughput_per_tally", "Tally req/s, CURVE on ÷ off", "tally-curve", "tally", "per_second"),
]


def ratios_for(systems):
    """RATIOS for the systems of the run: with Tally variants (`tally:LABEL`), each variant's in the place of
    Tally's, and every later variant's broker, loop, workers and throughput as a multiple of the first variant's."""
    variants = [system for system in systems if system.startswith("tally:")]
    if not variants:
        return RATIOS
    chosen = [entry for entry in RATIOS if "tally" not in entry[2:4]]
    for variant in variants:
        label = variant[6:]
        for key, text, top, bottom, figure in RATIOS:
            if "tally" in (top, bottom):
                chosen.append((key.replace("tally", f"tally_{label}", 1), text.replace("Tally", f"Tally {label}", 1),
                               variant if top == "tally" else top, variant if bottom == "tally" else bottom, figure))
    first = variants[0]
    for variant in variants[1:]:
        for figure, what in (("broker_us", "broker CPU"), ("broker_loop_us", "broker's loop thread"),
                             ("broker_io_us", "broker's libzmq I/O thread"), ("workers_us", "workers CPU"),
                             ("per_second", "req/s")):
            later, earlier = variant[6:], first[6:]
            chosen.append((f"{later}_{figure}_per_{earlier}", f"Tally {later} {what} ÷ Tally {earlier}'s", variant,
                           first, figure))
    return chosen


def summary(hertz, phases_path, out_path, machine, seconds, body_bytes):
    phases = [json.loads(line) for line in open(phases_path) if line.strip()]
    for phase in phases:
        phase["figures"] = derive(phase, hertz)
    good = [phase for phase in phases if phase["status"] == 0 and phase["figures"]["requests"]]
    systems = [system for system in NAMES if any(phase["system"] == system for phase in good)]
    for phase in good:
        if phase["system"].startswith("tally:") and phase["system"] not in systems:
            systems.append(phase["system"])
    chosen = ratios_for(systems)
    in_flights = sorted({phase["in_flight"] for phase in phases})
    keys = ["per_second", "p50_us", "p99_us", "broker_us", "broker_loop_us", "broker_io_us", "workers_us",
            "broker_and_workers_us", "client_us"]

    medians = {}
    for system in systems:
        for in_flight in in_flights:
            runs = [phase["figures"] for phase in good if phase["system"] == system and phase["in_flight"] == in_flight]
            if not runs:
                continue
            row = medians_of(runs, keys)
            medians.setdefault(system, {})[str(in_flight)] = row

    ratios = {}
    for in_flight in in_flights:
        for key, label, top, bottom, figure in chosen:
            upper, lower = medians.get(top, {}).get(str(in_flight)), medians.get(bottom, {}).get(str(in_flight))
            if not upper or not lower or not upper[figure] or not lower[figure]:
                continue
            per_round = []
            for round_ in sorted({phase["round"] for phase in good}):
                pair = [next((p["figures"][figure] for p in good if p["system"] == system and p["round"] == round_
                              and p["in_flight"] == in_flight), None) for system in (top, bottom)]
                if None not in pair and pair[1]:
                    per_round.append(pair[0] / pair[1])
            ratios.setdefault(str(in_flight), {})[key] = {
                "label": label, "of_medians": upper[figure] / lower[figure], "per_round": per_round}

    failed = [phase for phase in phases if phase not in good]
    with open(out_path, "w") as out:
        json.dump({"machine": machine, "seconds_per_phase": float(seconds), "body_bytes": int(body_bytes),
                   "clock_ticks_per_second": hertz, "phases": phases, "medians": medians, "ratios": ratios,
                   "failed_phases": len(failed)}, out, indent=2)
        out.write("\n")

    rounds = max((phase["round"] for phase in phases), default=0)
    plural = "s" if rounds != 1 else ""
    print(f"Measured by `Benchmarks/run-floor.sh` on {machine}: {rounds} round{plural}, each system in turn, "
          f"{seconds} s per phase, ~{body_bytes} B requests, 2 workers each, loopback. Medians over rounds; CPU is "
          "user + system time from /proc per request.\n")
    print("| system | in flight | req/s | p50 µs | p99 µs | broker CPU µs / req (loop thread, libzmq I/O thread) "
          "| workers CPU µs / req | broker + workers | load client CPU µs / req |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for in_flight in in_flights:
        for system in systems:
            row = medians.get(system, {}).get(str(in_flight))
            if row:
                print(f"| {name(system)} | {in_flight} | {number(row['per_second'], 0)} | {number(row['p50_us'], 0)} "
                      f"| {number(row['p99_us'], 0)} | {number(row['broker_us'])}{threads(row)} "
                      f"| {number(row['workers_us'])} "
                      f"| {number(row['broker_and_workers_us'])} | {number(row['client_us'])} |")
    print("\n| ratio, same run | " + " | ".join(f"{n} in flight (per round)" for n in in_flights) + " |")
    print("|---|" + "---:|" * len(in_flights))
    for key, label, *_ in chosen:
        cells = []
        for in_flight in in_flights:
            cells.append(ratio_cell(ratios.get(str(in_flight), {}).get(key)))
        if any(cell != "—" for cell in cells):
            print(f"| {label} | " + " | ".join(cells) + " |")
    if failed:
        print(f"\n{len(failed)} phase(s) failed and are left out: "
              + ", ".join(f"round {p['round']} {p['system']} at {p['in_flight']}" for p in failed))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--phase":
        phase_line(int(sys.argv[2]))
    elif len(sys.argv) == 8 and sys.argv[1] == "--summary":
        summary(int(sys.argv[2]), *sys.argv[3:8])
    else:
        sys.exit(__doc__)
