"""Trace context on every call: ``traceparent=`` on typed calls as on ``call()``, and, with opentelemetry-api
installed, the current span's context taken by itself (an explicit ``traceparent=`` wins); without the package (or
without a current span) no ``trace`` is sent. Against a real worker, the trace reaches its log lines."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from fake_broker import FakeBroker, Received, ok
from tally import AsyncTallyClient, TallyClient, _tracing
from tally.models import HistoryMonthsParams
from tally.testing import LocalCluster


@pytest.fixture
def trace() -> Any:
    """opentelemetry-api's ``opentelemetry.trace`` (scripts/install-dependencies --test installs it)."""
    return pytest.importorskip("opentelemetry.trace", reason="the tests of the otel path need opentelemetry-api")


@pytest.fixture
def tracer(trace: Any) -> Any:
    """A tracer of opentelemetry-sdk, which makes real (valid, recording) spans; no global provider is set."""
    sdk_trace = pytest.importorskip("opentelemetry.sdk.trace", reason="opentelemetry-sdk makes the real spans")
    return sdk_trace.TracerProvider().get_tracer("tally-tests")

GIVEN = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
PARAMS = HistoryMonthsParams(time_zone="UTC", today="2026-11-23")
MONTHS = {"as_of": "2026-11-23", "current_month": "2026-11", "months": ["2026-11"], "locked_months": 0,
          "future_records_ignored": 0}
PING = {"server_version": "0.1.0", "protocol_versions": [1], "uptime_seconds": 1.0, "service": "tally.history",
        "worker": "fake/1", "connection": 0}


@pytest.fixture(autouse=True)
def fresh_import() -> Iterator[None]:
    """Each test finds (or misses) opentelemetry afresh, and leaves it to be found again."""
    _tracing.forget_opentelemetry()
    yield
    _tracing.forget_opentelemetry()


@pytest.fixture
def broker() -> Iterator[FakeBroker]:
    def answer(request: Received, broker: FakeBroker) -> list[object]:
        return [ok(request, PING if request.envelope.get("method") == "system.ping" else MONTHS)]

    with FakeBroker(answer) as started:
        yield started


def sent_trace(broker: FakeBroker) -> Any:
    return broker.requests()[-1].envelope.get("trace")


def traceparent_of(span: Any) -> str:
    context = span.get_span_context()
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"


def test_typed_calls_take_a_traceparent(broker: FakeBroker) -> None:
    with TallyClient(broker.endpoint) as client:
        client.history_months(PARAMS, traceparent=GIVEN)
        assert sent_trace(broker) == {"traceparent": GIVEN}
        client.system_ping(traceparent=GIVEN)
        assert sent_trace(broker) == {"traceparent": GIVEN}
        body = broker.requests()[-1].body
        assert body.index(b'"trace"') < body.index(b'"deadline"')

    async def main() -> None:
        async with AsyncTallyClient(broker.endpoint) as client:
            await client.history_months(PARAMS, traceparent=GIVEN)

    asyncio.run(main())
    assert sent_trace(broker) == {"traceparent": GIVEN}


def test_without_a_current_span_nothing_is_sent(broker: FakeBroker) -> None:
    with TallyClient(broker.endpoint) as client:
        client.history_months(PARAMS)
    assert sent_trace(broker) is None


def test_the_current_span_is_sent_and_an_explicit_traceparent_wins(broker: FakeBroker, tracer: Any) -> None:
    with TallyClient(broker.endpoint) as client, tracer.start_as_current_span("backend request") as span:
        client.history_months(PARAMS)
        assert sent_trace(broker) == {"traceparent": traceparent_of(span)}
        client.call("history.months", PARAMS)
        assert sent_trace(broker) == {"traceparent": traceparent_of(span)}
        client.history_months(PARAMS, traceparent=GIVEN)
        assert sent_trace(broker) == {"traceparent": GIVEN}


def test_an_unsampled_span_and_its_tracestate_are_carried(broker: FakeBroker, trace: Any) -> None:
    context = trace.SpanContext(
        trace_id=0x0AF7651916CD43DD8448EB211C80319C, span_id=0xB7AD6B7169203331, is_remote=True,
        trace_flags=trace.TraceFlags(0), trace_state=trace.TraceState([("congo", "t61rcWkgMzE"), ("rojo", "00f067")]))
    with TallyClient(broker.endpoint) as client, trace.use_span(trace.NonRecordingSpan(context)):
        client.history_months(PARAMS)
    assert sent_trace(broker) == {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00",
                                  "tracestate": "congo=t61rcWkgMzE,rojo=00f067"}


def test_asyncio_calls_carry_the_span_of_their_task(broker: FakeBroker, tracer: Any) -> None:

    async def traced(client: AsyncTallyClient, name: str) -> tuple[str, Any]:
        with tracer.start_as_current_span(name) as span:
            await asyncio.sleep(0)
            result = await client.call("history.months", PARAMS)
            return traceparent_of(span), result

    async def main() -> list[str]:
        async with AsyncTallyClient(broker.endpoint) as client:
            return [parent for parent, _ in await asyncio.gather(*(traced(client, f"task {n}") for n in range(5)))]

    parents = asyncio.run(main())
    assert sorted(parents) == sorted(request.envelope["trace"]["traceparent"] for request in broker.requests())
    assert len(set(parents)) == 5


def test_without_opentelemetry_installed_nothing_is_sent(broker: FakeBroker, monkeypatch: pytest.MonkeyPatch) -> None:
    # As if opentelemetry-api were not installed: importing it raises ImportError (and needs nothing installed).
    monkeypatch.setitem(sys.modules, "opentelemetry.trace", None)
    assert _tracing.current_trace() is None
    with TallyClient(broker.endpoint) as client:
        client.history_months(PARAMS)
        assert sent_trace(broker) is None
        client.history_months(PARAMS, traceparent=GIVEN)
        assert sent_trace(broker) == {"traceparent": GIVEN}


def test_a_span_is_not_looked_for_once_opentelemetry_is_found_missing(
    broker: FakeBroker, monkeypatch: pytest.MonkeyPatch, tracer: Any
) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry.trace", None)
    with TallyClient(broker.endpoint) as client:
        client.history_months(PARAMS)  # finds opentelemetry missing
        monkeypatch.undo()
        with tracer.start_as_current_span("backend request"):
            client.history_months(PARAMS)
    assert sent_trace(broker) is None


def test_the_trace_reaches_the_real_workers_log_lines(bin_dir: str, tracer: Any) -> None:
    with (
        LocalCluster.start(workers=1, bin_dir=bin_dir, worker_arguments=["--log-level", "debug"]) as cluster,
        TallyClient(cluster.endpoint) as client,
    ):
        cluster.wait_until_served(client, ["tally.history"])
        with tracer.start_as_current_span("backend request") as span:
            client.history_months(PARAMS)
        context = span.get_span_context()
        trace_id, span_id = f"trace_id={context.trace_id:032x}", f"span_id={context.span_id:016x}"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            lines = [line for line in cluster.workers[0].error_output().splitlines() if "request answered" in line]
            if lines:
                break
            time.sleep(0.05)
        assert any(trace_id in line and span_id in line and "tally.method=history.months" in line for line in lines)
        client.history_months(PARAMS, traceparent=GIVEN)
        time.sleep(0.3)
        assert "trace_id=4bf92f3577b34da6a3ce929d0e0e4736" in cluster.workers[0].error_output()


