"""Every exception the package raises, under one base: :class:`TallyBaseError`.

::

    TallyBaseError                      anything from tally (except tally.TallyBaseError catches it all)
    ├── TallyError                      a call without a result: the server's error, or the client's own code
    │   ├── InvalidParamsError          code "invalid_params"  (one subclass per code Tally sends, see ErrorCode)
    │   ├── OverloadedError             code "overloaded"      …
    │   ├── TallyTimeoutError           code "timeout"         (the client's own: no answer in time)
    │   └── InvalidResponseError        code "invalid_response" (the client's own: an answer that is not v1)
    ├── ClientClosedError               also a RuntimeError: calls on (or waiting in) a closed client
    ├── UsageError                      also a ValueError and a TypeError: an argument or setting that cannot be used
    ├── ModelError                      also a ValueError: a document (or a value) that does not fit a model
    ├── CurveKeyError                   also a ValueError: a CURVE key or key file that cannot be used
    └── DuplicateRequestIdError         also a ValueError: send_envelope with an id already in flight

A server code without a class of its own (the set is open: a later v1 worker may add codes) is a plain
:class:`TallyError` with that ``code``; treat it like ``internal``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar


class TallyBaseError(Exception):
    """The base of every exception the ``tally`` package raises, as ``RedisError`` is redis-py's.

    ``except tally.TallyBaseError`` catches them all; catch :class:`TallyError` for calls that got no result, or a
    subclass for one code (``except tally.errors.OverloadedError``). Subclasses that existed before this base keep
    their standard bases too (``ModelError`` is still a ``ValueError``, ``ClientClosedError`` a ``RuntimeError``).
    """


class UsageError(TallyBaseError, ValueError, TypeError):
    """An argument, setting or params value that cannot be used, named; nothing was sent.

    It is both a ``ValueError`` and a ``TypeError``, the exceptions these checks raised before, so that existing
    ``except ValueError`` (a timeout of 0, an endpoint without ``tcp://``) and ``except TypeError`` (params of
    another method, a value JSON cannot hold) handlers still catch it.
    """


class ErrorCode(StrEnum):
    """The error codes known to this client: the server's (Protocol/README.md, Errors) and the client's own.

    ``TallyError.code`` stays a plain ``str`` (the set is open), and compares equal to these members:
    ``error.code == ErrorCode.OVERLOADED``.
    """

    UNSUPPORTED_VERSION = "unsupported_version"
    MALFORMED_JSON = "malformed_json"
    INVALID_REQUEST = "invalid_request"
    UNKNOWN_METHOD = "unknown_method"
    INVALID_PARAMS = "invalid_params"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    PRO_REQUIRED = "pro_required"
    DEADLINE_EXCEEDED = "deadline_exceeded"
    OVERLOADED = "overloaded"
    UNAVAILABLE = "unavailable"
    INTERNAL = "internal"
    TIMEOUT = "timeout"
    """The client's own: no answer within the call's deadline."""
    INVALID_RESPONSE = "invalid_response"
    """The client's own: an answer that is not a v1 response for the method asked, or a result off its schema."""

RETRYABLE_CODES = frozenset({"overloaded", "unavailable"})
"""Server codes worth another attempt (every v1 method is idempotent); a timeout is retried too."""

TIMEOUT = "timeout"
"""The code of :class:`TallyTimeoutError`: no answer within the call's deadline (the client's own code, as in the
Protocol's list of errors)."""

INVALID_RESPONSE = "invalid_response"
"""The code of an answer that is not a v1 response for the method asked (the client's own code)."""


@dataclass(frozen=True)
class Attempt:
    """What one attempt of a call came to.

    Attributes:
        number: 1 for the first attempt.
        outcome: ``"ok"``, the error code Tally answered (``"overloaded"``, …) or ``"timeout"``.
        elapsed: seconds from the call's start to the end of this attempt.
        message: the server's message, or what the client saw (``no broker connected: not sent``).
    """

    number: int
    outcome: str
    elapsed: float
    message: str = ""

    def __str__(self) -> str:
        text = f"#{self.number} {self.outcome} after {self.elapsed:.3f}s"
        return f"{text} ({self.message})" if self.message else text


@dataclass(frozen=True)
class EndpointState:
    """What the client knows of one broker endpoint's connection, for error messages and health checks.

    Attributes:
        endpoint: as given to the client, e.g. ``tcp://127.0.0.1:5555``.
        connected: a connection is up now (handshake done, CURVE included): requests can go there.
        ever_connected: a connection was up at some point since the client started.
        failed_connects: connection attempts that failed (refused, unreachable, dropped during the handshake).
        losses: times a connection that was up was lost (closed, or the broker stopped answering heartbeats).
        problem: the last reason it is not connected, when one is known (``connection refused or unreachable``,
            ``CURVE handshake refused: ZAP status 400``).
    """

    endpoint: str
    connected: bool
    ever_connected: bool
    failed_connects: int = 0
    problem: str | None = None
    losses: int = 0

    def __str__(self) -> str:
        lost = f", lost {self.losses}×" if self.losses else ""
        if self.connected:
            return f"{self.endpoint} (connected{lost})"
        state = ("disconnected" if self.ever_connected else "never connected") + lost
        if self.failed_connects:
            state += f", {self.failed_connects} failed attempt{'s' if self.failed_connects != 1 else ''}"
        if self.problem:
            state += f": {self.problem}"
        return f"{self.endpoint} ({state})"


class TallyError(TallyBaseError):
    """Tally answered a call with an error, or the call could not get an answer.

    ``code`` is an open set of strings, as in the protocol: compare it with the codes you handle and treat any
    other like ``internal``. The server's codes are listed in Protocol/README.md (``invalid_params``,
    ``overloaded``, ``unavailable``, …); the client adds ``timeout`` (:class:`TallyTimeoutError`) and
    ``invalid_response``. Each known code has a subclass (:class:`InvalidParamsError`, :class:`OverloadedError`,
    …; :data:`ERROR_CLASSES` maps codes to them), so ``except OverloadedError`` and ``except TallyError`` with a
    look at ``code`` both work; an unknown code is a plain ``TallyError``.

    Attributes:
        code: the error code.
        message: for people; may change between releases.
        details: facts a program can act on (``field``, ``problem``, ``value``, ``retry_after_ms``, …), as sent.
        method: the method called, when known.
        request_id: the request's ``id``.
        attempts: every attempt's outcome, oldest first: several when the call was retried.
    """

    def __init__(
        self,
        code: str,
        message: str,
        details: Mapping[str, Any] | None = None,
        *,
        method: str | None = None,
        request_id: str | None = None,
        attempts: Sequence[Attempt] = (),
    ) -> None:
        self.code = code
        self.message = message
        self.details: Mapping[str, Any] = dict(details or {})
        self.method = method
        self.request_id = request_id
        self.attempts: tuple[Attempt, ...] = tuple(attempts)
        super().__init__(self._describe())

    @property
    def field(self) -> str | None:
        """``details.field``: the path of the offending member (``params.records[3].date``), if any."""
        value = self.details.get("field")
        return value if isinstance(value, str) else None

    @property
    def retryable(self) -> bool:
        """Whether another call later might succeed (``overloaded``, ``unavailable``, ``timeout``)."""
        return self.code in RETRYABLE_CODES or self.code == TIMEOUT

    def _describe(self) -> str:
        text = f"{self.code}: {self.message}"
        if self.method:
            text = f"{self.method}: {text}"
        if len(self.attempts) > 1:
            text += f" [attempts: {'; '.join(str(attempt) for attempt in self.attempts)}]"
        return text

    @classmethod
    def from_response_error(
        cls,
        error: Any,
        *,
        method: str | None = None,
        request_id: str | None = None,
        attempts: Sequence[Attempt] = (),
    ) -> TallyError:
        """The error of a v1 error response (its ``error`` member), as the subclass of its code."""
        if not isinstance(error, Mapping) or not isinstance(error.get("code"), str):
            return InvalidResponseError(
                f"the error member is not a v1 error object: {error!r}",
                method=method,
                request_id=request_id,
                attempts=attempts,
            )
        message = error.get("message")
        details = error.get("details")
        return error_for(
            error["code"],
            message if isinstance(message, str) else "",
            details if isinstance(details, Mapping) else None,
            method=method,
            request_id=request_id,
            attempts=attempts,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its attributes, not from ``args`` (the text): a TallyError crosses pickling (multiprocessing,
        # Celery results) as the same class with the same code, details and attempts.
        return _rebuild, (type(self), self.__dict__.copy())


def _rebuild(kind: type[TallyError], state: dict[str, Any]) -> TallyError:
    error = kind.__new__(kind)
    error.__dict__.update(state)
    Exception.__init__(error, error._describe())
    return error


class _CodedError(TallyError):
    """A TallyError whose class says its code: made with the message (and details) alone."""

    CODE: ClassVar[str]

    def __init__(
        self,
        message: str = "",
        details: Mapping[str, Any] | None = None,
        *,
        method: str | None = None,
        request_id: str | None = None,
        attempts: Sequence[Attempt] = (),
    ) -> None:
        super().__init__(self.CODE, message, details, method=method, request_id=request_id, attempts=attempts)


class UnsupportedVersionError(_CodedError):
    """``unsupported_version``: the request's ``version`` is not served (``details.supported_versions``)."""

    CODE = ErrorCode.UNSUPPORTED_VERSION.value


class MalformedJsonError(_CodedError):
    """``malformed_json``: the body was not JSON (or not UTF-8)."""

    CODE = ErrorCode.MALFORMED_JSON.value


class InvalidRequestError(_CodedError):
    """``invalid_request``: the envelope is wrong (``details.field``: ``id``, ``deadline``, ``trace.traceparent``)."""

    CODE = ErrorCode.INVALID_REQUEST.value


class UnknownMethodError(_CodedError):
    """``unknown_method``: the service has no such method (``details.methods`` lists those it has)."""

    CODE = ErrorCode.UNKNOWN_METHOD.value


class InvalidParamsError(_CodedError):
    """``invalid_params``: a param is missing, mistyped, out of range or in conflict; ``field`` names it."""

    CODE = ErrorCode.INVALID_PARAMS.value


class PayloadTooLargeError(_CodedError):
    """``payload_too_large``: the body or a list is over Tally's limit (``details.limit``)."""

    CODE = ErrorCode.PAYLOAD_TOO_LARGE.value


class ProRequiredError(_CodedError):
    """``pro_required``: a Pro-only feature was asked for with ``is_pro: false``; ``field`` names it."""

    CODE = ErrorCode.PRO_REQUIRED.value


class DeadlineExceededError(_CodedError):
    """``deadline_exceeded``: the request's deadline passed before a worker could answer it (never computed late)."""

    CODE = ErrorCode.DEADLINE_EXCEEDED.value


class OverloadedError(_CodedError):
    """``overloaded``: the broker's queue for the service is full (``details.retry_after_ms``); retried."""

    CODE = ErrorCode.OVERLOADED.value


class UnavailableError(_CodedError):
    """``unavailable``: no worker answered (none registered in time, or each attempt lost its worker); retried."""

    CODE = ErrorCode.UNAVAILABLE.value


class InternalError(_CodedError):
    """``internal``: a fault inside Tally, or a request whose workers died computing it; not worth retrying."""

    CODE = ErrorCode.INTERNAL.value


class InvalidResponseError(_CodedError):
    """``invalid_response`` (the client's own code): the reply is not a v1 response, or its result does not match
    the method's schema."""

    CODE = ErrorCode.INVALID_RESPONSE.value


class TallyTimeoutError(TallyError):
    """No answer within the call's deadline, retries included (``code == "timeout"``).

    The message names the broker endpoints and what the client knows of their connections, so that "the broker is
    down", "the broker refuses this CURVE key" and "nobody computed the request" read differently.

    Attributes:
        timeout: the call's time budget in seconds.
        endpoints: the state of each broker connection when the call gave up.
    """

    def __init__(
        self,
        timeout: float,
        endpoints: Sequence[EndpointState],
        *,
        method: str | None = None,
        request_id: str | None = None,
        attempts: Sequence[Attempt] = (),
    ) -> None:
        self.timeout = timeout
        self.endpoints: tuple[EndpointState, ...] = tuple(endpoints)
        count = len(attempts)
        brokers = ", ".join(str(endpoint) for endpoint in self.endpoints)
        message = (
            f"no answer within {timeout:.3g}s ({count} attempt{'s' if count != 1 else ''}) from {brokers}"
        )
        super().__init__(TIMEOUT, message, method=method, request_id=request_id, attempts=attempts)


ERROR_CLASSES: Mapping[str, type[TallyError]] = {
    kind.CODE: kind
    for kind in (
        UnsupportedVersionError,
        MalformedJsonError,
        InvalidRequestError,
        UnknownMethodError,
        InvalidParamsError,
        PayloadTooLargeError,
        ProRequiredError,
        DeadlineExceededError,
        OverloadedError,
        UnavailableError,
        InternalError,
        InvalidResponseError,
    )
} | {TIMEOUT: TallyTimeoutError}
"""The subclass of each known code; any other code is a plain :class:`TallyError`."""


def error_for(
    code: str,
    message: str = "",
    details: Mapping[str, Any] | None = None,
    *,
    method: str | None = None,
    request_id: str | None = None,
    attempts: Sequence[Attempt] = (),
) -> TallyError:
    """The TallyError of ``code``: an instance of its subclass when the code is known, else of TallyError itself.

    ``timeout`` is the client's own, with an endpoint list of its own: from a server (a test double), it becomes a
    :class:`TallyTimeoutError` with no endpoints and the message as given.
    """
    kind = ERROR_CLASSES.get(code)
    if kind is TallyTimeoutError:
        timeout_error = TallyTimeoutError(0.0, (), method=method, request_id=request_id, attempts=attempts)
        timeout_error.message, timeout_error.details = message, dict(details or {})
        Exception.__init__(timeout_error, timeout_error._describe())
        return timeout_error
    if kind is not None and issubclass(kind, _CodedError):
        return kind(message, details, method=method, request_id=request_id, attempts=attempts)
    return TallyError(code, message, details, method=method, request_id=request_id, attempts=attempts)


class ClientClosedError(TallyBaseError, RuntimeError):
    """The client was closed (or its I/O thread stopped): it takes no more calls, and calls still waiting end."""


class DuplicateRequestIdError(TallyBaseError, ValueError):
    """A request id is already in flight (``send_envelope`` with the id of a call still waiting): its reply could
    not be told apart."""
