"""The client's lifetime and its refusals: bad arguments fail at once with what is wrong, a closed client takes no
calls and ends the ones waiting, a dropped client stops its thread, a cancelled asyncio call is forgotten."""

from __future__ import annotations

import asyncio
import gc
import pathlib
import re
import threading
import time
from concurrent.futures import Future
from datetime import datetime, timedelta
from typing import Any

import pytest
import zmq

from fake_broker import FakeBroker
from tally import AsyncTallyClient, ClientClosedError, ModelError, TallyClient
from tally._callbook import Call, RetryPolicy
from tally._core import parse_duration, result_of, settings_from_environment
from tally._io import IOLoop, SocketSettings, StartCall, StopLoop
from tally.testing import free_loopback_port

NOWHERE = f"tcp://127.0.0.1:{free_loopback_port()}"


def silent(request: object, broker: object) -> None:
    """A broker script that never answers."""
    return None


def io_threads() -> int:
    return sum(thread.name == "tally-client-io" for thread in threading.enumerate())


@pytest.mark.parametrize(
    "brokers, options, problem",
    [
        ([], {}, "at least one broker endpoint"),
        (["localhost:5555"], {}, "tcp://HOST:PORT, ipc://PATH or inproc://NAME, not 'localhost:5555'"),
        ([NOWHERE, 5555], {}, "not 5555"),
        (["tcp://"], {}, "not 'tcp://'"),
        (["tcp://no-port-here"], {}, "cannot connect to broker 'tcp://no-port-here'"),
        ([NOWHERE], {"timeout": 0}, "timeout must be a positive number of seconds, not 0"),
        ([NOWHERE], {"timeout": float("nan")}, "timeout must be a positive number"),
        ([NOWHERE], {"timeout": "5s"}, "timeout must be a positive number of seconds, not '5s'"),
        ([NOWHERE], {"retries": -1}, "retries must be an integer ≥ 0, not -1"),
        ([NOWHERE], {"attempt_timeout": -1}, "attempt_timeout must be a positive number"),
        ([NOWHERE], {"heartbeat": 0}, "heartbeat must be a positive number"),
        ([NOWHERE], {"heartbeat_timeout": 0}, "heartbeat_timeout must be a positive number"),
    ],
)
def test_settings_that_cannot_work_are_refused_naming_the_problem(
    brokers: list[Any], options: dict[str, Any], problem: str
) -> None:
    before = io_threads()
    with pytest.raises(ValueError, match=re.escape(problem)):
        TallyClient(brokers, **options)
    assert io_threads() == before, "nothing keeps running after a refused setting"


def test_calls_that_cannot_be_sent_are_refused_before_anything_is_sent() -> None:
    with FakeBroker(silent) as broker, TallyClient(broker.endpoint) as client:
        with pytest.raises(ValueError, match=r"method must be 'area\.name'.*not 'ping'"):
            client.call("ping")
        with pytest.raises(ValueError, match=r"'mmi\.service' is a management \(MMI\) name"):
            client.call("system.ping", service="mmi.service")
        with pytest.raises(ValueError, match="a service is a name of 1 to 255 bytes"):
            client.call("system.ping", service="")
        with pytest.raises(TypeError, match=r"cannot be written as JSON.*object"):
            client.call("history.months", {"today": object()})
        with pytest.raises(ModelError, match=r"params\.records\[0\]\.date: is a naive datetime, which names no moment"):
            client.call("history.months", {"records": [{"date": datetime.now()}]})
        with pytest.raises(TypeError, match="params must be a params model or a mapping, not list"):
            client.call("history.months", [1, 2])
        with pytest.raises(ValueError, match="deadline must be an aware datetime"):
            client.call("system.ping", deadline=datetime.now() + timedelta(seconds=1))
        with pytest.raises(ValueError, match="a request id must be a string of 1 to 128 characters"):
            client.send_envelope({"version": 1, "id": "x" * 129, "method": "system.ping"}, service="tally.history")
        with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
            client.system_ping(timeout=-1)
        assert broker.requests() == []


def test_a_closed_client_refuses_calls_and_ends_those_still_waiting() -> None:
    with FakeBroker(silent) as broker:
        client = TallyClient(broker.endpoint, timeout=30)
        waiting = client.submit("system.ping")
        broker.wait_for_requests(1)
        started = time.monotonic()
        client.close()
        with pytest.raises(ClientClosedError):
            waiting.result(timeout=5)
        assert time.monotonic() - started < 2
        assert client.closed
        with pytest.raises(ClientClosedError):
            client.system_ping()
        client.close()  # twice is fine


def test_calls_that_arrive_in_the_same_batch_as_the_stop_end_with_the_client() -> None:
    loop = IOLoop(zmq.Context(), [NOWHERE], None, SocketSettings(), owns_context=True)  # its thread never runs
    call = Call(1, "r-1", "tally.history", [b""], started=0.0, deadline=5.0, policy=RetryPolicy())
    future: Future[Any] = Future()
    assert loop._execute_commands([StopLoop(), StartCall(call, future, result_of)]) is False
    loop._shut_down("the Tally client is closed")
    with pytest.raises(ClientClosedError, match="closed"):
        future.result(timeout=0)


def test_a_client_dropped_without_close_stops_its_thread() -> None:
    before = io_threads()
    client = TallyClient(NOWHERE)
    assert io_threads() == before + 1
    del client
    gc.collect()
    deadline = time.monotonic() + 5
    while io_threads() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert io_threads() == before


def test_a_cancelled_asyncio_call_is_forgotten() -> None:
    async def main() -> None:
        with FakeBroker(silent) as broker:
            async with AsyncTallyClient(broker.endpoint, timeout=30) as client:
                task = asyncio.create_task(client.system_ping())
                await asyncio.to_thread(broker.wait_for_requests, 1)
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
                book = client._core._loop.book  # the client's own bookkeeping: nothing left waiting
                for _ in range(200):
                    if len(book) == 0:
                        break
                    await asyncio.sleep(0.01)
                assert len(book) == 0
            assert client.closed

    asyncio.run(main())


def test_settings_come_from_the_variables_the_cli_reads(tmp_path: pathlib.Path) -> None:
    settings = settings_from_environment({"TALLY_BROKERS": "tcp://a:5555, tcp://b:5555", "TALLY_TIMEOUT": "1m30s"})
    assert settings == {"brokers": ["tcp://a:5555", "tcp://b:5555"], "timeout": 90.0}
    assert settings_from_environment({}) == {"brokers": ["tcp://127.0.0.1:5555"]}
    with pytest.raises(ValueError, match="TALLY_CURVE_SECRET_KEY and TALLY_CURVE_SERVER_KEY together"):
        settings_from_environment({"TALLY_CURVE_SECRET_KEY": str(tmp_path / "app.key")})
    with pytest.raises(ValueError, match="TALLY_TIMEOUT: 'soon' is not a duration"):
        settings_from_environment({"TALLY_TIMEOUT": "soon"})
    beats = settings_from_environment({"TALLY_BROKER_HEARTBEAT": "100ms", "TALLY_BROKER_TIMEOUT": "2s"})
    assert (beats["heartbeat"], beats["heartbeat_timeout"]) == (0.1, 2.0)
    assert settings_from_environment({"TALLY_BROKER_HEARTBEAT": "0"})["heartbeat"] is None


@pytest.mark.parametrize("text, seconds", [("250ms", 0.25), ("2.5s", 2.5), ("1m30s", 90), ("1h15m", 4500),
                                           ("750", 0.75)])
def test_durations_are_read_as_the_binaries_read_them(text: str, seconds: float) -> None:
    assert parse_duration(text, "TALLY_TIMEOUT") == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["", "5 s", "s", "1.5.2s", "-1s", "0s", "1d"])
def test_durations_that_are_not_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text, "TALLY_TIMEOUT")
