"""The wire: MDP/0.1 client frames (RFC 7) around a Tally v1 JSON envelope (Protocol/README.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ._decoding import to_json_value
from .errors import UsageError

MDP_CLIENT = b"MDPC01"
PROTOCOL_VERSION = 1
MMI_PREFIX = "mmi."
MMI_SERVICE = "mmi.service"
_METHOD_NAME = re.compile(r"^[a-z]+\.[a-z_]+$")
_MAX_ID_LENGTH = 128


def check_method(method: object) -> str:
    """``method`` if it is a v1 method name (``area.name``), else a ``ValueError`` saying why."""
    if not isinstance(method, str) or not _METHOD_NAME.match(method):
        raise UsageError(f"method must be 'area.name' in lower case (e.g. 'history.month'), not {method!r}")
    return method


def format_instant(instant: datetime) -> str:
    """An aware datetime as RFC 3339 in UTC with milliseconds: ``2026-11-23T10:15:02.500Z``."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise UsageError(f"a deadline must be an aware datetime (with a time zone), not {instant!r}")
    utc = instant.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def encode_request(
    request_id: str,
    method: str,
    params: Any,
    deadline: datetime | None,
    traceparent: str | None = None,
    tracestate: str | None = None,
) -> bytes:
    """The UTF-8 JSON body of a v1 request; ``params`` ``None`` leaves the member out, and so does a
    ``traceparent`` ``None`` the ``trace`` member (``tracestate`` goes only with a ``traceparent``)."""
    envelope: dict[str, Any] = {"version": PROTOCOL_VERSION, "id": request_id, "method": method}
    # Before the params: the broker reads the trace for its log lines from the start of the body only.
    if traceparent is not None:
        envelope["trace"] = {"traceparent": traceparent}
        if tracestate is not None:
            envelope["trace"]["tracestate"] = tracestate
    if params is not None:
        envelope["params"] = params_document(params)
    if deadline is not None:
        envelope["deadline"] = format_instant(deadline)
    return encode_document(envelope)


def params_document(params: Any) -> dict[str, Any]:
    """Params (a model or a mapping, possibly holding models) as a JSON object."""
    document = to_json_value(params, "params")
    if not isinstance(document, Mapping):
        raise UsageError(f"params must be a params model or a mapping, not {type(params).__name__}")
    return dict(document)


def encode_document(document: Mapping[str, Any]) -> bytes:
    """A JSON object as compact UTF-8, with a clear error for values JSON cannot hold."""
    try:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as error:
        raise UsageError(f"the request cannot be written as JSON: {error}") from error


def check_request_id(request_id: object) -> str:
    """A request id as v1 allows it: a string of 1–128 characters."""
    if not isinstance(request_id, str) or not 1 <= len(request_id) <= _MAX_ID_LENGTH:
        raise UsageError(f"a request id must be a string of 1 to {_MAX_ID_LENGTH} characters, not {request_id!r}")
    return request_id


def request_frames(service: str, body: bytes) -> list[bytes]:
    """An MDP/0.1 client request: empty delimiter, ``MDPC01``, service, body."""
    return [b"", MDP_CLIENT, service.encode("utf-8"), body]


@dataclass(frozen=True)
class Reply:
    """A reply from the broker: its service and body, and the body read as JSON where it is JSON.

    Attributes:
        service: the service that answered (``mmi.service`` for MMI).
        body: the raw body frame.
        document: the body as a JSON object, or ``None`` when it is not one (MMI status codes, garbage).
    """

    service: str
    body: bytes
    document: Mapping[str, Any] | None

    @property
    def request_id(self) -> str | None:
        """The response's ``id``, when it has a readable one."""
        if self.document is None:
            return None
        value = self.document.get("id")
        return value if isinstance(value, str) else None

    @property
    def error_code(self) -> str | None:
        """The code of an error response, else ``None``."""
        if self.document is None:
            return None
        error = self.document.get("error")
        code = error.get("code") if isinstance(error, Mapping) else None
        return code if isinstance(code, str) else None


def decode_reply(frames: list[bytes]) -> Reply | None:
    """A client reply (``""``, ``MDPC01``, service, body), or ``None`` for anything else (dropped)."""
    if len(frames) != 4 or frames[0] != b"" or frames[1] != MDP_CLIENT:
        return None
    try:
        service = frames[2].decode("utf-8")
    except UnicodeDecodeError:
        return None
    body = frames[3]
    document: Mapping[str, Any] | None = None
    if not service.startswith(MMI_PREFIX):
        try:
            parsed = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            parsed = None
        document = parsed if isinstance(parsed, Mapping) else None
    return Reply(service, body, document)
