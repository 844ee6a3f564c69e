#!/usr/bin/env python3
"""Validates one JSON document against one of Protocol/schemas (with every other schema available for $ref).

Usage: python3 Protocol/tools/validate_document.py SCHEMA [FILE]   (SCHEMA relative to Protocol/schemas, e.g.
console/cluster.v1.schema.json; the document from FILE or standard input). Exit status 0 when valid, 1 with each
problem on standard output. Needs the `jsonschema` package.
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent / "schemas"


def main(arguments):
    if len(arguments) not in (1, 2):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    resources = []
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    schema = json.loads((SCHEMAS / arguments[0]).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    text = pathlib.Path(arguments[1]).read_text(encoding="utf-8") if len(arguments) == 2 else sys.stdin.read()
    validator = Draft202012Validator(schema, registry=Registry().with_resources(resources))
    problems = [f"{'/'.join(map(str, error.absolute_path)) or '(document)'}: {error.message}"
                for error in validator.iter_errors(json.loads(text))]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
