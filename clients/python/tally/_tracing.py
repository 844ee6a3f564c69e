"""W3C trace context from OpenTelemetry, when ``opentelemetry-api`` is installed (the ``otel`` extra).

A call given no ``traceparent=`` carries the current span's context, so that a backend that already traces its
requests (an instrumented web framework) continues its trace through Tally's broker and worker logs. Without the
package, or without a valid current span (no SDK set up, nothing being traced), nothing is added. The API is
imported once, at the first call that could use it; nothing here starts, ends or records a span.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

_UNLOADED: Any = object()
_otel_trace: Any = _UNLOADED
_load_lock = threading.Lock()


def _opentelemetry_trace() -> Any:
    """``opentelemetry.trace``, or ``None`` when opentelemetry-api is not installed."""
    global _otel_trace
    if _otel_trace is _UNLOADED:
        with _load_lock:
            if _otel_trace is _UNLOADED:
                try:
                    _otel_trace = importlib.import_module("opentelemetry.trace")
                except ImportError:
                    _otel_trace = None
    return _otel_trace


def forget_opentelemetry() -> None:
    """Imports the API again at the next call (for tests that install or hide it)."""
    global _otel_trace
    with _load_lock:
        _otel_trace = _UNLOADED


def current_trace() -> tuple[str, str | None] | None:
    """(traceparent, tracestate or ``None``) of the current OpenTelemetry span, if there is a valid one."""
    trace = _opentelemetry_trace()
    if trace is None:
        return None
    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    traceparent = f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"
    state = context.trace_state.to_header() if context.trace_state else ""
    return traceparent, state or None
