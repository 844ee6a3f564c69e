#!/usr/bin/env python3
"""The vanished-host drill: what a broker or client host that goes silent (no TCP reset) costs, in figures.

    sudo Benchmarks/drill-vanished-broker.py [--cut unplug|sends-dropped|sends-to-it-dropped] [--bin DIR]
    sudo Benchmarks/drill-vanished-broker.py --scenario clients-vanish

Builds hosts as network namespaces on a virtual switch (as the tests' VirtualNetwork does; nothing outside the
namespaces is touched, and they are removed at the end), with real TCP between them.

`broker-vanishes` (the default): two broker hosts, a worker host (two tally-worker, each registered with both
brokers) and a client host, where `tally-load` (TallyClient, no retries) and the Python client (its defaults) each
call `system.ping` through both brokers at --rate calls a second for --seconds. At --cut-at seconds broker A's host
goes silent and stays so. Printed per client: calls started after the cut, those that failed or got no answer,
those that took over 1 s, the slowest, and how long after the cut the client dropped its connection to broker A
(read from `ss` on the client host every 10 ms).

`clients-vanish`: one broker host, a worker host, and a client host with --clients client connections (half busy,
half idle with no heartbeats); the client host is unplugged, and the drill prints how long the broker took to let
go of every connection it had (its `tally_broker_peer_connections`, read every 100 ms).

Figures are of this machine at this moment: compare runs made side by side, not with other machines.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
STEADY_CLIENT = REPOSITORY / "Tests" / "EndToEndTests" / "MultiHost" / "steady_client.py"
MANY_CLIENTS = REPOSITORY / "Tests" / "EndToEndTests" / "MultiHost" / "many_clients.py"


def ip(*arguments: str) -> str:
    return subprocess.run(["ip", *arguments], check=True, capture_output=True, text=True).stdout


class Network:
    """Hosts on one switch: namespace `PREFIX-role`, address 10.79.0.N, switch port `portN`."""

    def __init__(self, roles: list[str]) -> None:
        self.prefix = f"tallydrill-{os.getpid()}-"
        self.switch = self.prefix + "switch"
        self.hosts = {role: (self.prefix + role, f"10.79.0.{n + 1}", f"port{n + 1}") for n, role in enumerate(roles)}

    def create(self) -> None:
        ip("netns", "add", self.switch)
        ip("-n", self.switch, "link", "add", "bridge0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "bridge0", "up")
        for namespace, address, port in self.hosts.values():
            ip("netns", "add", namespace)
            ip("-n", namespace, "link", "set", "lo", "up")
            ip("-n", self.switch, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", namespace)
            ip("-n", self.switch, "link", "set", port, "master", "bridge0", "up")
            ip("-n", namespace, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", namespace, "link", "set", "eth0", "up")

    def remove(self) -> None:
        for namespace in [namespace for namespace, _, _ in self.hosts.values()] + [self.switch]:
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)

    def address(self, role: str) -> str:
        return self.hosts[role][1]

    def start(self, role: str, argv: list[str], log: pathlib.Path) -> subprocess.Popen[str]:
        return subprocess.Popen(
            ["ip", "netns", "exec", self.hosts[role][0], *argv],
            stdout=subprocess.PIPE, stderr=log.open("w"), text=True,
        )

    def run(self, role: str, argv: list[str]) -> str:
        return subprocess.run(
            ["ip", "netns", "exec", self.hosts[role][0], *argv], capture_output=True, text=True
        ).stdout

    def cut(self, role: str, how: str, peers: list[str]) -> None:
        if how == "unplug":
            ip("-n", self.switch, "link", "set", self.hosts[role][2], "down")
        elif how == "sends-dropped":
            for peer in peers:
                ip("-n", self.hosts[role][0], "route", "add", "blackhole", f"{self.address(peer)}/32")
        else:
            for peer in peers:
                ip("-n", self.hosts[peer][0], "route", "add", "blackhole", f"{self.address(role)}/32")


@contextmanager
def network(roles: list[str]) -> Iterator[Network]:
    net = Network(roles)
    net.create()
    try:
        yield net
    finally:
        for namespace, _, _ in net.hosts.values():
            pids = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True, text=True).stdout.split()
            for pid in pids:
                subprocess.run(["kill", "-9", pid], capture_output=True)
        net.remove()


def metric(net: Network, on: str, address: str, name: str, service: str | None = None) -> float | None:
    script = "import sys,urllib.request;print(urllib.request.urlopen(sys.argv[1],timeout=2).read().decode())"
    text = net.run(on, [sys.executable, "-c", script, f"http://{address}:9100/metrics"])
    total, found = 0.0, False
    for line in text.splitlines():
        if line.startswith(name) and (service is None or f'service="{service}"' in line):
            total += float(line.split()[-1])
            found = True
    return total if found else None


def wait_for(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.1)
    sys.exit(f"drill: {what} did not happen within {timeout} s")


def connection_gone_after(net: Network, role: str, broker: str, cut: float, programs: list[str]) -> dict[str, float]:
    """Polls `ss` on the client host until each program has no established connection to `broker` left."""
    gone: dict[str, float] = {}
    deadline = cut + 60
    while len(gone) < len(programs) and time.time() < deadline:
        listing = net.run(role, ["ss", "-tnpH", "state", "established", "dst", broker])
        for program in programs:
            if program not in gone and f'"{program}"' not in listing:
                gone[program] = time.time() - cut
        time.sleep(0.01)
    return gone


def over_one_second(hgrm: pathlib.Path) -> int | None:
    """Successes slower than 1 s, from tally-load's latency distribution (milliseconds)."""
    try:
        rows = [line.split() for line in hgrm.read_text().splitlines()[2:] if line.strip() and line[0] == " "]
    except OSError:
        return None
    counts = [(float(row[0]), int(row[2])) for row in rows if len(row) >= 3]
    if not counts:
        return None
    within = max((count for value, count in counts if value <= 1000.0), default=0)
    return counts[-1][1] - within


def broker_vanishes(options: argparse.Namespace, work: pathlib.Path) -> None:
    with network(["broker-a", "broker-b", "workers", "client"]) as net:
        endpoints = [f"tcp://{net.address(role)}:5555" for role in ("broker-a", "broker-b")]
        for role, endpoint in zip(("broker-a", "broker-b"), endpoints, strict=True):
            net.start(
                role, [f"{options.bin}/tally-broker", "--bind", endpoint, "--http", f"{net.address(role)}:9100"],
                work / f"{role}.log",
            )
        time.sleep(0.5)
        for n in range(2):
            net.start(
                "workers", [f"{options.bin}/tally-worker", "--broker", endpoints[0], "--broker", endpoints[1]],
                work / f"worker-{n}.log",
            )
        for role in ("broker-a", "broker-b"):
            wait_for(
                lambda role=role: metric(net, "client", net.address(role), "tally_broker_worker_processes",
                                         "tally.history") == 2,
                30, f"both workers registering with {role}",
            )
        seconds = str(options.seconds)
        load = net.start(
            "client",
            [f"{options.bin}/tally-load", "--broker", endpoints[0], "--broker", endpoints[1], "--rate",
             str(options.rate), "--duration", f"{seconds}s", "--timeout", "3s", "--json", "--hgrm",
             str(work / "load.hgrm")],
            work / "load.log",
        )
        records = work / "python-calls.jsonl"
        python = net.start(
            "client",
            [sys.executable, options.steady_client, ",".join(endpoints), str(options.rate), seconds, "2", str(records)],
            work / "python.log",
        )
        time.sleep(options.cut_at)
        cut = time.time()
        net.cut("broker-a", options.cut, ["workers", "client"])
        detected = connection_gone_after(net, "client", net.address("broker-a"), cut, ["tally-load", "python3"])
        load_out, _ = load.communicate(timeout=options.seconds + 60)
        python_out, _ = python.communicate(timeout=options.seconds + 60)
        report = json.loads(load_out)["tally"]
        summary = json.loads(python_out)
        calls = [json.loads(line) for line in records.read_text().splitlines()]
        after = [call for call in calls if call["start"] >= cut]
        after_failed = sum(1 for call in after if call["outcome"] != "ok")
        after_slow = sum(1 for call in after if (call["duration"] or 0) > 1.0)
        slowest = max((call["duration"] or 0 for call in after), default=0.0)
        load_after = round(options.rate * (options.seconds - options.cut_at))
        print(f"cut: {options.cut} at {options.cut_at} s of {options.seconds} s, {options.rate} calls/s per client\n")
        print("| client | calls after the cut | failed / unanswered | over 1 s | slowest | connection dropped after |")
        print("|---|---:|---:|---:|---:|---:|")
        print(
            f"| tally-load (TallyClient, no retries) | ~{load_after} | "
            f"{report['failed']} / {report['unanswered']} | {over_one_second(work / 'load.hgrm')} | "
            f"{report['latency']['max_us'] / 1e6:.3f} s (whole run) | {detected.get('tally-load', float('nan')):.2f} s |"
        )
        print(
            f"| Python client (defaults) | {len(after)} | {after_failed} / 0 | {after_slow} | {slowest:.3f} s | "
            f"{detected.get('python3', float('nan')):.2f} s |"
        )
        print(f"\nPython client, whole run: {summary}")


def established(net: Network, role: str, port: int) -> int:
    """TCP connections established to `port` on `role`'s host, as its kernel lists them."""
    return len(net.run(role, ["ss", "-tnH", "state", "established", "sport", f":{port}"]).splitlines())


def clients_vanish(options: argparse.Namespace, work: pathlib.Path) -> None:
    with network(["broker", "workers", "clients"]) as net:
        endpoint = f"tcp://{net.address('broker')}:5555"
        address = net.address("broker")
        net.start("broker", [f"{options.bin}/tally-broker", "--bind", endpoint, "--http", f"{address}:9100"],
                  work / "broker.log")
        time.sleep(0.5)
        net.start("workers", [f"{options.bin}/tally-worker", "--broker", endpoint], work / "worker.log")
        wait_for(lambda: metric(net, "broker", address, "tally_broker_worker_processes", "tally.history") == 1, 30,
                 "the worker registering")
        workers_only = established(net, "broker", 5555)
        busy = options.clients // 2
        clients = net.start("clients", [sys.executable, str(MANY_CLIENTS), endpoint, str(busy),
                                        str(options.clients - busy)], work / "clients.log")
        assert clients.stdout is not None
        clients.stdout.readline()  # ready
        wait_for(lambda: established(net, "broker", 5555) == workers_only + options.clients, 30,
                 "every client connecting")
        fds = metric(net, "broker", address, "process_open_fds")
        cut = time.monotonic()
        net.cut("clients", "unplug", [])
        left = options.clients
        while left > 0 and time.monotonic() - cut < options.patience:
            time.sleep(0.1)
            left = established(net, "broker", 5555) - workers_only
        took = time.monotonic() - cut
        after = metric(net, "broker", address, "process_open_fds")
        counted = metric(net, "broker", address, "tally_broker_peer_connections")
        what = f"let go of all of them in {took:.1f} s" if left <= 0 else f"still held {left} after {took:.0f} s"
        print(f"{options.clients} client connections ({busy} busy, {options.clients - busy} idle without "
              f"heartbeats), client host unplugged: the broker {what}; descriptors {fds:.0f} → {after:.0f}"
              + ("" if counted is None else f"; tally_broker_peer_connections {counted:.0f}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", choices=["broker-vanishes", "clients-vanish"], default="broker-vanishes")
    parser.add_argument("--cut", choices=["unplug", "sends-dropped", "sends-to-it-dropped"], default="unplug")
    parser.add_argument("--rate", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--cut-at", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--patience", type=float, default=60.0, help="clients-vanish: how long to wait, in seconds")
    default_bin = REPOSITORY / ".build" / "release"
    if not (default_bin / "tally-broker").exists():
        default_bin = REPOSITORY / ".build" / "debug"
    parser.add_argument("--bin", default=str(default_bin), help="where tally-broker, tally-worker, tally-load are")
    parser.add_argument(
        "--steady-client", default=str(STEADY_CLIENT),
        help="the Python client script; it runs the Python client of the checkout it lies in (for a before/after "
        "comparison, a copy in an older checkout)",
    )
    options = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("drill: needs root (network namespaces)")
    with tempfile.TemporaryDirectory(prefix="tally-drill-") as directory:
        work = pathlib.Path(directory)
        if options.scenario == "broker-vanishes":
            broker_vanishes(options, work)
        else:
            clients_vanish(options, work)


if __name__ == "__main__":
    main()
