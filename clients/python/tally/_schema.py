"""Tally's JSON Schemas, shipped inside the package (``tally/schemas``, copied from Protocol/schemas by
tools/generate_models.py), and a validator of the part of JSON Schema 2020-12 they use, for the test double
(:class:`tally.testing.FakeTally`).

The validator reports the first problem it meets, as Tally's worker does, in its words and with its field paths
(``params.records[3].steps``, ``is required``, ``must be an integer, not a string``): members in the schema's order,
the parts of an ``allOf`` first. Beyond the schemas it checks what Tally checks of dates and instants (a date of
the calendar, an instant within 0001…9999); rules between members that no schema says (two records for one date,
a date after today) are the handler's to answer.
"""

from __future__ import annotations

import json
import math
import re
import threading
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ._decoding import ModelError, instant, local_date, member_path

LOCAL_DATE = "common.schema.json#/$defs/local_date"
INSTANT = "common.schema.json#/$defs/instant"
_INT64 = 2**63
_ARTICLES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "a boolean",
    "array": "an array",
    "object": "an object",
    "null": "null",
}


@dataclass(frozen=True)
class Problem:
    """What is wrong, where: the ``details`` of Tally's error (``field``, ``problem``, ``conflicts_with``).

    ``code`` is ``invalid_params`` but for a list over its element limit (``payload_too_large``, with ``limit``).
    ``weak`` marks a mismatch of a ``const`` or ``enum`` inside an alternative: that alternative was not meant.
    """

    field: str
    problem: str
    conflicts_with: str | None = None
    code: str = "invalid_params"
    limit: int | None = None
    weak: bool = False

    def details(self) -> dict[str, Any]:
        found: dict[str, Any] = {"field": self.field}
        if self.code == "payload_too_large":
            found["limit"] = self.limit
        else:
            found["problem"] = self.problem
        if self.conflicts_with is not None:
            found["conflicts_with"] = self.conflicts_with
        return found


def json_type(value: Any) -> str:
    """The JSON type name of a decoded value: ``integer`` for 3, ``number`` for 1.5, ``null`` for None."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() and abs(value) < _INT64 else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _is_type(value: Any, kind: str) -> bool:
    actual = json_type(value)
    if kind == "number":
        return actual in ("integer", "number")
    if kind == "integer" and actual == "integer":
        return bool(-_INT64 <= value < _INT64)
    return actual == kind


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


class Schemas:
    """Schemas by ``$id``, and the validation of documents against them."""

    def __init__(self, documents: Mapping[str, Any]) -> None:
        self.documents = dict(documents)

    @classmethod
    def shipped(cls) -> Schemas:
        """The schemas inside the package (read once)."""
        global _shipped
        with _shipped_lock:
            if _shipped is None:
                documents = {}
                pending = [resources.files("tally") / "schemas"]
                while pending:
                    folder = pending.pop()
                    for entry in folder.iterdir():
                        if entry.is_dir():
                            pending.append(entry)
                        elif entry.name.endswith(".schema.json"):
                            document = json.loads(entry.read_text(encoding="utf-8"))
                            documents[document["$id"]] = document
                _shipped = cls(documents)
            return _shipped

    def uri_of(self, relative: str) -> str:
        """The ``$id`` of a schema named by its path in the schemas folder (``methods/x.params.schema.json``)."""
        for identifier in self.documents:
            if identifier.split("/schemas/", 1)[-1] == relative:
                return identifier
        raise KeyError(relative)

    def method_schema(self, method: str, kind: str) -> str | None:
        """The ``$id`` of a method's params or result schema, if the schemas have the method."""
        try:
            return self.uri_of(f"methods/{method}.{kind}.schema.json")
        except KeyError:
            return None

    def resolve(self, reference: str, base: str) -> tuple[Any, str]:
        """The schema a ``$ref`` names, and its URI."""
        uri = urllib.parse.urljoin(base, reference)
        document_uri, _, pointer = uri.partition("#")
        node = self.documents[document_uri]
        for token in [part for part in pointer.split("/") if part]:
            node = node[token.replace("~1", "/").replace("~0", "~")]
        return node, f"{document_uri}#{pointer}"

    def check(self, value: Any, uri: str, path: str) -> Problem | None:
        """The first problem of ``value`` against the schema at ``uri`` (a ``$id``, with a fragment or not), found
        at ``path`` (``params``); ``None`` when it is valid."""
        schema, located = self.resolve("#", uri) if "#" not in uri else self.resolve(uri, uri)
        return self._check(value, schema, located, path)

    # -----------------------------------------------------------------------------------------------------------

    def _check(self, value: Any, schema: Any, uri: str, path: str) -> Problem | None:
        if schema is True:
            return None
        if schema is False:
            return Problem(path, "is not allowed here")
        if "$ref" in schema:
            target, target_uri = self.resolve(schema["$ref"], uri)
            found = self._known_format(value, target_uri, path) or self._check(value, target, target_uri, path)
            if found is not None:
                return found
        kinds = schema.get("type")
        if kinds is not None:
            allowed = [kinds] if isinstance(kinds, str) else list(kinds)
            if not any(_is_type(value, kind) for kind in allowed):
                return self._type_problem(value, allowed, path)
        if "const" in schema and value != schema["const"]:
            return Problem(path, f"must be {_shown(schema['const'])}, not {_shown(value)}", weak=True)
        if "enum" in schema and (isinstance(value, bool) or value not in schema["enum"]):
            shown = ", ".join(_shown(known) for known in schema["enum"])
            return Problem(path, f"must be one of {shown}, not {_shown(value)}", weak=True)
        for check in (self._number, self._string, self._array):
            found = check(value, schema, uri, path)
            if found is not None:
                return found
        for index, part in enumerate(schema.get("allOf", [])):
            found = self._check(value, part, f"{uri}/allOf/{index}", path)
            if found is not None:
                return found
        found = self._object(value, schema, uri, path)
        if found is not None:
            return found
        if "oneOf" in schema:
            found = self._one_of(value, schema["oneOf"], f"{uri}/oneOf", path)
            if found is not None:
                return found
        if "anyOf" in schema:
            problems = [self._check(value, branch, f"{uri}/anyOf/{index}", path)
                        for index, branch in enumerate(schema["anyOf"])]
            if all(problems):
                return self._best([problem for problem in problems if problem])
        if "not" in schema and self._check(value, schema["not"], f"{uri}/not", path) is None:
            return Problem(path, "is not allowed here")
        if "if" in schema:
            keyword = "then" if self._check(value, schema["if"], f"{uri}/if", path) is None else "else"
            if keyword in schema:
                return self._check(value, schema[keyword], f"{uri}/{keyword}", path)
        return None

    @staticmethod
    def _type_problem(value: Any, allowed: list[str], path: str) -> Problem:
        if "integer" in allowed and json_type(value) in ("number", "integer"):
            return Problem(path, f"must be an integer within range, not {_shown(value)}")
        wanted = " or ".join(_ARTICLES.get(kind, kind) for kind in allowed)
        actual = json_type(value)
        return Problem(path, f"must be {wanted}, not {_ARTICLES.get(actual, actual)}")

    def _known_format(self, value: Any, uri: str, path: str) -> Problem | None:
        """What Tally checks of dates and instants beyond their patterns."""
        short = uri.split("/schemas/", 1)[-1]
        if short == LOCAL_DATE and isinstance(value, str):
            try:
                local_date(value, path)
            except ModelError:
                return Problem(path, f"must be a date of the calendar (yyyy-MM-dd), not {_shown(value)}")
        if short == INSTANT and isinstance(value, str):
            try:
                instant(value, path)
            except ModelError:
                return Problem(path, f"must be an RFC 3339 instant with a UTC offset (Z, ±HH:mm), not {_shown(value)}")
        return None

    @staticmethod
    def _number(value: Any, schema: Mapping[str, Any], uri: str, path: str) -> Problem | None:
        if json_type(value) not in ("integer", "number") or not math.isfinite(value):
            return None
        if "minimum" in schema and value < schema["minimum"]:
            return Problem(path, f"must be at least {schema['minimum']}, not {_shown(value)}")
        if "maximum" in schema and value > schema["maximum"]:
            return Problem(path, f"must be at most {schema['maximum']}, not {_shown(value)}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return Problem(path, f"must be more than {schema['exclusiveMinimum']}, not {_shown(value)}")
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            return Problem(path, f"must be less than {schema['exclusiveMaximum']}, not {_shown(value)}")
        return None

    @staticmethod
    def _string(value: Any, schema: Mapping[str, Any], uri: str, path: str) -> Problem | None:
        if not isinstance(value, str):
            return None
        if "minLength" in schema and len(value) < schema["minLength"]:
            return Problem(path, f"must have at least {schema['minLength']} characters, not {len(value)}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return Problem(path, f"must have at most {schema['maxLength']} characters, not {len(value)}")
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            return Problem(path, f"must match {schema['pattern']}, not {_shown(value)}")
        return None

    def _array(self, value: Any, schema: Mapping[str, Any], uri: str, path: str) -> Problem | None:
        if not isinstance(value, list):
            return None
        if "minItems" in schema and len(value) < schema["minItems"]:
            low = schema["minItems"]
            return Problem(path, f"must have at least {low} element{'s' if low != 1 else ''}, not {len(value)}")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            limit = schema["maxItems"]
            return Problem(path, f"has {len(value)} elements, more than {limit}", code="payload_too_large",
                           limit=limit)
        if "items" in schema:
            for index, element in enumerate(value):
                found = self._check(element, schema["items"], f"{uri}/items", f"{path}[{index}]")
                if found is not None:
                    return found
        if schema.get("uniqueItems"):
            seen: list[Any] = []
            for index, element in enumerate(value):
                if element in seen:
                    return Problem(f"{path}[{index}]", f"repeats {_shown(element)}",
                                   conflicts_with=f"{path}[{seen.index(element)}]")
                seen.append(element)
        return None

    def _object(self, value: Any, schema: Mapping[str, Any], uri: str, path: str) -> Problem | None:
        if not isinstance(value, Mapping):
            return None
        properties: Mapping[str, Any] = schema.get("properties", {})
        required = schema.get("required", [])
        for key, member in properties.items():
            if key in value:
                found = self._check(value[key], member, f"{uri}/properties/{key}", member_path(path, key))
                if found is not None:
                    return found
            elif key in required:
                return Problem(member_path(path, key), "is required")
        for key in required:
            if key not in properties and key not in value:
                return Problem(member_path(path, key), "is required")
        names = schema.get("propertyNames")
        extra = schema.get("additionalProperties")
        for key, element in value.items():
            if names is not None:
                found = self._check(key, names, f"{uri}/propertyNames", member_path(path, key))
                if found is not None:
                    return Problem(found.field, f"is not a valid name: {found.problem}")
            if extra is not None and key not in properties:
                found = self._check(element, extra, f"{uri}/additionalProperties", member_path(path, key))
                if found is not None:
                    return found
        return None

    def _one_of(self, value: Any, branches: list[Any], uri: str, path: str) -> Problem | None:
        keys = self._exactly_one_keys(branches)
        if keys is not None and isinstance(value, Mapping):
            present = [key for key in keys if key in value]
            if not present:
                others = " or ".join(keys[1:])
                return Problem(member_path(path, keys[0]), f"is required (or {others})")
            if len(present) > 1:
                return Problem(member_path(path, present[1]), f"give {' or '.join(keys)}, not both",
                               conflicts_with=member_path(path, present[0]))
            return None
        problems = [self._check(value, branch, f"{uri}/{index}", path) for index, branch in enumerate(branches)]
        passing = problems.count(None)
        if passing == 1:
            return None
        if passing == 0:
            return self._best([problem for problem in problems if problem])
        return Problem(path, "matches more than one of its alternatives")

    @staticmethod
    def _exactly_one_keys(branches: list[Any]) -> list[str] | None:
        """The members of a ``oneOf`` of "this one and not that one" branches (``time_zone`` or
        ``utc_offset_minutes``), else ``None``."""
        keys = []
        for branch in branches:
            if set(branch) != {"required", "not"} or len(branch["required"]) != 1:
                return None
            keys.append(branch["required"][0])
        return keys

    @staticmethod
    def _best(problems: list[Problem]) -> Problem:
        """The problem of the alternative that was most likely meant: the deepest (the alternative that got
        furthest), and at one depth not one whose ``const`` or ``enum`` already differs."""
        return max(problems, key=lambda found: (found.field.count(".") + found.field.count("["), not found.weak))


_shipped: Schemas | None = None
_shipped_lock = threading.Lock()
