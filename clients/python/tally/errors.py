"""Why a Tally call has no result: the server's error, a timeout, or a client that was closed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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


class TallyError(Exception):
    """Tally answered a call with an error, or the call could not get an answer.

    ``code`` is an open set of strings, as in the protocol: compare it with the codes you handle and treat any
    other like ``internal``. The server's codes are listed in Protocol/README.md (``invalid_params``,
    ``overloaded``, ``unavailable``, …); the client adds ``timeout`` (:class:`TallyTimeoutError`) and
    ``invalid_response``.

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
        """The error of a v1 error response (its ``error`` member)."""
        if not isinstance(error, Mapping) or not isinstance(error.get("code"), str):
            return cls(
                INVALID_RESPONSE,
                f"the error member is not a v1 error object: {error!r}",
                method=method,
                request_id=request_id,
                attempts=attempts,
            )
        message = error.get("message")
        details = error.get("details")
        return cls(
            error["code"],
            message if isinstance(message, str) else "",
            details if isinstance(details, Mapping) else None,
            method=method,
            request_id=request_id,
            attempts=attempts,
        )


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


class ClientClosedError(RuntimeError):
    """The client was closed (or its I/O thread stopped): it takes no more calls, and calls still waiting end."""
