"""The blocking Tally client: call from any number of threads; one background thread does the I/O."""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

from ._base import ClientBase
from ._core import typed_params, typed_result
from ._io import CallFuture
from .errors import ClientClosedError
from .typed_calls import TypedCalls

ResultT = TypeVar("ResultT")

LIVENESS_CHECK_SECONDS = 1.0
"""How often a waiting caller checks that the I/O thread still runs (it ends every call by its deadline)."""


class TallyClient(ClientBase, TypedCalls):
    """A client of Tally's broker(s): typed calls per method, raw calls, futures; safe to share between threads.

    ::

        with TallyClient(["tcp://127.0.0.1:5555"]) as tally:
            summary = tally.streak_summary(StreakSummaryParams(...))
            print(summary.current_streak.days)

    Many calls may be in flight at once, from any threads, on one socket: each request has its own ``id`` and its
    reply is found by it. A call has a deadline (``timeout`` seconds from now, or ``deadline``), which is also sent
    to the worker, so nobody computes a request whose caller gave up. An attempt that times out, or that Tally
    answers ``overloaded`` or ``unavailable``, is retried while the deadline allows (every v1 method is
    idempotent); :class:`TallyError` carries each attempt's outcome.

    The client connects to every broker given (in the background: a broker that is down does not stop it from
    starting), a socket each, and sends each call to the connected broker that holds the fewest of its calls. Every
    connection carries heartbeats: a broker that stops answering them (its host lost power or its link, a firewall
    drops, the process is stopped) is taken for lost within ``heartbeat_timeout`` to ``heartbeat_timeout`` +
    ``heartbeat`` seconds (1–1.25 s by default), and the calls it held are sent again at once, unchanged, to another
    broker; it is used again once it answers. A lost broker costs no call an attempt. Close the client when done
    (or use ``with``): calls still waiting then fail with :class:`ClientClosedError`. A client made before
    ``os.fork()`` works in the child too (it starts its own connections there).

    Args:
        brokers: endpoints such as ``tcp://tally-broker:5555``; one string or several.
        curve: CURVE keys (:class:`Curve`), for a broker that has CURVE on.
        timeout: default time budget of a call in seconds, retries included.
        retries: default number of attempts after the first.
        backoff: seconds before the first retry, doubled for each further one (and at least the
            ``retry_after_ms`` an ``overloaded`` answer asks for).
        max_backoff: the longest pause between attempts.
        attempt_timeout: the longest one attempt waits; by default the time left is spread over the attempts left.
        heartbeat: ZMTP heartbeat (PING) interval on each broker connection, in seconds; ``None`` for none (then a
            broker whose host vanishes is noticed only when TCP gives up, many minutes later). Turn it off only for
            a broker on a ZeroMQ stack older than ZMTP 3.1 (libzmq before 4.2), which does not answer PINGs.
        heartbeat_timeout: how long a broker connection waits for anything (a PONG, a reply) after a PING, and a
            connection attempt for an answer, before the broker is taken for lost and its calls go elsewhere.
        context: a ZeroMQ context to share; by default the client makes (and terminates) its own.

    Raises:
        ValueError: an endpoint, duration or number that cannot be used, named.
    """

    # Lifecycle ----------------------------------------------------------------------------------------------

    def close(self) -> None:
        """Stops the I/O thread and closes the sockets; calls still waiting fail with ClientClosedError."""
        self._core.close()

    def __enter__(self) -> TallyClient:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    # Calls --------------------------------------------------------------------------------------------------

    def submit(
        self,
        method: str,
        params: Any = None,
        *,
        service: str | None = None,
        timeout: float | None = None,
        deadline: datetime | None = None,
        retries: int | None = None,
        traceparent: str | None = None,
    ) -> CallFuture:
        """Starts a call and returns at once: the future holds the ``result`` document, or raises
        :class:`TallyError` (:class:`TallyTimeoutError` for no answer). Arguments as for :meth:`call`."""
        return self._core.start_method(
            method,
            params,
            service=service,
            timeout=timeout,
            deadline=deadline,
            retries=retries,
            traceparent=traceparent,
        )

    def call(
        self,
        method: str,
        params: Any = None,
        *,
        service: str | None = None,
        timeout: float | None = None,
        deadline: datetime | None = None,
        retries: int | None = None,
        traceparent: str | None = None,
    ) -> Any:
        """Calls any method with params as a mapping (or model) and returns its ``result`` as decoded JSON.

        Args:
            method: ``area.name``, e.g. ``history.months``.
            params: the method's params (``None``: no ``params`` member).
            service: the MDP service; by default ``tally.<area>`` (``tally.history`` for ``system.*``).
            timeout: this call's time budget in seconds (default: the client's).
            deadline: an aware datetime by which the call must end, e.g. your own caller's deadline; with
                ``timeout`` too, the earlier counts. It is sent as the request's ``deadline``.
            retries: this call's attempts after the first (default: the client's).
            traceparent: a W3C ``traceparent`` carried into the broker's and workers' logs (and spans). By
                default, with opentelemetry-api installed (the ``otel`` extra), the current span's context (and its
                ``tracestate``); nothing without one.

        Raises:
            TallyError: Tally answered with an error, or (TallyTimeoutError) nothing answered in time.
            ClientClosedError: the client is closed.
            ValueError, TypeError: the method, params or options cannot be sent (nothing is sent).
        """
        future = self.submit(
            method,
            params,
            service=service,
            timeout=timeout,
            deadline=deadline,
            retries=retries,
            traceparent=traceparent,
        )
        return self._wait(future)

    def send_envelope(
        self,
        envelope: Mapping[str, Any],
        *,
        service: str,
        timeout: float | None = None,
        retries: int | None = None,
    ) -> dict[str, Any]:
        """Sends a whole v1 request envelope as it is (its ``id`` and ``deadline`` included) and returns the whole
        response, error responses included: for tools that pass documents through, and for replaying examples.

        Its ``id`` must not be in flight already; an envelope without a string ``id`` is answered with a null id
        and matched in order. ``overloaded``/``unavailable`` answers are retried like any call; the last response
        is returned.
        """
        future = self._core.start_envelope(envelope, service=service, timeout=timeout, retries=retries)
        response: dict[str, Any] = self._wait(future)
        return response

    def service_available(self, service: str, *, timeout: float | None = None) -> bool:
        """Asks the broker (MMI ``mmi.service``) whether at least one live worker serves ``service``."""
        future = self._core.start_mmi(service, timeout=timeout)
        status: str = self._wait(future)
        return status == "200"

    def _typed_call(
        self,
        method: str,
        params: Any,
        result_type: type[ResultT],
        *,
        service: str,
        timeout: float | None,
        deadline: datetime | None,
        retries: int | None,
        traceparent: str | None = None,
    ) -> ResultT:
        result = self.call(
            method,
            typed_params(method, params),
            service=service,
            timeout=timeout,
            deadline=deadline,
            retries=retries,
            traceparent=traceparent,
        )
        return typed_result(result_type, result, method)

    def _wait(self, future: CallFuture) -> Any:
        """The future's value. The I/O thread ends every call by its deadline (and every call when it stops), so
        this only guards against a thread that is gone without a word (it failed, or this is a fork's child)."""
        while True:
            try:
                return future.result(timeout=LIVENESS_CHECK_SECONDS)
            except FutureTimeout:
                if not future.io.alive and not future.done():
                    future.cancel()
                    raise ClientClosedError("the Tally client's I/O thread is gone") from None
