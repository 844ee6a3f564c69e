"""FakeTally: an in-process stand-in for Tally's broker and workers, for the tests of code that calls Tally.

It speaks MDP/0.1 on a ZeroMQ ROUTER socket (its own thread), so the real clients talk to it unchanged, and answers
as Tally does: the v1 envelope checked (``malformed_json``, ``invalid_request``, ``unsupported_version``,
``deadline_exceeded``), the params checked against the method's schema (``invalid_params`` naming the field, as
Tally names it), the method answered by the handler the test registered (``unknown_method`` without one), MMI
``mmi.service`` answered for the services it serves.
"""

from __future__ import annotations

import heapq
import itertools
import json
import re
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, TypeVar, overload

import zmq

from ._decoding import ModelError, instant, to_json_value
from ._schema import Problem, Schemas
from ._services import answers
from .errors import TallyBaseError, TallyError, error_for

MDP_CLIENT = b"MDPC01"
SERVICES = ("tally.history", "tally.streak", "tally.workout")
_METHOD_NAME = re.compile(r"^[a-z]+\.[a-z_]+$")
_TRACEPARENT = re.compile(r"^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$")

Handler = Callable[[Any], Any]
"""Takes a method's params (decoded JSON: a dict, or ``None`` when a ``system.*`` call has none) and returns its
result (a mapping, or a result model), a :class:`Reply`, or raises a :class:`tally.TallyError` to answer it."""
HandlerT = TypeVar("HandlerT", bound=Handler)


class FakeTallyError(TallyBaseError, AssertionError):
    """A handler of the fake raised something other than a TallyError (a bug of the test, answered ``internal``),
    raised when the fake closes, so that the test fails with the handler's traceback."""


class Reply:
    """Answers a handler may give besides a result: an error (``raise Reply.error(…)``), an answer sent later,
    no answer at all, or a body that is not a v1 response."""

    __slots__ = ("answer", "body", "delay", "silent")

    def __init__(
        self,
        answer: Any = None,
        *,
        delay: float = 0.0,
        silent: bool = False,
        body: bytes | Mapping[str, Any] | None = None,
    ) -> None:
        self.answer = answer
        self.delay = delay
        self.silent = silent
        self.body = body

    @staticmethod
    def error(code: str, message: str = "", details: Mapping[str, Any] | None = None) -> TallyError:
        """The error to raise (or return) for an answer ``{"error": {code, message, details}}``: a
        :class:`tally.TallyError` of the code's class (``Reply.error("overloaded", …)`` is an OverloadedError)."""
        return error_for(code, message or code.replace("_", " "), details)

    @classmethod
    def after(cls, seconds: float, answer: Any) -> Reply:
        """``answer`` (a result or a TallyError) sent ``seconds`` later; other requests are answered meanwhile."""
        return cls(answer, delay=seconds)

    @classmethod
    def no_answer(cls) -> Reply:
        """Nothing is sent back: the client's attempt times out (and is retried)."""
        return cls(silent=True)

    @classmethod
    def raw(cls, body: bytes | Mapping[str, Any]) -> Reply:
        """This body instead of a v1 response (a client's ``invalid_response`` path): bytes as they are, or a
        mapping as JSON, given the request's ``version`` and ``id`` unless it has them (``Reply.raw({"result": 1,
        "error": {}})``)."""
        return cls(body=body)


@dataclass(frozen=True)
class FakeRequest:
    """A request as the fake got it, for a test's assertions.

    Attributes:
        service: the MDP service it was sent to.
        envelope: the v1 envelope as decoded JSON (``{}`` when the body was not a JSON object).
        body: the body as sent.
        at: when it arrived (``time.monotonic()``).
    """

    service: str
    envelope: dict[str, Any]
    body: bytes
    at: float = field(default_factory=time.monotonic)

    @property
    def method(self) -> str | None:
        """The envelope's ``method``, or None when it has none (the fake answered ``invalid_request``)."""
        value = self.envelope.get("method")
        return value if isinstance(value, str) else None

    @property
    def params(self) -> Any:
        """The envelope's ``params`` as decoded JSON (a dict for a well-formed request), or None."""
        return self.envelope.get("params")

    @property
    def traceparent(self) -> str | None:
        """The W3C ``traceparent`` the request carried in its ``trace``, or None."""
        trace = self.envelope.get("trace")
        value = trace.get("traceparent") if isinstance(trace, Mapping) else None
        return value if isinstance(value, str) else None


class _RefusedError(TallyBaseError):
    """An error answer decided while reading the envelope (id as read, or ``None``)."""

    def __init__(self, error: TallyError, request_id: str | None) -> None:
        super().__init__(error.message)
        self.error = error
        self.request_id = request_id


class FakeTally:
    """A fake Tally (broker and workers in one, in this process) that answers with handlers a test registers.

    ::

        from tally import TallyClient
        from tally.testing import FakeTally, Reply

        with FakeTally() as fake, TallyClient(fake.endpoint) as client:
            fake.on("history.months", lambda params: {"as_of": params["today"], ...})
            fake.on("streak.summary", lambda params: Reply.error("pro_required", "…", {"field": "params.is_pro"}))
            ...
            assert fake.requests[0].params["time_zone"] == "Europe/Berlin"

    What it checks, as Tally does, before a handler sees the request: the envelope (``malformed_json``,
    ``invalid_request`` naming ``id``, ``method``, ``deadline`` or ``trace.traceparent``, ``unsupported_version``
    for a version other than 1, ``deadline_exceeded`` for a deadline that has passed), the service (``unavailable``
    for one it does not serve; ``unknown_method`` for a method of another service or without a handler), and the
    params against the method's params schema, shipped in the package (``invalid_params`` naming the field, as
    ``params.records[1].steps`` with ``is required``; a list over its element limit is ``payload_too_large``).
    Rules no schema says (two records for one date, a date after today) are the handler's to answer. A handler's
    result is checked against the method's result schema (``check_results``): a result Tally would never send
    fails the test, rather than being decoded as ``invalid_response``.

    Handlers run one at a time on the fake's thread. A handler that raises anything but a TallyError is answered
    ``internal``, and that exception is raised again (as :class:`FakeTallyError`) when the fake closes.

    Args:
        bind: the endpoint to listen on: by default a free loopback port (``tcp://127.0.0.1:0``; ``endpoint``
            says which), or ``ipc://PATH``. (Not ``inproc://``: the client knows a connection is up from the
            handshake events of its socket monitor, which inproc connections do not have.)
        services: the MDP services it serves (MMI says 200 for these, 404 for others).
        check_results: check handlers' results against the result schemas.
        context: a ZeroMQ context to use (by default its own, terminated on close).
    """

    def __init__(
        self,
        bind: str = "tcp://127.0.0.1:0",
        *,
        services: Iterable[str] = SERVICES,
        check_results: bool = True,
        context: zmq.Context[Any] | None = None,
    ) -> None:
        self.schemas = Schemas.shipped()
        self.services = set(services)
        self.check_results = check_results
        self.requests: list[FakeRequest] = []
        """Every request received (MMI queries included), oldest first."""
        self.failures: list[BaseException] = []
        """Exceptions handlers raised that were not TallyErrors (answered ``internal``)."""
        self._handlers: dict[str, Handler] = {}
        self._lock = threading.Lock()
        self._later: list[tuple[float, int, list[bytes]]] = []
        self._sequence = itertools.count()
        self._owns_context = context is None
        self.context: zmq.Context[Any] = context or zmq.Context()
        self._socket = self.context.socket(zmq.ROUTER)
        self._socket.linger = 0
        self._socket.bind(bind)
        self.endpoint: str = self._socket.getsockopt_string(zmq.LAST_ENDPOINT)
        """The endpoint clients connect to: ``tcp://127.0.0.1:PORT``, or the ``inproc://`` name given."""
        self._stop = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="tally-fake", daemon=True)
        self._thread.start()

    # Handlers -------------------------------------------------------------------------------------------------

    @overload
    def on(self, method: str, handler: HandlerT) -> HandlerT: ...

    @overload
    def on(self, method: str, handler: None = None) -> Callable[[HandlerT], HandlerT]: ...

    def on(self, method: str, handler: HandlerT | None = None) -> HandlerT | Callable[[HandlerT], HandlerT]:
        """Answers ``method`` with ``handler(params)``, and returns the handler; also a decorator
        (``@fake.on("history.months")``). A second registration replaces the first."""
        if not isinstance(method, str) or not _METHOD_NAME.match(method):
            raise ValueError(f"method must be 'area.name', not {method!r}")

        def register(function: HandlerT) -> HandlerT:
            with self._lock:
                self._handlers[method] = function
            return function

        return register if handler is None else register(handler)

    def off(self, method: str) -> None:
        """Forgets the handler of ``method`` (it is then ``unknown_method`` again)."""
        with self._lock:
            self._handlers.pop(method, None)

    def calls(self, method: str) -> list[FakeRequest]:
        """The requests of ``method`` received so far."""
        with self._lock:
            return [request for request in self.requests if request.method == method]

    # Lifecycle ------------------------------------------------------------------------------------------------

    def close(self) -> None:
        """Stops answering and closes the socket; raises :class:`FakeTallyError` if a handler failed."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._thread.join(5)
        self._socket.close(0)
        if self._owns_context:
            self.context.term()
        if self.failures:
            first = self.failures[0]
            text = "".join(traceback.format_exception(first)).rstrip()
            raise FakeTallyError(f"{len(self.failures)} handler(s) of FakeTally failed; the first:\n{text}") from first

    def __enter__(self) -> FakeTally:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is None:
            self.close()
        else:  # the test's own failure comes first
            self.failures.clear()
            self.close()

    # The loop -------------------------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            wait = 50
            if self._later:
                wait = max(0, min(wait, int((self._later[0][0] - time.monotonic()) * 1000) + 1))
            if self._socket.poll(wait):
                frames = self._socket.recv_multipart()
                reply = self._answer(frames)
                if reply is not None:
                    delay, out = reply
                    if delay > 0:
                        heapq.heappush(self._later, (time.monotonic() + delay, next(self._sequence), out))
                    else:
                        self._socket.send_multipart(out)
            while self._later and self._later[0][0] <= time.monotonic():
                self._socket.send_multipart(heapq.heappop(self._later)[2])

    def _answer(self, frames: list[bytes]) -> tuple[float, list[bytes]] | None:
        if len(frames) != 5 or frames[1] != b"" or frames[2] != MDP_CLIENT:
            return None  # not an MDP/0.1 client request: a broker drops it
        sender, service_frame, body = frames[0], frames[3], frames[4]
        service = service_frame.decode("utf-8", "replace")
        try:
            envelope = json.loads(body)
        except ValueError:
            envelope = None
        with self._lock:
            self.requests.append(FakeRequest(service, envelope if isinstance(envelope, dict) else {}, body))

        def out(payload: bytes) -> list[bytes]:
            return [sender, b"", MDP_CLIENT, service_frame, payload]

        if service.startswith("mmi."):
            status = b"501"
            if service == "mmi.service":
                status = b"200" if body.decode("utf-8", "replace") in self.services else b"404"
            return 0.0, out(status)
        try:
            request_id, method, params = self._read(service, body)
            answer = self._call(method, params)
        except _RefusedError as refusal:
            return 0.0, out(_error_body(refusal.request_id, refusal.error))
        if isinstance(answer, Reply):
            if answer.silent:
                return None
            if isinstance(answer.body, bytes):
                return answer.delay, out(answer.body)
            if answer.body is not None:
                document = {"version": 1, "id": request_id, **answer.body}
                return answer.delay, out(json.dumps(document, ensure_ascii=False).encode())
            return answer.delay, out(self._body(request_id, method, answer.answer))
        return 0.0, out(self._body(request_id, method, answer))

    def _read(self, service: str, body: bytes) -> tuple[str, str, Any]:
        """The id, method and params of a request Tally would compute, or the refusal Tally would answer."""
        try:
            envelope = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, UnicodeDecodeError):
            raise _RefusedError(error_for("malformed_json", "the body is not a JSON text"), None) from None
        if not isinstance(envelope, dict):
            raise _RefusedError(error_for("invalid_request", "the body must be a JSON object",
                                     {"problem": "must be an object"}), None)
        request_id = envelope.get("id")
        if not isinstance(request_id, str) or not 1 <= len(request_id) <= 128:
            problem = "is required" if "id" not in envelope else "must be a string of 1 to 128 characters"
            raise _RefusedError(_invalid_request("id", problem), None)
        if "version" not in envelope:
            raise _RefusedError(_invalid_request("version", "is required"), request_id)
        version = envelope["version"]
        if isinstance(version, bool) or not isinstance(version, int):
            raise _RefusedError(_invalid_request("version", "must be an integer"), request_id)
        if version != 1:
            raise _RefusedError(error_for("unsupported_version", f"version {version} is not served; this serves 1",
                                     {"field": "version", "supported_versions": [1]}), request_id)
        method = envelope.get("method")
        if not isinstance(method, str):
            problem = "is required" if "method" not in envelope else "must be a string"
            raise _RefusedError(_invalid_request("method", problem), request_id)
        self._check_trace(envelope, request_id)
        if "deadline" in envelope:
            try:
                deadline = instant(envelope["deadline"], "deadline")
            except ModelError as error:
                raise _RefusedError(_invalid_request("deadline", error.problem), request_id) from None
            if deadline <= datetime.now(UTC):
                raise _RefusedError(error_for("deadline_exceeded", "the request's deadline had passed"), request_id)
        if service not in self.services:
            unavailable = error_for("unavailable", f"no worker serves {service}", {"service": service})
            raise _RefusedError(unavailable, request_id)
        with self._lock:
            handled = sorted(name for name in self._handlers if answers(service, name))
            known = method in self._handlers and answers(service, method)
        if not known:
            raise _RefusedError(error_for("unknown_method", f"{service} has no method {method!r} (handlers: {handled})",
                                     {"field": "method", "service": service, "methods": handled}), request_id)
        params = envelope.get("params")
        schema = self.schemas.method_schema(method, "params")
        if schema is not None:
            refused = self.schemas.check(params, schema, "params")
            if refused is not None:
                raise _RefusedError(_refusal_of(refused), request_id)
        return request_id, method, params

    def _check_trace(self, envelope: Mapping[str, Any], request_id: str) -> None:
        if "trace" not in envelope:
            return
        trace = envelope["trace"]
        if not isinstance(trace, Mapping):
            raise _RefusedError(_invalid_request("trace", "must be an object"), request_id)
        if "traceparent" not in trace:
            raise _RefusedError(_invalid_request("trace.traceparent", "is required"), request_id)
        problem = traceparent_problem(trace["traceparent"])
        if problem is not None:
            raise _RefusedError(_invalid_request("trace.traceparent", problem), request_id)
        state = trace.get("tracestate")
        if state is not None and (not isinstance(state, str) or len(state) > 512):
            raise _RefusedError(_invalid_request("trace.tracestate", "must be a string of at most 512 characters"),
                           request_id)

    def _call(self, method: str, params: Any) -> Any:
        with self._lock:
            handler = self._handlers[method]
        try:
            return handler(params)
        except TallyError as error:
            return error
        except Exception as error:  # a bug of the test's handler: answered internal, raised at close
            self.failures.append(error)
            return error_for("internal", f"the handler of {method} raised {error!r}")

    def _body(self, request_id: str, method: str, answer: Any) -> bytes:
        if isinstance(answer, TallyError):
            return _error_body(request_id, answer)
        try:
            result = to_json_value(answer, "result")
        except ModelError as error:
            self.failures.append(error)
            return _error_body(request_id, error_for("internal", f"the result of {method} cannot be sent: {error}"))
        schema = self.schemas.method_schema(method, "result") if self.check_results else None
        if schema is not None:
            problem = self.schemas.check(result, schema, "result")
            if problem is not None:
                failure = AssertionError(
                    f"the handler of {method} returned a result Tally would not send: {problem.field}: "
                    f"{problem.problem} (FakeTally(check_results=False) sends it anyway)"
                )
                self.failures.append(failure)
                return _error_body(request_id, error_for("internal", str(failure)))
        return json.dumps({"version": 1, "id": request_id, "result": result}, ensure_ascii=False).encode()


def traceparent_problem(value: Any) -> str | None:
    """What is wrong with a W3C ``traceparent`` (Protocol/README.md, Trace context), as Tally words it."""
    if not isinstance(value, str):
        return "must be a string"
    match = _TRACEPARENT.match(value)
    if match is None:
        return "must be VERSION-TRACE_ID-PARENT_ID-FLAGS in lowercase hex (2, 32, 16 and 2 digits)"
    version, trace_id, parent_id, _, rest = match.groups()
    if version == "ff":
        return "version ff is invalid"
    if version == "00" and rest is not None:
        return f"version 00 has 55 characters, not {len(value)}"
    if trace_id == "0" * 32:
        return "trace-id must not be all zeros"
    if parent_id == "0" * 16:
        return "parent-id must not be all zeros"
    return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _invalid_request(field_path: str, problem: str) -> TallyError:
    return error_for("invalid_request", f"{field_path}: {problem}", {"field": field_path, "problem": problem})


def _refusal_of(problem: Problem) -> TallyError:
    return error_for(problem.code, f"{problem.field}: {problem.problem}", problem.details())


def _error_body(request_id: str | None, error: TallyError) -> bytes:
    body: dict[str, Any] = {"code": error.code, "message": error.message}
    if error.details:
        body["details"] = dict(error.details)
    return json.dumps({"version": 1, "id": request_id, "error": body}, ensure_ascii=False).encode()
