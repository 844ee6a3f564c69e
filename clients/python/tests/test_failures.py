"""Failures against real processes: timeouts that name the endpoints and what was known of them, retries on
``overloaded`` from a full broker queue, the deadline carried to the worker, several brokers with one down."""

from __future__ import annotations

import logging
import re
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tally import TallyClient, TallyError, TallyTimeoutError
from tally.testing import free_loopback_port, start_broker, start_worker, wait_until_served


def test_a_broker_that_is_down_times_out_naming_its_endpoint_as_never_connected() -> None:
    endpoint = f"tcp://127.0.0.1:{free_loopback_port()}"
    with TallyClient(endpoint, timeout=0.6) as client:
        started = time.monotonic()
        with pytest.raises(TallyTimeoutError) as raised:
            client.call("history.months", {"time_zone": "UTC", "today": "2026-11-23"})
        elapsed = time.monotonic() - started
    failure = raised.value
    assert 0.55 <= elapsed <= 3, "the call ends at its deadline"
    assert failure.code == "timeout" and failure.timeout == pytest.approx(0.6, abs=0.01)
    assert f"{endpoint} (never connected" in str(failure)
    [state] = failure.endpoints
    assert state.endpoint == endpoint and not state.connected and not state.ever_connected
    assert all(attempt.outcome == "timeout" and attempt.message.startswith("not sent") for attempt in failure.attempts)


def test_a_service_nobody_serves_times_out_naming_the_connected_broker(bin_dir: str) -> None:
    # Its own broker, whose grace for a service without workers outlasts the call: the shared cluster's broker may
    # be older than its grace by the time this runs, and would then answer `unavailable` at once.
    broker, endpoint = start_broker(["--service-grace", "1h"], bin_dir=bin_dir)
    try:
        with TallyClient(endpoint, timeout=0.6) as client, pytest.raises(TallyTimeoutError) as raised:
            client.call("history.months", {"time_zone": "UTC", "today": "2026-11-23"}, service="tally.nobody")
    finally:
        broker.stop()
    failure = raised.value
    assert f"from {endpoint} (connected)" in str(failure)
    assert len(failure.attempts) >= 2, "the call was retried"
    assert all(attempt.outcome == "timeout" and attempt.message == "no answer" for attempt in failure.attempts)


def test_a_full_queue_answers_overloaded_and_retries_get_every_call_through(
    bin_dir: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A queue of one request before a worker that takes one at a time, 300 ms each: most of a burst is refused."""
    broker, endpoint = start_broker(["--max-queue", "1"], bin_dir=bin_dir)
    worker = start_worker(
        endpoint,
        ["--service", "tally.history", "--concurrency", "1", "--io-threads", "1", "--simulated-latency", "300ms"],
        bin_dir=bin_dir,
    )
    try:
        burst = 6
        with TallyClient(endpoint, timeout=10, retries=0) as impatient:
            wait_until_served(impatient, ["tally.history"])
            together = threading.Barrier(burst)

            def ping_once(_: int) -> object:
                together.wait()
                return outcome_of(impatient)

            with ThreadPoolExecutor(burst) as pool:
                outcomes = list(pool.map(ping_once, range(burst)))
        refusals = [outcome for outcome in outcomes if isinstance(outcome, TallyError)]
        assert refusals, f"a burst of {burst} should overflow a queue of 1: {outcomes}"
        assert all(refusal.code == "overloaded" for refusal in refusals), refusals
        assert refusals[0].details.get("service") == "tally.history"
        assert refusals[0].details.get("retry_after_ms", 0) > 0

        caplog.set_level(logging.DEBUG, logger="tally.client")
        with TallyClient(endpoint, timeout=15, retries=8) as patient:
            start = threading.Barrier(burst)

            def ping(_: int) -> str:
                start.wait()
                return patient.system_ping().service

            with ThreadPoolExecutor(burst) as pool:
                assert list(pool.map(ping, range(burst))) == ["tally.history"] * burst
        retried_after = [getattr(record, "tally_after", None) for record in caplog.records]
        assert "overloaded" in retried_after, "some calls got through only by retrying"
    finally:
        worker.stop()
        broker.stop()


def outcome_of(client: TallyClient) -> object:
    try:
        return client.system_ping()
    except TallyError as refused:
        return refused


def metric(text: str, name: str, labels: str) -> float:
    """One sample of a Prometheus text page (0 when the series is absent)."""
    found = re.search(rf"^{re.escape(name)}\{{{re.escape(labels)}\}} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_the_deadline_reaches_the_worker_which_does_not_compute_a_request_its_caller_gave_up_on(bin_dir: str) -> None:
    http = f"127.0.0.1:{free_loopback_port()}"
    broker, endpoint = start_broker(bin_dir=bin_dir)
    worker = start_worker(
        endpoint,
        ["--service", "tally.history", "--concurrency", "1", "--simulated-latency", "500ms", "--http", http],
        bin_dir=bin_dir,
    )
    try:
        with TallyClient(endpoint) as client:
            wait_until_served(client, ["tally.history"])
            with pytest.raises(TallyTimeoutError):
                client.system_ping(timeout=0.25, retries=0)
            assert client.system_ping(timeout=5).service == "tally.history"  # a deadline that leaves time
            labels = 'service="tally.history",method="system.ping"'
            deadline = time.monotonic() + 5
            while True:
                page = urllib.request.urlopen(f"http://{http}/metrics", timeout=2).read().decode()
                expired = metric(page, "tally_worker_requests_total", labels + ',outcome="deadline_exceeded"')
                if expired >= 1 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
        assert expired == 1, "the first ping reached the worker after its deadline and was answered expired"
        assert metric(page, "tally_worker_computations_total", labels) == 1, "only the second ping was computed"
    finally:
        worker.stop()
        broker.stop()


def test_with_several_brokers_calls_go_to_those_that_are_up_and_survive_one_dying(bin_dir: str) -> None:
    first, first_endpoint = start_broker(bin_dir=bin_dir, name="broker-a")
    second, second_endpoint = start_broker(bin_dir=bin_dir, name="broker-b")
    down = f"tcp://127.0.0.1:{free_loopback_port()}"
    worker = start_worker([first_endpoint, second_endpoint], bin_dir=bin_dir)
    try:
        with TallyClient([down, first_endpoint, second_endpoint], timeout=5) as client:
            for endpoint in (first_endpoint, second_endpoint):
                with TallyClient(endpoint) as probe:
                    wait_until_served(probe)
            for _ in range(30):
                assert client.system_ping().protocol_versions == [1]
            states = {state.endpoint: state for state in client.endpoints()}
            assert states[first_endpoint].connected and states[second_endpoint].connected
            assert not states[down].ever_connected

            first.kill()  # without a word: requests it held are lost, their retries go to the other broker
            with ThreadPoolExecutor(4) as pool:
                pongs = list(pool.map(lambda _: client.system_ping().service, range(40)))
            assert pongs == ["tally.history"] * 40
            states = {state.endpoint: state for state in client.endpoints()}
            assert not states[first_endpoint].connected and states[first_endpoint].ever_connected

            second.kill()
            with pytest.raises(TallyTimeoutError) as raised:
                client.system_ping(timeout=0.5)
            message = str(raised.value)
            assert all(endpoint in message for endpoint in (down, first_endpoint, second_endpoint)), message
            assert f"{first_endpoint} (disconnected" in message
    finally:
        for process in (worker, first, second):
            process.kill()  # a worker whose brokers died would wait out its goodbye
            process.stop()
