#!/usr/bin/env python3
"""A long-lived Python Tally client with its default settings, calling at a steady rate, for the vanished-host
tests and drill.

    steady_client.py BROKERS RATE SECONDS [TIMEOUT] [RECORDS_FILE]

BROKERS is comma-separated. Starts RATE `system.ping` calls a second for SECONDS on one `tally.TallyClient` (open
loop: each call starts on its schedule, whatever the others do), each with the client's default retries and a
budget of TIMEOUT seconds (default 5). Waits for every call to end, then prints one JSON line and exits 0:
{"calls", "ok", "failed": {code: n}, "ended_twice", "slowest_s", "over_1s", "endpoints": [str]}. With
RECORDS_FILE, writes one line per call there: its start as wall-clock seconds, its duration and its outcome (the
drill counts the calls started after a cut). SIGTERM ends the schedule early: no call starts after it, those
started are waited for and reported as above, so a test can end the calls on an event of its own.
"""

from __future__ import annotations

import json
import pathlib
import signal
import sys
import threading
import time
from concurrent.futures import Future
from typing import Any

# This checkout's client, whatever another clone installed.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "clients" / "python"))

from tally import TallyClient, TallyError


def main(brokers: str, rate: str, seconds: str, timeout: str = "5", records_file: str | None = None) -> int:
    scheduled_count = int(float(rate) * float(seconds))
    stopped = False

    def stop(*_: object) -> None:
        # Only a flag: a handler runs between two bytecodes of the main thread, which may hold any lock of its own
        # right then (an Event's, waiting on it), so taking one here could wait for ever.
        nonlocal stopped
        stopped = True

    signal.signal(signal.SIGTERM, stop)
    # A parent may have started us with SIGTERM blocked (the mask is inherited through exec).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    lock = threading.Lock()
    ends: dict[int, list[tuple[float, str]]] = {}
    starts: dict[int, tuple[float, float]] = {}
    with TallyClient(brokers.split(","), timeout=float(timeout)) as tally:
        origin = time.monotonic()
        count = 0
        for n in range(scheduled_count):
            scheduled = origin + n / float(rate)
            pause = scheduled - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            if stopped:
                break
            count = n + 1
            starts[n] = (time.time(), time.monotonic())
            future = tally.submit("system.ping")

            def ended(done: Future[Any], n: int = n) -> None:
                try:
                    done.result()
                    outcome = "ok"
                except TallyError as error:
                    outcome = error.code
                except Exception as error:
                    outcome = type(error).__name__
                with lock:
                    ends.setdefault(n, []).append((time.monotonic(), outcome))

            future.add_done_callback(ended)
        deadline = time.monotonic() + float(timeout) + 5
        while time.monotonic() < deadline:
            with lock:
                if len(ends) == count:
                    break
            time.sleep(0.05)
        endpoints = [str(state) for state in tally.endpoints()]
    with lock:
        durations = {n: ends[n][0][0] - starts[n][1] for n in ends}
        outcomes = {n: ends[n][0][1] for n in ends}
        failed: dict[str, int] = {}
        for n in range(count):
            outcome = outcomes.get(n, "no end")
            if outcome != "ok":
                failed[outcome] = failed.get(outcome, 0) + 1
        summary = {
            "calls": count,
            "ok": sum(1 for outcome in outcomes.values() if outcome == "ok"),
            "failed": failed,
            "ended_twice": sum(1 for times in ends.values() if len(times) > 1),
            "slowest_s": round(max(durations.values(), default=0.0), 3),
            "over_1s": sum(1 for duration in durations.values() if duration > 1.0),
            "endpoints": endpoints,
        }
        if records_file:
            with open(records_file, "w") as records:
                for n in range(count):
                    duration = durations.get(n)
                    line = {"start": starts[n][0], "duration": duration, "outcome": outcomes.get(n, "no end")}
                    records.write(json.dumps(line) + "\n")
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
