"""tally.testing.FakeTally, the test double for users' tests: every Protocol example through a real client against a
fake whose handler answers what the example expects (typed results decoded; schema-level mistakes refused by the
fake itself, naming Tally's field), unknown methods, MMI, the asyncio client, and what handlers can answer."""

from __future__ import annotations

import asyncio
import copy
import fnmatch
import json
import pathlib
import time
import tomllib
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import zmq

from conftest import PACKAGE_ROOT, PROTOCOL
from tally import AsyncTallyClient, ModelError, TallyClient, TallyError, TallyTimeoutError, errors
from tally.models import METHODS, HistoryMonthsResult
from tally.testing import FakeTally, FakeTallyError, Reply
from test_examples import EXAMPLES, differences, error_document, is_typed_envelope

MONTHS = {"as_of": "2026-11-23", "current_month": "2026-11", "months": ["2026-11"], "locked_months": 0,
          "future_records_ignored": 0}
MONTHS_PARAMS = {"time_zone": "UTC", "today": "2026-11-23"}
CONCRETE = {"server_version": "0.1.0", "worker": "fake/1", "uptime_seconds": 1.5, "connection": 0}
# Examples whose mistake the params schema shows: the fake refuses them without calling the handler.
CAUGHT_BY_THE_SCHEMA = {
    "streak.summary/missing-steps", "workout.day/negative-reps", "workout.day/unknown-unit",
    "workout.day/plan-without-weeks", "workout.day/impossible-date", "workout.calendar/unknown-type",
    "workout.calendar/instant-without-offset",
}


def concrete(document: Any, key: str = "") -> Any:
    """The example's expected result with "$any" values made concrete (what a handler would return)."""
    if document == "$any":
        return CONCRETE[key]
    if isinstance(document, dict):
        return {name: concrete(value, name) for name, value in document.items()}
    if isinstance(document, list):
        return [concrete(value, key) for value in document]
    return document


@pytest.fixture
def fake() -> Any:
    with FakeTally() as started:
        yield started


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_protocol_example_through_a_real_client(path: pathlib.Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    request, expected, service = example["request"], example["response"], example["service"]
    method = request.get("method")
    called: list[Any] = []

    def handler(params: Any) -> Any:
        called.append(params)
        if "error" in expected:
            raise Reply.error(expected["error"]["code"], expected["error"]["message"],
                              expected["error"].get("details"))
        return concrete(copy.deepcopy(expected["result"]))

    with FakeTally() as fake, TallyClient(fake.endpoint, timeout=5) as client:
        for name in METHODS:
            fake.on(name, handler)
        if not is_typed_envelope(request):
            if request.get("version") == 1 and isinstance(request.get("id"), str):
                trace = request.get("trace") or {}
                with pytest.raises(TallyError) as raised:
                    client.call(method, request.get("params"), service=service, traceparent=trace.get("traceparent"))
                assert not differences(error_document(raised.value), expected["error"])
            else:
                response = client.send_envelope(request, service=service)
                assert not differences(response, expected), differences(response, expected)
            assert called == []
            return
        spec = METHODS[method]
        try:
            params: Any = spec.params.from_json(request.get("params"), "params")
        except ModelError:
            params = request.get("params")  # a required member missing: a mapping carries it as it is
        typed_call = getattr(client, method.replace(".", "_"))
        options = {"service": service} if method.startswith("system.") else {}
        if "error" in expected:
            with pytest.raises(TallyError) as raised:
                typed_call(params, **options)
            failure = raised.value
            assert isinstance(failure, errors.ERROR_CLASSES[expected["error"]["code"]])
            assert failure.field == expected["error"].get("details", {}).get("field")
            problem = expected["error"].get("details", {}).get("problem", "$any")
            assert problem == "$any" or failure.details["problem"] == problem
            caught = f"{path.parent.name}/{path.stem}" in CAUGHT_BY_THE_SCHEMA
            assert (called == []) == caught, "the fake's schema check and the example disagree"
        else:
            result = typed_call(params, **options)
            assert isinstance(result, spec.result)
            assert not differences(result.to_json(), expected["result"])
            assert called == [request.get("params") or {}]  # a system.* params model is written {}


def test_bad_params_are_invalid_params_naming_the_field(fake: FakeTally) -> None:
    fake.on("history.months", lambda params: MONTHS)
    with TallyClient(fake.endpoint) as client:
        cases = [
            ({"today": "2026-11-23"}, "params.time_zone", "is required (or utc_offset_minutes)"),
            ({**MONTHS_PARAMS, "utc_offset_minutes": 60}, "params.utc_offset_minutes",
             "give time_zone or utc_offset_minutes, not both"),
            ({**MONTHS_PARAMS, "records": [{"date": "2026-11-20", "steps": "9000"}]}, "params.records[0].steps",
             "must be an integer, not a string"),
            ({**MONTHS_PARAMS, "records": [{"date": "2026-11-20", "steps": 1.5}]}, "params.records[0].steps",
             "must be an integer within range, not 1.5"),
            ({**MONTHS_PARAMS, "records": [{"date": "2026-11-20", "steps": -1}]}, "params.records[0].steps",
             "must be at least 0, not -1"),
            ({"time_zone": "UTC", "today": "2026-02-30"}, "params.today",
             "must be a date of the calendar (yyyy-MM-dd), not '2026-02-30'"),
            ({"time_zone": "UTC", "now": "2026-02-03T10:00:00"}, "params.now",
             "must be an RFC 3339 instant with a UTC offset (Z, ±HH:mm), not '2026-02-03T10:00:00'"),
            ({**MONTHS_PARAMS, "is_pro": "yes"}, "params.is_pro", "must be a boolean, not a string"),
        ]
        for params, field, problem in cases:
            with pytest.raises(errors.InvalidParamsError) as raised:
                client.history_months(params)
            assert (raised.value.field, raised.value.details["problem"]) == (field, problem), params
            assert raised.value.message == f"{field}: {problem}"
    assert fake.calls("history.months") and not fake.failures


def test_a_list_over_its_limit_is_payload_too_large(fake: FakeTally) -> None:
    fake.on("history.months", lambda params: MONTHS)
    records = [{"date": (date(2000, 1, 1) + timedelta(days=n)).isoformat(), "steps": 1} for n in range(20_001)]
    with TallyClient(fake.endpoint) as client, pytest.raises(errors.PayloadTooLargeError) as raised:
        client.history_months({**MONTHS_PARAMS, "records": records})
    assert raised.value.details == {"field": "params.records", "limit": 20_000}


def test_a_method_without_a_handler_is_unknown(fake: FakeTally) -> None:
    fake.on("history.months", lambda params: MONTHS)
    fake.on("system.ping", lambda params: {})
    with TallyClient(fake.endpoint) as client:
        with pytest.raises(errors.UnknownMethodError) as raised:
            client.history_month({**MONTHS_PARAMS, "goal_log": [{"effective_date": "2026-01-01", "goal": 1}],
                                  "month": "2026-11"})
        assert raised.value.details == {"field": "method", "service": "tally.history",
                                        "methods": ["history.months", "system.ping"]}
        with pytest.raises(errors.UnknownMethodError):
            client.call("history.months", MONTHS_PARAMS, service="tally.streak")  # served by another service
        fake.off("history.months")
        with pytest.raises(errors.UnknownMethodError):
            client.history_months(MONTHS_PARAMS)


def test_mmi_and_the_services_served(fake: FakeTally) -> None:
    fake.on("history.months", lambda params: MONTHS)
    with TallyClient(fake.endpoint, retries=0) as client:
        assert client.service_available("tally.streak") and not client.service_available("tally.nowhere")
        fake.services.discard("tally.history")
        assert not client.service_available("tally.history")
        with pytest.raises(errors.UnavailableError) as raised:
            client.history_months(MONTHS_PARAMS)
        assert raised.value.details == {"service": "tally.history"}
    assert [request.service for request in fake.requests][:2] == ["mmi.service", "mmi.service"]


def test_the_asyncio_client_talks_to_it_unchanged(fake: FakeTally) -> None:
    @fake.on("history.months")
    def months(params: dict[str, Any]) -> dict[str, Any]:
        return {**MONTHS, "as_of": params["today"]}

    async def main() -> list[HistoryMonthsResult]:
        async with AsyncTallyClient(fake.endpoint) as client:
            assert await client.service_available("tally.history")
            return await asyncio.gather(*(
                client.history_months({"time_zone": "UTC", "today": f"2026-11-{day:02d}"}) for day in range(1, 21)))

    results = asyncio.run(main())
    assert [result.as_of for result in results] == [date(2026, 11, day) for day in range(1, 21)]


def test_a_handler_may_return_a_model_and_raise_any_tally_error(fake: FakeTally) -> None:
    fake.on("history.months", lambda params: HistoryMonthsResult.from_json(MONTHS, "result"))
    fake.on("streak.summary", lambda params: (_ for _ in ()).throw(errors.ProRequiredError(
        "the heatmap needs Pro", {"field": "params.is_pro"})))
    fake.on("workout.day", lambda params: Reply.error("quota_exhausted", "a code of a later worker"))
    with TallyClient(fake.endpoint) as client:
        assert client.history_months(MONTHS_PARAMS).as_of == date(2026, 11, 23)
        with pytest.raises(errors.ProRequiredError, match="the heatmap needs Pro"):
            client.call("streak.summary", {**MONTHS_PARAMS, "goal_log": [{"effective_date": "2026-01-01",
                                                                         "goal": 8000}]})
        with pytest.raises(TallyError) as raised:
            client.call("workout.day", {**MONTHS_PARAMS, "date": "2026-11-23"})
        assert type(raised.value) is TallyError and raised.value.code == "quota_exhausted"


def test_answers_later_none_or_not_v1(fake: FakeTally) -> None:
    answers = iter([Reply.no_answer(), Reply.after(0.2, MONTHS)])
    fake.on("history.months", lambda params: next(answers))
    with TallyClient(fake.endpoint, timeout=3, attempt_timeout=0.5) as client:
        started = time.monotonic()
        assert client.history_months(MONTHS_PARAMS).months == ["2026-11"]  # the first attempt got no answer
        assert 0.6 < time.monotonic() - started < 2.5
        assert len(fake.calls("history.months")) == 2
        fake.on("history.months", lambda params: Reply.no_answer())
        with pytest.raises(TallyTimeoutError):
            client.history_months(MONTHS_PARAMS, timeout=0.5)
        fake.on("history.months", lambda params: Reply.raw({"neither": "result nor error"}))
        with pytest.raises(errors.InvalidResponseError, match="neither result nor error"):
            client.history_months(MONTHS_PARAMS)
        fake.on("history.months", lambda params: Reply.raw({"result": {**MONTHS, "as_of": "2026-02-30"}}))
        with pytest.raises(errors.InvalidResponseError, match=r"result\.as_of: must be a date"):
            client.history_months(MONTHS_PARAMS)


def test_a_failing_handler_is_answered_internal_and_fails_the_test_at_close() -> None:
    fake = FakeTally()
    fake.on("history.months", lambda params: 1 / 0)
    with TallyClient(fake.endpoint) as client, pytest.raises(errors.InternalError, match="ZeroDivisionError"):
        client.history_months(MONTHS_PARAMS)
    with pytest.raises(FakeTallyError, match="ZeroDivisionError") as raised:
        fake.close()
    assert isinstance(raised.value.__cause__, ZeroDivisionError)


def test_a_result_tally_would_not_send_fails_the_test() -> None:
    fake = FakeTally()
    fake.on("history.months", lambda params: {**MONTHS, "locked_months": -1})
    with TallyClient(fake.endpoint) as client, pytest.raises(errors.InternalError, match=r"result\.locked_months"):
        client.call("history.months", MONTHS_PARAMS)
    with pytest.raises(FakeTallyError, match="Tally would not send"):
        fake.close()
    with FakeTally(check_results=False) as lenient, TallyClient(lenient.endpoint) as client:
        lenient.on("history.months", lambda params: {"months": []})
        assert client.call("history.months", MONTHS_PARAMS) == {"months": []}


def test_the_envelope_is_checked_as_tally_checks_it(fake: FakeTally) -> None:
    fake.on("system.ping", lambda params: {})
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    with TallyClient(fake.endpoint) as client:
        def answer(envelope: dict[str, Any]) -> dict[str, Any]:
            return client.send_envelope(envelope, service="tally.history")["error"]

        ping = {"version": 1, "id": "r1", "method": "system.ping"}
        assert answer({**ping, "deadline": past})["code"] == "deadline_exceeded"
        assert answer({**ping, "deadline": "soon"})["details"]["field"] == "deadline"
        assert answer({**ping, "version": 2})["details"] == {"field": "version", "supported_versions": [1]}
        assert answer({"version": 1, "method": "system.ping"})["details"] == {"field": "id", "problem": "is required"}
        refused = answer({**ping, "trace": {"traceparent": "00-" + "0" * 32 + "-00f067aa0ba902b7-01"}})
        assert refused["details"] == {"field": "trace.traceparent", "problem": "trace-id must not be all zeros"}
    with zmq.Context() as context, context.socket(zmq.DEALER) as raw:
        raw.connect(fake.endpoint)
        raw.send_multipart([b"", b"MDPC01", b"tally.history", b"{not json"])
        assert raw.poll(5000)
        reply = json.loads(raw.recv_multipart()[3])
        raw.close(0)
    assert reply == {"version": 1, "id": None, "error": {"code": "malformed_json", "message": "the body is not a "
                                                                                             "JSON text"}}


def test_the_requests_are_kept_for_assertions(fake: FakeTally) -> None:
    fake.on("history.months", lambda params: MONTHS)
    traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    with TallyClient(fake.endpoint) as client:
        client.history_months({"time_zone": "Europe/Berlin", "today": date(2026, 11, 23)}, traceparent=traceparent)
    [request] = fake.calls("history.months")
    assert request.service == "tally.history" and request.method == "history.months"
    assert request.params == {"time_zone": "Europe/Berlin", "today": "2026-11-23"}
    assert request.traceparent == traceparent and "deadline" in request.envelope


def test_a_fake_on_an_ipc_endpoint(tmp_path: pathlib.Path) -> None:
    with FakeTally(f"ipc://{tmp_path}/tally.sock") as fake, TallyClient(fake.endpoint) as client:
        fake.on("history.months", lambda params: MONTHS)
        assert fake.endpoint == f"ipc://{tmp_path}/tally.sock"
        assert client.history_months(MONTHS_PARAMS).as_of == date(2026, 11, 23)


def test_the_package_ships_the_schemas_the_fake_reads() -> None:
    shipped = PACKAGE_ROOT / "tally" / "schemas"
    globs = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["tally"]
    files = [path.relative_to(PACKAGE_ROOT / "tally").as_posix() for path in shipped.rglob("*") if path.is_file()]
    assert files and all(any(fnmatch.fnmatch(name, glob) for glob in globs) for name in files)
    assert {path.name for path in (PROTOCOL / "schemas" / "methods").iterdir()} == {
        path.name for path in (shipped / "methods").iterdir()}
