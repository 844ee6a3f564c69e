"""What the blocking and the asyncio client share: settings, request building, and reading replies."""

from __future__ import annotations

import itertools
import math
import os
import re
import secrets
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import zmq

from . import models
from ._callbook import Call, RetryPolicy
from ._decoding import ModelError
from ._envelope import (
    MMI_PREFIX,
    MMI_SERVICE,
    Reply,
    check_method,
    check_request_id,
    encode_document,
    encode_request,
    request_frames,
)
from ._io import CallFuture, IOLoop, SocketSettings
from ._services import default_service, is_system
from ._tracing import current_trace
from .curve import Curve
from .errors import ClientClosedError, EndpointState, InvalidResponseError, TallyError, UsageError

ResultT = TypeVar("ResultT")

DEFAULT_TIMEOUT = 5.0
DEFAULT_BROKER = "tcp://127.0.0.1:5555"
_ENDPOINT = re.compile(r"^(tcp|ipc|inproc)://.+")
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h)")
_SECONDS_PER_UNIT = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def check_seconds(name: str, value: object) -> float:
    """A positive, finite number of seconds, or a ``ValueError`` naming the argument."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise UsageError(f"{name} must be a positive number of seconds, not {value!r}")
    return float(value)


def check_brokers(brokers: str | Sequence[str]) -> list[str]:
    """Broker endpoints as a list, each ``tcp://HOST:PORT``, ``ipc://PATH`` or ``inproc://NAME``."""
    endpoints = [brokers] if isinstance(brokers, str) else list(brokers)
    if not endpoints:
        raise UsageError("give at least one broker endpoint, e.g. 'tcp://127.0.0.1:5555'")
    for endpoint in endpoints:
        if not isinstance(endpoint, str) or not _ENDPOINT.match(endpoint):
            raise UsageError(f"a broker endpoint is tcp://HOST:PORT, ipc://PATH or inproc://NAME, not {endpoint!r}")
    return endpoints


def parse_duration(text: str, name: str) -> float:
    """Seconds of a duration written as Tally's binaries take them: ``250ms``, ``2.5s``, ``1m30s``; a bare number
    is milliseconds."""
    text = text.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return check_seconds(name, float(text) / 1000)
    position, total = 0, 0.0
    for match in _DURATION_PART.finditer(text):
        if match.start() != position:
            break
        total += float(match.group(1)) * _SECONDS_PER_UNIT[match.group(2)]
        position = match.end()
    if position != len(text) or not text:
        raise UsageError(f"{name}: {text!r} is not a duration such as 250ms, 2.5s or 1m30s")
    return check_seconds(name, total)


def settings_from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """Client settings from the variables the ``tally`` CLI reads: ``TALLY_BROKERS`` (comma-separated),
    ``TALLY_TIMEOUT``, ``TALLY_BROKER_HEARTBEAT`` (``0`` for none), ``TALLY_BROKER_TIMEOUT``,
    ``TALLY_CURVE_SECRET_KEY`` and ``TALLY_CURVE_SERVER_KEY``."""
    brokers = [part.strip() for part in environ.get("TALLY_BROKERS", DEFAULT_BROKER).split(",") if part.strip()]
    settings: dict[str, Any] = {"brokers": brokers}
    if environ.get("TALLY_TIMEOUT"):
        settings["timeout"] = parse_duration(environ["TALLY_TIMEOUT"], "TALLY_TIMEOUT")
    if environ.get("TALLY_BROKER_HEARTBEAT", "").strip() in ("0", "0s", "0ms"):
        settings["heartbeat"] = None
    elif environ.get("TALLY_BROKER_HEARTBEAT"):
        settings["heartbeat"] = parse_duration(environ["TALLY_BROKER_HEARTBEAT"], "TALLY_BROKER_HEARTBEAT")
    if environ.get("TALLY_BROKER_TIMEOUT"):
        settings["heartbeat_timeout"] = parse_duration(environ["TALLY_BROKER_TIMEOUT"], "TALLY_BROKER_TIMEOUT")
    secret, server = environ.get("TALLY_CURVE_SECRET_KEY", ""), environ.get("TALLY_CURVE_SERVER_KEY", "")
    if bool(secret) != bool(server):
        raise UsageError("CURVE needs TALLY_CURVE_SECRET_KEY and TALLY_CURVE_SERVER_KEY together")
    if secret:
        settings["curve"] = Curve.from_files(server_key=server, secret_key_file=secret)
    return settings


def result_of(reply: Reply, call: Call) -> Any:
    """The ``result`` of a v1 response; an error response raises TallyError with the call's attempts."""
    document = reply.document
    if document is None:
        raise InvalidResponseError(
            f"the reply is not a JSON object: {reply.body[:200]!r}",
            method=call.method,
            request_id=call.request_id,
            attempts=call.attempts,
        )
    if "error" in document:
        raise TallyError.from_response_error(
            document["error"], method=call.method, request_id=call.request_id, attempts=call.attempts
        )
    if "result" not in document:
        raise InvalidResponseError(
            "the reply has neither result nor error",
            method=call.method,
            request_id=call.request_id,
            attempts=call.attempts,
        )
    return document["result"]


def envelope_of(reply: Reply, call: Call) -> dict[str, Any]:
    """The whole v1 response, error responses included."""
    if reply.document is None:
        raise InvalidResponseError(
            f"the reply is not a JSON object: {reply.body[:200]!r}",
            request_id=call.request_id,
            attempts=call.attempts,
        )
    return dict(reply.document)


def mmi_status(reply: Reply, call: Call) -> str:
    """The status code of an MMI reply (``200``, ``404``, ``501``)."""
    return reply.body.decode("utf-8", "replace")


def typed_params(method: str, params: Any) -> Any:
    """Checks that ``params`` is the method's params model or a mapping; ``None`` only where params are optional."""
    spec = models.METHODS.get(method)
    if spec is None:
        raise UsageError(f"{method} is not a method of the schemas this client was generated from")
    if params is None:
        if is_system(method):
            return None
        raise UsageError(f"{method} needs params: a {spec.params.__name__} or a mapping of its members")
    if isinstance(params, (Mapping, spec.params)):
        return params
    raise UsageError(f"{method} takes {spec.params.__name__} (or a mapping), not {type(params).__name__}")


def typed_result(result_type: type[ResultT], result: Any, method: str) -> ResultT:
    """A result document read into its model; a document of another shape is an ``invalid_response``."""
    try:
        return result_type.from_json(result, "result")  # type: ignore[attr-defined, no-any-return]
    except ModelError as error:
        raise InvalidResponseError(f"the result does not match its schema: {error}", method=method) from None


_LIVE_CORES: weakref.WeakSet[ClientCore] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for core in list(_LIVE_CORES):
        core.forked()


os.register_at_fork(after_in_child=_after_fork_in_child)


class ClientCore:
    """The I/O thread and the calls made through it, for :class:`tally.TallyClient` and
    :class:`tally.AsyncTallyClient`. Safe to use from any thread.

    A client made before ``os.fork()`` (gunicorn ``--preload``, Celery's prefork pool, multiprocessing) keeps working
    in the child, as redis-py's pool does: no thread survives a fork, and the parent's sockets and context are the
    parent's, so the child lets them be (never closing them: that would reach into the parent's libzmq) and makes
    its own context, sockets and I/O thread at its first call. What the parent had in flight is answered in the
    parent alone; a copy of such a call waited on in the child fails with ClientClosedError within a second.
    """

    def __init__(
        self,
        brokers: str | Sequence[str],
        *,
        curve: Curve | None,
        timeout: float,
        retries: int,
        backoff: float,
        max_backoff: float,
        attempt_timeout: float | None,
        heartbeat: float | None,
        heartbeat_timeout: float,
        context: zmq.Context[Any] | None,
    ) -> None:
        self.brokers = check_brokers(brokers)
        self.timeout = check_seconds("timeout", timeout)
        if attempt_timeout is not None:
            check_seconds("attempt_timeout", attempt_timeout)
        if heartbeat is not None:
            check_seconds("heartbeat", heartbeat)
        if curve is not None and not isinstance(curve, Curve):
            raise UsageError(f"curve must be a tally.Curve, not {type(curve).__name__}")
        self.policy = RetryPolicy(
            retries=retries, backoff=backoff, max_backoff=max_backoff, attempt_timeout=attempt_timeout
        )
        check_seconds("heartbeat_timeout", heartbeat_timeout)
        self._id_prefix = secrets.token_hex(4)
        self._counter = itertools.count(1)
        self._counter_lock = threading.Lock()
        self._closed = False
        self._curve = curve
        self._settings = SocketSettings(heartbeat=heartbeat, heartbeat_timeout=heartbeat_timeout)
        self._loop: IOLoop | None = None
        self._loop_lock = threading.Lock()
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._start_loop(context)
        _LIVE_CORES.add(self)

    def _start_loop(self, context: zmq.Context[Any] | None) -> IOLoop:
        loop = IOLoop(context or zmq.Context(), self.brokers, self._curve, self._settings, context is None)
        loop.start()
        self._loop = loop
        # A client dropped without close() still stops its thread (and closes its sockets).
        self._finalizer = weakref.finalize(self, loop.stop, 2.0)
        return loop

    def _io(self) -> IOLoop:
        """The I/O loop of this process: after a fork, the child's own, made at its first use."""
        loop = self._loop
        if loop is not None:
            return loop
        with self._loop_lock:
            if self._closed:
                raise ClientClosedError("the Tally client is closed")
            return self._loop or self._start_loop(None)

    def forked(self) -> None:
        """In a fork's child (``os.register_at_fork``): lets the parent's loop be, to make this process's own."""
        old, self._loop = self._loop, None
        self._loop_lock = threading.Lock()  # the parent's may have been held by a thread that is not here
        self._counter_lock = threading.Lock()
        self._id_prefix = secrets.token_hex(4)  # the parent goes on using its ids
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if old is not None:
            old.inbox.abandon()

    @property
    def closed(self) -> bool:
        if self._closed:
            return True
        loop = self._loop
        return loop is not None and not loop.alive

    def close(self) -> None:
        self._closed = True
        if self._finalizer is not None:
            self._finalizer()

    def endpoints(self) -> list[EndpointState]:
        return self._io().endpoints.snapshot()

    def _next(self) -> int:
        with self._counter_lock:
            return next(self._counter)

    def _budget(self, timeout: float | None, deadline: datetime | None) -> tuple[float, datetime, float]:
        """(seconds left, the deadline to send, monotonic deadline) of a call starting now: the earlier of
        ``timeout`` from now (default: the client's) and ``deadline``; a ``deadline`` that binds is sent as given."""
        wall_now = datetime.now(UTC)
        monotonic_now = time.monotonic()
        seconds = self.timeout if timeout is None else check_seconds("timeout", timeout)
        sent = wall_now + timedelta(seconds=seconds)
        if deadline is not None:
            if not isinstance(deadline, datetime) or deadline.tzinfo is None or deadline.utcoffset() is None:
                raise UsageError(f"deadline must be an aware datetime (with a time zone), not {deadline!r}")
            if timeout is None or deadline <= sent:
                seconds, sent = (deadline - wall_now).total_seconds(), deadline
        return seconds, sent, monotonic_now + seconds

    def _policy(self, retries: int | None) -> RetryPolicy:
        if retries is None:
            return self.policy
        return RetryPolicy(
            retries=retries,
            backoff=self.policy.backoff,
            max_backoff=self.policy.max_backoff,
            attempt_timeout=self.policy.attempt_timeout,
        )

    def _submit(self, call: Call, interpret: Any) -> CallFuture:
        if self._closed:
            raise ClientClosedError("the Tally client is closed")
        return self._io().submit(call, interpret)

    def start_method(
        self,
        method: str,
        params: Any,
        *,
        service: str | None,
        timeout: float | None,
        deadline: datetime | None,
        retries: int | None,
        traceparent: str | None,
    ) -> CallFuture:
        """Starts a call of ``method``; its future holds the ``result`` document or raises TallyError. Without a
        ``traceparent``, the current OpenTelemetry span's context is sent, if opentelemetry-api is installed and
        there is one."""
        check_method(method)
        service = default_service(method) if service is None else service
        check_service(service)
        seconds, sent_deadline, monotonic_deadline = self._budget(timeout, deadline)
        request_id = f"{self._id_prefix}-{self._next()}"
        tracestate = None
        if traceparent is None:  # the current OpenTelemetry span's, when there is one
            traceparent, tracestate = current_trace() or (None, None)
        body = encode_request(request_id, method, params, sent_deadline, traceparent, tracestate)
        call = Call(
            token=self._next(),
            request_id=request_id,
            service=service,
            frames=request_frames(service, body),
            started=monotonic_deadline - seconds,
            deadline=monotonic_deadline,
            policy=self._policy(retries),
            method=method,
        )
        return self._submit(call, result_of)

    def start_envelope(
        self, envelope: Mapping[str, Any], *, service: str, timeout: float | None, retries: int | None
    ) -> CallFuture:
        """Starts sending a whole envelope as it is; its future holds the whole response."""
        if not isinstance(envelope, Mapping):
            raise UsageError(f"envelope must be a mapping, not {type(envelope).__name__}")
        check_service(service)
        request_id = envelope.get("id")
        if request_id is not None and not isinstance(request_id, str):
            request_id = None  # the worker answers it with a null id: matched in order
        elif request_id is not None:
            check_request_id(request_id)
        seconds, _, monotonic_deadline = self._budget(timeout, None)
        method = envelope.get("method")
        call = Call(
            token=self._next(),
            request_id=request_id,
            service=service,
            frames=request_frames(service, encode_document(envelope)),
            started=monotonic_deadline - seconds,
            deadline=monotonic_deadline,
            policy=self._policy(retries),
            method=method if isinstance(method, str) else None,
        )
        return self._submit(call, envelope_of)

    def start_mmi(self, service: str, *, timeout: float | None) -> CallFuture:
        """Starts an MMI ``mmi.service`` query; its future holds the status code."""
        check_service(service)
        seconds, _, monotonic_deadline = self._budget(timeout, None)
        call = Call(
            token=self._next(),
            request_id=None,
            service=MMI_SERVICE,
            frames=request_frames(MMI_SERVICE, service.encode("utf-8")),
            started=monotonic_deadline - seconds,
            deadline=monotonic_deadline,
            policy=self.policy,
            method=MMI_SERVICE,
        )
        return self._submit(call, mmi_status)

    @staticmethod
    def from_environment(environ: Mapping[str, str] | None) -> dict[str, Any]:
        return settings_from_environment(os.environ if environ is None else environ)


def check_service(service: object) -> str:
    """An MDP service name Tally's broker accepts: 1–255 bytes of UTF-8."""
    if not isinstance(service, str) or not 1 <= len(service.encode("utf-8")) <= 255:
        raise UsageError(f"a service is a name of 1 to 255 bytes such as 'tally.history', not {service!r}")
    if service.startswith(MMI_PREFIX):
        raise UsageError(f"{service!r} is a management (MMI) name, not a Tally service; service_available() asks MMI")
    return service
