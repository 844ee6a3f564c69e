#!/usr/bin/env python3
"""Validates Protocol/: every schema against the JSON Schema 2020-12 metaschema, and every example's request
and response against the envelope schema and its method's params/result schema.

Usage: python3 Protocol/tools/validate_examples.py   (exit status 0 when everything is valid)
Needs the `jsonschema` package (pip install jsonschema).
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
EXAMPLES = ROOT / "examples"


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def main():
    resources = []
    problems = []
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        schema = load(path)
        try:
            Draft202012Validator.check_schema(schema)
        except Exception as error:  # noqa: BLE001 - report every broken schema
            problems.append(f"{path.relative_to(ROOT)}: not a valid 2020-12 schema: {error}")
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)

    def validator(name):
        schema = load(SCHEMAS / name)
        return Draft202012Validator(schema, registry=registry)

    request_envelope = validator("request.schema.json")
    response_envelope = validator("response.schema.json")
    methods = {p.name.split(".params")[0] for p in (SCHEMAS / "methods").glob("*.params.schema.json")}
    count = 0
    for path in sorted(EXAMPLES.rglob("*.json")):
        count += 1
        example = load(path)
        where = path.relative_to(ROOT)
        for key in ("description", "service", "request", "response"):
            if key not in example:
                problems.append(f"{where}: missing '{key}'")
        request, response = example.get("request", {}), example.get("response", {})
        method = request.get("method")
        is_error_example = "error" in response
        # Error examples may carry deliberately invalid requests; only successful ones must match the schemas.
        if not is_error_example:
            for error in request_envelope.iter_errors(request):
                problems.append(f"{where}: request: {error.message}")
            if method not in methods:
                problems.append(f"{where}: no params schema for method '{method}'")
            else:
                for error in validator(f"methods/{method}.params.schema.json").iter_errors(request.get("params")):
                    problems.append(f"{where}: params at {list(error.path)}: {error.message}")
                result = response.get("result")
                for error in validator(f"methods/{method}.result.schema.json").iter_errors(result):
                    if not touches_wildcard(response.get("result"), list(error.path)):
                        problems.append(f"{where}: result at {list(error.path)}: {error.message}")
        for error in response_envelope.iter_errors(response):
            if not touches_wildcard(response, list(error.path)):
                problems.append(f"{where}: response: {error.message}")
    for problem in problems:
        print(problem)
    print(f"{count} examples, {len(problems)} problems")
    return 1 if problems or count == 0 else 0


WILDCARD = "$any"


def touches_wildcard(document, path):
    """Whether a schema error sits at (or under) a "$any" placeholder, which stands for any value."""
    node = document
    for step in path:
        if node == WILDCARD:
            return True
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return False
    return node == WILDCARD


if __name__ == "__main__":
    sys.exit(main())
