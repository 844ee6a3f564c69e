"""Every Protocol example (Protocol/examples/**.json: request, service, response) replayed against a real broker
and worker through the typed API: params built as models, the typed call per method, the result model written
back and compared with the expected response ("$any" matches any value)."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from conftest import PROTOCOL
from tally import ModelError, TallyClient, TallyError
from tally.models import METHODS

EXAMPLES = sorted((PROTOCOL / "examples").rglob("*.json"))
ANY = "$any"


def differences(actual: Any, expected: Any, path: str = "") -> list[str]:
    """Where ``actual`` differs from ``expected``; ``"$any"`` in ``expected`` matches anything."""
    if expected == ANY:
        return []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected an object, got {actual!r}"]
        found = []
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                found.append(f"{path}.{key}: missing")
            elif key not in expected:
                found.append(f"{path}.{key}: not expected ({actual[key]!r})")
            else:
                found += differences(actual[key], expected[key], f"{path}.{key}")
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} elements, got {actual!r}"]
        return [problem for index, pair in enumerate(zip(actual, expected, strict=True))
                for problem in differences(pair[0], pair[1], f"{path}[{index}]")]
    if actual != expected or isinstance(actual, bool) != isinstance(expected, bool):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def error_document(error: TallyError) -> dict[str, Any]:
    document: dict[str, Any] = {"code": error.code, "message": error.message}
    if error.details:
        document["details"] = dict(error.details)
    return document


def is_typed_envelope(request: dict[str, Any]) -> bool:
    """Whether the typed API can send this request: a v1 envelope of a known method with a string id."""
    return (
        request.get("version") == 1
        and isinstance(request.get("id"), str)
        and request.get("method") in METHODS
        and set(request) <= {"version", "id", "method", "params"}
    )


def test_there_are_examples_of_every_method() -> None:
    methods = {json.loads(path.read_text())["request"].get("method") for path in EXAMPLES}
    assert set(METHODS) <= methods


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_example_replayed_through_the_typed_api(client: TallyClient, path: pathlib.Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    request, expected, service = example["request"], example["response"], example["service"]
    method = request.get("method")

    if not is_typed_envelope(request):
        if request.get("version") == 1 and isinstance(request.get("id"), str):
            # A method no schema has, or a trace Tally refuses: the raw call sends it (the trace through
            # ``traceparent``); Tally's error comes back as a TallyError.
            trace = request.get("trace") or {}
            with pytest.raises(TallyError) as raised:
                client.call(method, request.get("params"), service=service, traceparent=trace.get("traceparent"))
            assert not differences(error_document(raised.value), expected["error"])
            return
        # The envelope itself is what is wrong (no id, version 2): sent as written, the response compared whole.
        response = client.send_envelope(request, service=service)
        assert not differences(response, expected), differences(response, expected)
        return

    spec = METHODS[method]
    try:
        params = spec.params.from_json(request.get("params"), "params")
    except ModelError as refused:
        # The model cannot even hold these params (a required member is missing): it refuses them naming the
        # field Tally names, and Tally, sent them raw, answers as the example says.
        assert "error" in expected and refused.path == expected["error"]["details"]["field"]
        with pytest.raises(TallyError) as raised:
            client.call(method, request.get("params"), service=service)
        assert not differences(error_document(raised.value), expected["error"])
        return
    assert params.to_json() == (request.get("params") or {}), "the params model lost or changed members"

    typed_call = getattr(client, method.replace(".", "_"))
    if not method.startswith("system."):
        assert spec.service == service, f"{method} is served by {service}, the client sends it to {spec.service}"

    def call() -> object:
        return typed_call(params, service=service) if method.startswith("system.") else typed_call(params)

    if "error" in expected:
        with pytest.raises(TallyError) as raised:
            call()
        problems = differences(error_document(raised.value), expected["error"])
        assert not problems, problems
        assert raised.value.method == method and raised.value.request_id is not None
    else:
        result = call()
        assert isinstance(result, spec.result)
        problems = differences(result.to_json(), expected["result"])
        assert not problems, problems
