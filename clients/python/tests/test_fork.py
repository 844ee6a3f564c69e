"""A client made before ``os.fork()`` (gunicorn ``--preload``, Celery's prefork pool): it works in the child, it
keeps working in the parent, and nothing either had in flight waits on a thread that is not there."""

from __future__ import annotations

import asyncio
import json
import os
import select
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tally import AsyncTallyClient, ClientClosedError, TallyClient
from tally.aio import _outcome
from tally.testing import LocalCluster


@pytest.fixture(scope="module")
def slow_cluster(bin_dir: str) -> Iterator[LocalCluster]:
    """A worker that takes 1.5 s per request, so that a call is surely in flight when the test forks."""
    with LocalCluster.start(workers=1, bin_dir=bin_dir, worker_arguments=["--simulated-latency", "1500ms"]) as started:
        yield started


def in_child(body: Callable[[], Any], timeout: float = 30.0) -> Any:
    """Forks; the child runs ``body`` and sends back its result (or its error, as text) through a pipe. The parent
    waits for it at most ``timeout`` seconds (a hang is a failure, and the child is killed)."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, and leave without running the parent's cleanup
        os.close(reading)
        try:
            outcome = {"value": body()}
        except BaseException as error:
            outcome = {"error": f"{type(error).__name__}: {error}"}
        os.write(writing, json.dumps(outcome, default=str).encode())
        os._exit(0)
    os.close(writing)
    try:
        ready, _, _ = select.select([reading], [], [], timeout)
        if not ready:
            os.kill(pid, 9)
            pytest.fail(f"the forked child did not finish within {timeout} s")
        data = b""
        while chunk := os.read(reading, 65536):
            data += chunk
    finally:
        os.close(reading)
        os.waitpid(pid, 0)
    return json.loads(data)


def test_a_client_made_before_a_fork_serves_the_child_and_the_parent(cluster: LocalCluster) -> None:
    with TallyClient(cluster.endpoint) as tally:
        cluster.wait_until_served(tally)
        parent_before = tally.call("system.ping")

        def child() -> dict[str, Any]:
            pings = [tally.call("system.ping", timeout=10.0) for _ in range(3)]
            connected = [endpoint.connected for endpoint in tally.endpoints()]
            return {"workers": [ping["worker"] for ping in pings], "connected": connected}

        outcome = in_child(child)
        assert "error" not in outcome, outcome
        assert len(outcome["value"]["workers"]) == 3 and outcome["value"]["connected"] == [True]
        assert tally.call("system.ping")["worker"] == parent_before["worker"], "the parent goes on as before"


def test_a_call_in_flight_at_the_fork_is_answered_in_the_parent_alone(slow_cluster: LocalCluster) -> None:
    with TallyClient(slow_cluster.endpoint, timeout=20.0, retries=0) as tally:
        slow_cluster.wait_until_served(tally)
        in_flight = tally.submit("system.ping")
        time.sleep(0.2)  # on its way to the worker

        def child() -> dict[str, Any]:
            own = tally.call("system.ping", timeout=15.0)  # on the child's own connection, after the parent's
            return {"own": own["service"], "parents_call_done_here": in_flight.done()}

        outcome = in_child(child)
        assert outcome == {"value": {"own": "tally.history", "parents_call_done_here": False}}, outcome
        assert in_flight.result(timeout=20.0)["service"] == "tally.history", "answered in the parent"


@pytest.mark.parametrize("waiting", ["blocking", "asyncio"])
def test_a_call_waited_on_where_its_io_thread_is_gone_fails_within_a_second_not_at_its_deadline(
    slow_cluster: LocalCluster, waiting: str
) -> None:
    """A call started in the parent and waited on in the child, where no thread will ever end it: the wait checks
    once a second that the call's I/O thread is there, rather than wait for a deadline a minute away."""
    with TallyClient(slow_cluster.endpoint, timeout=60.0, retries=0) as tally:
        slow_cluster.wait_until_served(tally)
        in_flight = tally.submit("system.ping")
        time.sleep(0.2)

        def child() -> dict[str, Any]:
            started = time.monotonic()
            try:
                if waiting == "blocking":
                    tally._wait(in_flight)
                else:
                    asyncio.run(_outcome(in_flight))
                return {"outcome": "answered", "waited": time.monotonic() - started}
            except ClientClosedError as error:
                return {"outcome": f"closed: {error}", "waited": time.monotonic() - started}

        outcome = in_child(child)["value"]
        assert outcome["outcome"].startswith("closed") and outcome["waited"] < 5.0, outcome
        assert in_flight.result(timeout=20.0)["service"] == "tally.history"


def test_an_async_client_made_before_a_fork_serves_an_event_loop_in_the_child(cluster: LocalCluster) -> None:
    tally = AsyncTallyClient(cluster.endpoint)
    try:
        asyncio.run(tally.call("system.ping"))  # used in the parent first

        def child() -> list[str]:
            async def calls() -> list[str]:
                pings = await asyncio.gather(*(tally.call("system.ping", timeout=10.0) for _ in range(4)))
                return [ping["service"] for ping in pings]

            return asyncio.run(calls())

        outcome = in_child(child)
        assert outcome == {"value": ["tally.history"] * 4}, outcome
        assert asyncio.run(tally.call("system.ping"))["service"] == "tally.history"
    finally:
        asyncio.run(tally.aclose())
