"""The client against a scripted broker: what goes on the wire (frames, envelope, deadline), retries and their
history, replies matched by id in any order, garbage ignored, calls in flight from several threads."""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, timezone

import pytest

from fake_broker import FakeBroker, Received, error, ok
from tally import TallyClient, TallyError, TallyTimeoutError
from tally.models import HistoryMonthsParams, SystemPingParams

PING_RESULT = {
    "server_version": "test",
    "protocol_versions": [1],
    "uptime_seconds": 1.5,
    "service": "tally.history",
    "worker": "fake/1",
    "connection": 0,
}


def parse_instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_call_sends_an_mdp_request_with_the_v1_envelope_and_its_deadline() -> None:
    with FakeBroker(lambda request, _: [ok(request, PING_RESULT)]) as broker, TallyClient(broker.endpoint) as client:
        before = datetime.now(UTC)
        client.call("history.months", {"time_zone": "UTC", "today": "2026-11-23"}, timeout=2.0,
                    traceparent="00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        [request] = broker.requests()
    assert request.service == "tally.history"
    envelope = request.envelope
    assert envelope["version"] == 1 and envelope["method"] == "history.months"
    assert envelope["params"] == {"time_zone": "UTC", "today": "2026-11-23"}
    assert isinstance(envelope["id"], str) and 1 <= len(envelope["id"]) <= 128
    assert envelope["trace"] == {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
    assert envelope["deadline"].endswith("Z")
    sent = parse_instant(envelope["deadline"])
    assert before + timedelta(seconds=1.9) <= sent <= before + timedelta(seconds=2.5)


def test_an_explicit_deadline_is_sent_as_given_and_bounds_the_call() -> None:
    deadline = datetime.now(timezone(timedelta(hours=2))) + timedelta(milliseconds=700)
    with FakeBroker(lambda request, _: None) as broker, TallyClient(broker.endpoint, timeout=30) as client:
        started = time.monotonic()
        with pytest.raises(TallyTimeoutError):
            client.system_ping(deadline=deadline)
        elapsed = time.monotonic() - started
        sent = parse_instant(broker.requests()[0].envelope["deadline"])
    assert abs((sent - deadline).total_seconds()) < 0.001  # milliseconds, in UTC
    assert 0.6 <= elapsed <= 5, "the deadline, not the client's 30 s timeout, ends the call"


def test_a_deadline_without_a_timeout_replaces_the_clients_default_timeout() -> None:
    def answer_late(request: Received, broker: FakeBroker) -> list:
        threading.Timer(1.2, broker.send_later, (request.sender, ok(request, PING_RESULT))).start()
        return []

    with FakeBroker(answer_late) as broker, TallyClient(broker.endpoint, timeout=0.3, retries=0) as client:
        deadline = datetime.now(UTC) + timedelta(seconds=3)
        assert client.system_ping(deadline=deadline).worker == "fake/1"
        assert len(broker.requests()) == 1


def test_ping_takes_no_params_and_every_service() -> None:
    with FakeBroker(lambda request, _: [ok(request, PING_RESULT)]) as broker, TallyClient(broker.endpoint) as client:
        assert client.system_ping().worker == "fake/1"
        assert client.system_ping(SystemPingParams(), service="tally.streak").protocol_versions == [1]
        first, second = broker.requests()
    assert "params" not in first.envelope and first.service == "tally.history"
    assert second.envelope["params"] == {} and second.service == "tally.streak"


def test_overloaded_is_retried_with_the_same_request_after_the_back_off_asked_for() -> None:
    def refuse_twice(request: Received, broker: FakeBroker) -> list:
        if len(broker.requests()) <= 2:
            return [error(request, "overloaded", "queue full", service="tally.history", retry_after_ms=150)]
        return [ok(request, PING_RESULT)]

    with FakeBroker(refuse_twice) as broker, TallyClient(broker.endpoint, timeout=5, retries=2) as client:
        assert client.system_ping().service == "tally.history"
        requests = broker.requests()
    assert len(requests) == 3
    assert len({request.envelope["id"] for request in requests}) == 1
    assert len({request.envelope["deadline"] for request in requests}) == 1
    gaps = [later.at - earlier.at for earlier, later in itertools.pairwise(requests)]
    assert all(gap >= 0.14 for gap in gaps), gaps


def test_when_retries_are_spent_the_error_carries_every_attempt() -> None:
    def refuse(request: Received, _: FakeBroker) -> list:
        return [error(request, "overloaded", "queue full", service="tally.history", retry_after_ms=10)]

    with FakeBroker(refuse) as broker, TallyClient(broker.endpoint, retries=2) as client:
        with pytest.raises(TallyError) as raised:
            client.call("history.months", {"time_zone": "UTC", "today": "2026-11-23"})
        assert len(broker.requests()) == 3
    failure = raised.value
    assert failure.code == "overloaded" and failure.message == "queue full"
    assert failure.details == {"service": "tally.history", "retry_after_ms": 10}
    assert failure.method == "history.months" and failure.retryable
    assert [(attempt.number, attempt.outcome) for attempt in failure.attempts] == [
        (1, "overloaded"), (2, "overloaded"), (3, "overloaded")]
    assert "attempts: #1 overloaded" in str(failure)


@pytest.mark.parametrize("code", ["invalid_params", "internal", "pro_required"])
def test_errors_other_than_overloaded_and_unavailable_are_not_retried(code: str) -> None:
    def answer(request: Received, _: FakeBroker) -> list:
        return [error(request, code, "no", field="params.month")]

    with FakeBroker(answer) as broker, TallyClient(broker.endpoint, retries=3) as client:
        with pytest.raises(TallyError) as raised:
            client.call("history.months", {})
        assert len(broker.requests()) == 1
    assert raised.value.code == code and raised.value.field == "params.month"
    assert len(raised.value.attempts) == 1


def test_an_attempt_that_times_out_is_retried_and_its_answer_returned() -> None:
    def ignore_the_first(request: Received, broker: FakeBroker) -> list:
        return [] if len(broker.requests()) == 1 else [ok(request, PING_RESULT)]

    with FakeBroker(ignore_the_first) as broker, TallyClient(broker.endpoint, timeout=1.5) as client:
        started = time.monotonic()
        client.system_ping()
        elapsed = time.monotonic() - started
        assert len(broker.requests()) == 2
    assert 0.45 <= elapsed <= 3  # the first attempt had a third of 1.5 s


def test_replies_in_reverse_order_reach_their_own_callers_while_every_call_is_in_flight() -> None:
    """Eight threads call at once; the broker answers only once it holds all eight, last first."""
    threads = 8

    def hold_then_reverse(request: Received, broker: FakeBroker) -> list:
        held = broker.requests()
        if len(held) == threads:
            for waiting in reversed(held):
                broker.send_later(waiting.sender, ok(waiting, {"echo": waiting.envelope["params"]["n"]}))
        return []

    with FakeBroker(hold_then_reverse) as broker, TallyClient(broker.endpoint, timeout=5, retries=0) as client:
        start = threading.Barrier(threads)

        def one(n: int) -> int:
            start.wait()
            return int(client.call("history.months", {"n": n})["echo"])

        with ThreadPoolExecutor(threads) as pool:
            answers = list(pool.map(one, range(threads)))
    assert answers == list(range(threads))


def test_garbage_strangers_and_duplicates_do_not_disturb_the_answer() -> None:
    def noisy(request: Received, _: FakeBroker) -> list:
        return [
            b"not json at all",
            ok(request, {"answer": "stranger"}) | {"id": "nobody-sent-this"},
            [b"", b"MDPW01", b"\x04"],  # a worker command on a client socket
            [b"", b"MDPC01"],  # too few frames
            ok(request, PING_RESULT),
            ok(request, PING_RESULT | {"worker": "the duplicate"}),
        ]

    with FakeBroker(noisy) as broker, TallyClient(broker.endpoint) as client:
        assert client.system_ping().worker == "fake/1"
        assert client.system_ping().worker == "fake/1"  # the earlier duplicate was not taken for this answer


def test_a_result_that_does_not_match_its_schema_is_an_invalid_response() -> None:
    def answer(request: Received, _: FakeBroker) -> list:
        return [ok(request, {"as_of": "2026-11-23"})]

    with FakeBroker(answer) as broker, TallyClient(broker.endpoint) as client, pytest.raises(TallyError) as raised:
        client.history_months(HistoryMonthsParams(time_zone="UTC", today="2026-11-23"))
    assert raised.value.code == "invalid_response"
    assert "result.current_month: is required" in raised.value.message


def test_futures_let_one_thread_keep_many_calls_in_flight() -> None:
    count = 200

    def answer_when_all_arrived(request: Received, broker: FakeBroker) -> list:
        held = broker.requests()
        if len(held) == count:
            for waiting in held:
                broker.send_later(waiting.sender, ok(waiting, {"n": waiting.envelope["params"]["n"]}))
        return []

    with FakeBroker(answer_when_all_arrived) as broker, TallyClient(broker.endpoint, retries=0) as client:
        futures = [client.submit("history.months", {"n": n}) for n in range(count)]
        assert [future.result(10)["n"] for future in futures] == list(range(count))
