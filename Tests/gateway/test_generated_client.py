"""A Python client generated from the live gateway's /openapi.json by openapi-python-client (PyPI), as a team in any
language would generate one, calls every method with every Protocol example whose answer is a result, and gets what
the example says; an error example's answer is parsed as the v1 error body. Nothing here is Tally's own client."""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import subprocess
import sys
import typing
from collections.abc import Iterator
from types import ModuleType

import pytest

from conftest import Gateway, examples, matches


@pytest.fixture(scope="module")
def generated(gateway: Gateway, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The package openapi-python-client writes for the document, imported."""
    folder = tmp_path_factory.mktemp("generated")
    document = folder / "openapi.json"
    document.write_text(json.dumps(gateway.document()))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(document),
            "--output-path",
            str(folder / "client"),
            "--overwrite",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # A method the generator could not read is left out with a warning, not an error: none may be.
    assert "WARNING" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(folder / "client"))
    try:
        yield importlib.import_module("tally_client")
    finally:
        sys.path.remove(str(folder / "client"))
        for name in [name for name in sys.modules if name == "tally_client" or name.startswith("tally_client.")]:
            del sys.modules[name]


def operation(package: ModuleType, method: str) -> ModuleType:
    """The generated module of `method` (`streak.summary` → tally_client.api.streak.streak_summary)."""
    area, name = method.split(".")
    return importlib.import_module(f"{package.__name__}.api.{area}.{area}_{name}")


def body_of(module: ModuleType, params: object) -> object:
    """The method's generated params model made of `params`, as a caller would build it."""
    annotation = inspect.signature(module.sync_detailed).parameters["body"].annotation
    models = [member for member in typing.get_args(annotation) or (annotation,) if hasattr(member, "from_dict")]
    assert len(models) == 1, annotation
    return models[0].from_dict(params if params is not None else {})


CALLED: set[str] = set()


@pytest.mark.parametrize(
    ("name", "example"), [(name, example) for name, example in examples() if not name.startswith("errors/")]
)
def test_each_example_through_the_generated_client(
    generated: ModuleType, gateway: Gateway, name: str, example: dict
) -> None:
    request, expected = example["request"], example["response"]
    method = request["method"]
    module = operation(generated, method)
    client = generated.Client(base_url=gateway.base_url, raise_on_unexpected_status=True)
    headers = {"Tally-Service": example["service"]} if method.startswith("system.") else {}
    try:
        body = body_of(module, request.get("params"))
    except (KeyError, ValueError, TypeError):
        # Params that break the method's rules may not make a model at all: the error examples say what Tally
        # answers them; the generated client refuses to send them.
        assert "error" in expected, f"{name}: the generated model refuses params Tally takes"
        return
    response = module.sync_detailed(client=client.with_headers(headers), body=body)
    CALLED.add(method)
    if "result" in expected:
        assert response.status_code == 200, f"{name}: {response.content[:500]!r}"
        assert response.parsed is not None and type(response.parsed).__name__ != "TallyV1ErrorResponse"
        assert matches(json.loads(response.content), expected["result"]), f"{name}: {response.content[:800]!r}"
    else:
        assert response.status_code >= 400, f"{name}: {response.content[:500]!r}"
        assert type(response.parsed).__name__ == "TallyV1ErrorResponse", f"{name}: {response.parsed!r}"
        assert response.parsed.error.code == expected["error"]["code"]


def test_every_method_was_called(generated: ModuleType) -> None:
    methods = {
        path.parent.name
        for path in (pathlib.Path(__file__).resolve().parents[2] / "Protocol/examples").glob("*/*.json")
        if path.parent.name != "errors"
    }
    assert CALLED == methods, methods - CALLED
