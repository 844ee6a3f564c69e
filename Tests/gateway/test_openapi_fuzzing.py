"""schemathesis against the live gateway, from the gateway's own /openapi.json: requests generated from each
operation's schemas (valid and not), every answer checked against the document (its status is one the operation
lists, its content type, headers and body match their schemas) and none a server error.

With workers up nothing is unavailable and no call outlives the gateway's default time, so a 5xx is a fault; the one
exception is `deadline_exceeded` for a request that set its own deadline (an envelope's `deadline`, already past
when it is generated, or a short `Request-Timeout`): the caller's own time ran out, which 504 says.
"""

from __future__ import annotations

import collections
import json
import time

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from conftest import Gateway

REQUESTS_PER_OPERATION = 100
# Every operation's requests within this, on a busy two-core machine with debug binaries.
SECONDS_PER_OPERATION = 120
CHECKS = [status_code_conformance, content_type_conformance, response_headers_conformance, response_schema_conformance]


def own_deadline(case: schemathesis.Case) -> bool:
    headers = {name.lower(): value for name, value in (case.headers or {}).items()}
    return "request-timeout" in headers or (isinstance(case.body, dict) and "deadline" in case.body)


def fuzz(
    operation: schemathesis.APIOperation,
    base_url: str,
    sent: collections.Counter[str],
    reached: collections.Counter[str],
) -> None:
    """Sends `operation` the requests Hypothesis generates for it (the same ones every run), checking each answer."""

    @settings(
        max_examples=REQUESTS_PER_OPERATION + 20,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def exchange(case: schemathesis.Case) -> None:
        response = case.call(base_url=base_url, timeout=30)
        sent[operation.label] += 1
        case.validate_response(response, checks=CHECKS)
        body = json.loads(response.content)
        # A result, or params judged by the worker (the gateway itself never answers invalid_params).
        if response.status_code == 200 or (
            isinstance(body, dict) and "error" in body and body["error"]["code"] == "invalid_params"
        ):
            reached[operation.label] += 1
        if response.status_code >= 500:
            assert (
                response.status_code == 504 and body["error"]["code"] == "deadline_exceeded" and own_deadline(case)
            ), f"{operation.label} {response.status_code}: {response.text[:500]}"

    exchange()


def test_generated_requests_get_documented_answers_and_no_server_error(gateway: Gateway) -> None:
    schema = schemathesis.openapi.from_url(f"{gateway.base_url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    labels = {operation.label for operation in operations}
    methods = {path for path in gateway.document()["paths"] if path.startswith("/v1/")}
    assert {f"POST {path}" for path in methods} | {"POST /v1"} <= labels
    sent: collections.Counter[str] = collections.Counter()
    reached: collections.Counter[str] = collections.Counter()
    for operation in operations:
        started = time.monotonic()
        fuzz(operation, gateway.base_url, sent, reached)
        assert time.monotonic() - started < SECONDS_PER_OPERATION, operation.label
    # GET /openapi.json has no input to vary: what it is asked says it all.
    varied = {label: count for label, count in sent.items() if label != "GET /openapi.json"}
    assert len(varied) == len(methods) + 1, varied
    assert all(count >= REQUESTS_PER_OPERATION for count in varied.values()), varied
    # Generated data reached the workers for every method, not only the gateway's own refusals.
    assert set(reached) >= set(varied), set(varied) - set(reached)


@pytest.mark.parametrize("path", ["/", "/v2/system.ping", "/metrics", "/v1/system.ping/x"])
def test_no_route_but_the_documented_ones(gateway: Gateway, path: str) -> None:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(f"{gateway.base_url}{path}", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 404
    assert json.loads(refused.value.read())["error"]["code"] == "not_found"
