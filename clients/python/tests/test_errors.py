"""One error hierarchy: every exception of the package under TallyBaseError (with its former standard base kept),
a subclass per known code, unknown codes as plain TallyError, and errors that survive pickling."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import tally
import tally.errors as errors
from fake_broker import FakeBroker, Received, Script, error
from tally import (
    ClientClosedError,
    CurveKeyError,
    DuplicateRequestIdError,
    ErrorCode,
    ModelError,
    TallyBaseError,
    TallyClient,
    TallyError,
    TallyTimeoutError,
    UsageError,
)

SERVER_CODES = {
    "invalid_params": errors.InvalidParamsError,
    "unknown_method": errors.UnknownMethodError,
    "pro_required": errors.ProRequiredError,
    "overloaded": errors.OverloadedError,
    "unavailable": errors.UnavailableError,
    "deadline_exceeded": errors.DeadlineExceededError,
    "payload_too_large": errors.PayloadTooLargeError,
    "unsupported_version": errors.UnsupportedVersionError,
    "malformed_json": errors.MalformedJsonError,
    "invalid_request": errors.InvalidRequestError,
    "internal": errors.InternalError,
}


def raised_by(script: Script, **options: Any) -> TallyError:
    """What ``history.months`` raises against a scripted broker."""
    with FakeBroker(script) as broker, TallyClient(broker.endpoint, timeout=5) as client:
        try:
            client.call("history.months", {"time_zone": "UTC"}, **options)
        except TallyError as failure:
            return failure
    raise AssertionError("no error raised")


def package_exceptions() -> list[type[BaseException]]:
    """Every exception class defined in a module of the tally package."""
    found: set[type[BaseException]] = set()
    for module_info in pkgutil.iter_modules(tally.__path__):
        module = importlib.import_module(f"tally.{module_info.name}")
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__.startswith("tally"):
                found.add(value)
    return sorted(found, key=lambda kind: kind.__qualname__)


def test_every_exception_of_the_package_derives_from_the_one_base() -> None:
    kinds = package_exceptions()
    assert {ClientClosedError, CurveKeyError, DuplicateRequestIdError, ModelError, UsageError} <= set(kinds)
    assert [kind.__name__ for kind in kinds if not issubclass(kind, TallyBaseError)] == []


def test_former_standard_bases_are_kept() -> None:
    assert issubclass(ModelError, ValueError) and issubclass(CurveKeyError, ValueError)
    assert issubclass(ClientClosedError, RuntimeError) and issubclass(DuplicateRequestIdError, ValueError)
    assert issubclass(UsageError, ValueError) and issubclass(UsageError, TypeError)
    assert issubclass(tally.testing.TallyProcessError, RuntimeError)


def test_refused_arguments_are_usage_errors_caught_as_before() -> None:
    with pytest.raises(ValueError, match="timeout must be a positive number") as raised:
        TallyClient("tcp://127.0.0.1:1", timeout=0)
    assert isinstance(raised.value, UsageError) and isinstance(raised.value, TallyBaseError)
    with TallyClient("tcp://127.0.0.1:1") as client, pytest.raises(TypeError, match="cannot be written as JSON"):
        client.call("history.months", {"x": object()})


def test_the_code_enum_lists_every_known_code_and_compares_with_plain_strings() -> None:
    assert {code.value for code in ErrorCode} == set(SERVER_CODES) | {"timeout", "invalid_response"}
    assert set(errors.ERROR_CLASSES) == {code.value for code in ErrorCode}
    assert ErrorCode.OVERLOADED == "overloaded" and errors.OverloadedError.CODE == ErrorCode.OVERLOADED


@pytest.mark.parametrize("code", sorted(SERVER_CODES))
def test_each_server_code_is_raised_as_its_own_subclass(code: str) -> None:
    def answer(request: Received, broker: FakeBroker) -> list[object]:
        return [error(request, code, f"the {code} message", field="params.x")]

    failure = raised_by(answer, retries=0)
    assert type(failure) is SERVER_CODES[code] and isinstance(failure, TallyError)
    assert failure.code == code and failure.message == f"the {code} message" and failure.field == "params.x"
    assert failure.method == "history.months" and failure.request_id
    assert failure.retryable == (code in ("overloaded", "unavailable"))


def test_an_unknown_code_is_a_plain_tally_error() -> None:
    def answer(request: Received, broker: FakeBroker) -> list[object]:
        return [error(request, "quota_exhausted", "a code of a later v1 worker")]

    failure = raised_by(answer)
    assert type(failure) is TallyError and failure.code == "quota_exhausted"


def test_the_clients_own_codes_have_their_classes() -> None:
    def garbage(request: Received, broker: FakeBroker) -> list[object]:
        return [{"version": 1, "id": request.envelope["id"], "neither": "result nor error"}]

    invalid = raised_by(garbage)
    assert type(invalid) is errors.InvalidResponseError and invalid.code == "invalid_response"
    timed_out = raised_by(lambda request, broker: None, timeout=0.3)
    assert type(timed_out) is TallyTimeoutError and timed_out.code == ErrorCode.TIMEOUT


def test_a_request_id_already_in_flight_is_refused() -> None:
    envelope = {"version": 1, "id": "same", "method": "system.ping"}
    with (
        FakeBroker(lambda request, broker: None) as broker,
        TallyClient(broker.endpoint, timeout=3) as client,
        ThreadPoolExecutor(1) as pool,
    ):
        first = pool.submit(client.send_envelope, envelope, service="tally.history")
        broker.wait_for_requests(1)
        with pytest.raises(DuplicateRequestIdError, match="already in flight"):
            client.send_envelope(envelope, service="tally.history")
        with pytest.raises(TallyTimeoutError):
            first.result(10)


@pytest.mark.parametrize(
    "failure",
    [
        errors.error_for("overloaded", "queue full", {"retry_after_ms": 50}, method="history.month", request_id="r1"),
        errors.error_for("quota_exhausted", "later code"),
        TallyTimeoutError(1.5, [errors.EndpointState("tcp://127.0.0.1:1", False, False)], method="system.ping",
                          attempts=[errors.Attempt(1, "timeout", 1.5)]),
    ],
    ids=["overloaded", "unknown", "timeout"],
)
def test_errors_survive_pickling(failure: TallyError) -> None:
    copy = pickle.loads(pickle.dumps(failure))
    assert type(copy) is type(failure) and str(copy) == str(failure)
    assert (copy.code, copy.message, dict(copy.details), copy.method, copy.attempts) == (
        failure.code, failure.message, dict(failure.details), failure.method, failure.attempts)


def test_error_for_a_timeout_from_a_server_keeps_its_message() -> None:
    failure = errors.error_for("timeout", "the fake's own timeout")
    assert isinstance(failure, TallyTimeoutError) and failure.message == "the fake's own timeout"
