#!/usr/bin/env python3
"""Generates the Python client's typed models from Tally's JSON Schemas (standard library only).

    python3 clients/python/tools/generate_models.py          # rewrite the generated modules
    python3 clients/python/tools/generate_models.py --check  # exit 1 if they differ from the schemas

Reads ``Protocol/schemas/**/*.schema.json`` and writes two modules into ``clients/python/tally/``, and a copy of the
schemas (``tally/schemas/``, for the validation of ``tally.testing.FakeTally`` in an installed package):

- ``models.py``: one frozen dataclass per object the methods' params and results hold, with ``from_json`` (which
  names the path of a missing or mistyped member) and ``to_json``; ``Literal`` aliases for closed sets; and
  ``METHODS``, every method's name, MDP service, params type and result type.
- ``typed_calls.py``: one typed call per method (``history_month(params)``) for the blocking and the asyncio client.

What the schemas say becomes Python like this: a required member is a field without a default, an optional one
defaults to ``None`` (and is left out of ``to_json`` when ``None``); ``["integer", "null"]`` and
``oneOf [X, null]`` are ``X | None``; ``enum`` and ``const`` are ``Literal``; ``allOf`` merges the members of its
parts (the time frame and goal keys of params); an object with ``additionalProperties`` is a ``dict``; a member
whose schema depends on a sibling (``if type is workout then summary is …``) is a union read by that sibling;
``oneOf`` alternatives of required members (``time_zone`` or ``utc_offset_minutes``) are documented. Descriptions
and bounds become the fields' docstrings. Dates and instants (``common.schema.json#/$defs/local_date`` and
``instant``, or a string of ``format`` ``date`` or ``date-time``) are ``datetime.date`` and ``datetime.datetime``:
in results read into them; in params, which are sent, ``date | str`` and ``datetime | str`` (a string goes out as
written, and a params document read by ``from_json`` keeps its strings), checked by ``__post_init__`` (a naive
datetime is refused naming the member). A class in both params and results stops the generator.

Class names: a method's params and result are ``HistoryMonthParams`` and ``HistoryMonthResult``; a definition
shared by an area (``history.schema.json#/$defs/history_day``) is named after it (``HistoryDay``); a definition of
one method's schema takes the method's name in front (``StreakSummaryHeatmapDay``); an object written inline in a
member is named after its class and member (``StreakSummaryMilestonesTier``). ``RENAMED`` lists the exceptions.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import keyword
import pathlib
import sys
import textwrap
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "tally"
SCHEMAS = pathlib.Path(__file__).resolve().parents[3] / "Protocol" / "schemas"
GENERATED_FILES = ("models.py", "typed_calls.py")
SHIPPED_SCHEMAS = "schemas"  # tally/schemas/: a copy of Protocol/schemas (less console/) in the package
LEFT_OUT_SCHEMA_FOLDERS = frozenset({"console"})
LINE = 116

# Definitions whose plain name would mislead in Python (`Set` reads as typing.Set).
RENAMED = {"workout.schema.json#/$defs/set": "ExerciseSet"}


def _services() -> Any:
    """The client's own rule of which service a method goes to (``tally/_services.py``), read without the package."""
    spec = importlib.util.spec_from_file_location("tally_services", PACKAGE / "_services.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SERVICES = _services()


# ---------------------------------------------------------------------------------------------------------------
# Types the generated code uses


@dataclass(frozen=True)
class Scalar:
    python: str  # str, int, float, bool, Any
    decoder: str


@dataclass(frozen=True)
class Temporal:
    """A local date (``yyyy-MM-dd``) or an instant (RFC 3339 with an offset), as ``datetime.date`` and aware
    ``datetime.datetime``: in params models also a string, sent as written (it may hold more digits than a
    ``datetime``); in results read into the type."""

    kind: str  # "date" or "instant"

    def python(self, incoming: bool) -> str:
        name = "_dt.date" if self.kind == "date" else "_dt.datetime"
        return f"{name} | str" if incoming else name

    def decoder(self, incoming: bool) -> str:
        if incoming:
            return "_d.string"  # a params document is kept as written: sent back unchanged
        return "_d.local_date" if self.kind == "date" else "_d.instant"


@dataclass(frozen=True)
class LiteralType:
    values: tuple[Any, ...]
    alias: str | None = None  # a named alias (an enum definition), else written inline

    @property
    def decoder(self) -> str:
        if self.alias is None:
            raise SchemaError(f"the closed set {self.values} has no name")
        return f"_d.one_of({self.alias})"


@dataclass(frozen=True)
class ListType:
    item: Any


@dataclass(frozen=True)
class MapType:
    value: Any


@dataclass(frozen=True)
class Nullable:
    inner: Any


@dataclass(frozen=True)
class ClassType:
    name: str


@dataclass(frozen=True)
class Discriminated:
    """A member whose model depends on a sibling member's value."""

    discriminator: str
    cases: tuple[tuple[Any, Any], ...]


@dataclass
class Field:
    json_name: str
    type: Any
    required: bool
    doc: str


@dataclass
class ModelClass:
    name: str
    doc: str
    fields: list[Field] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    nullable_document: bool = False  # the whole document may be null (system.ping params)
    origin: str = ""  # where in the schemas, e.g. common.schema.json#/$defs/goal_change
    incoming: bool = False  # part of a method's params (sent), not of a result (read)


STRING = Scalar("str", "_d.string")
INTEGER = Scalar("int", "_d.integer")
NUMBER = Scalar("float", "_d.number")
BOOLEAN = Scalar("bool", "_d.boolean")
ANY = Scalar("Any", "_d.anything")
SCALARS = {"string": STRING, "integer": INTEGER, "number": NUMBER, "boolean": BOOLEAN}
DATE = Temporal("date")
INSTANT = Temporal("instant")

# How the schemas declare dates and instants: the shared definitions (Protocol/README.md, "Conventions"), or a
# string with the JSON Schema format.
TEMPORAL_DEFINITIONS = {"common.schema.json#/$defs/local_date": DATE, "common.schema.json#/$defs/instant": INSTANT}
TEMPORAL_FORMATS = {"date": DATE, "date-time": INSTANT}


# ---------------------------------------------------------------------------------------------------------------
# Reading the schemas


class SchemaError(Exception):
    """The schemas use a construct this generator does not understand: extend it rather than guess."""


@dataclass(frozen=True)
class Located:
    """A schema and the URI it was found at (its document's $id plus a JSON pointer)."""

    schema: Any
    uri: str

    @property
    def document_uri(self) -> str:
        return self.uri.split("#", 1)[0]

    @property
    def short_name(self) -> str:
        """The URI relative to the schemas folder: ``common.schema.json#/$defs/local_date``."""
        return self.uri.split("/schemas/", 1)[-1]


class SchemaSet:
    def __init__(self, directory: pathlib.Path) -> None:
        self.documents: dict[str, Any] = {}
        self.paths: dict[str, pathlib.Path] = {}
        for path in sorted(directory.rglob("*.schema.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            identifier = document.get("$id")
            if not isinstance(identifier, str):
                raise SchemaError(f"{path}: no $id")
            self.documents[identifier] = document
            self.paths[identifier] = path
        if not self.documents:
            raise SchemaError(f"no *.schema.json under {directory}")

    def resolve(self, reference: str, base: str) -> Located:
        uri = urllib.parse.urljoin(base, reference)
        document_uri, _, pointer = uri.partition("#")
        if document_uri not in self.documents:
            raise SchemaError(f"{reference} (from {base}): no schema has $id {document_uri}")
        node = self.documents[document_uri]
        for token in [part for part in pointer.split("/") if part]:
            token = token.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or token not in node:
                raise SchemaError(f"{reference} (from {base}): nothing at #{pointer}")
            node = node[token]
        return Located(node, f"{document_uri}#{pointer}")

    def method_documents(self) -> list[tuple[str, str, Located]]:
        """(method, "params" or "result", schema) for every method schema, sorted by method."""
        found = []
        for identifier, path in self.paths.items():
            if path.parent.name != "methods":
                continue
            name = path.name.removesuffix(".schema.json")
            method, _, kind = name.rpartition(".")
            if kind not in ("params", "result"):
                raise SchemaError(f"{path.name}: neither params nor result")
            found.append((method, kind, Located(self.documents[identifier], identifier + "#")))
        return sorted(found, key=lambda item: (item[0], item[1]))


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace(".", "_").replace("-", "_").split("_"))


def singular(name: str) -> str:
    return name[:-1] if name.endswith("s") and not name.endswith("ss") else name


def python_name(json_name: str) -> str:
    name = json_name if json_name.isidentifier() else "".join(c if c.isalnum() else "_" for c in json_name)
    return name + "_" if keyword.iskeyword(name) else name


# ---------------------------------------------------------------------------------------------------------------
# From schemas to classes


class Generator:
    def __init__(self, schemas: SchemaSet) -> None:
        self.schemas = schemas
        self.classes: dict[str, ModelClass] = {}
        self.class_by_uri: dict[str, str] = {}
        self.aliases: dict[str, LiteralType] = {}
        self.alias_docs: dict[str, str] = {}
        self.order: list[str] = []  # classes in the order they were finished (parts before wholes)

    # Names ---------------------------------------------------------------------------------------------------

    def definition_name(self, located: Located) -> str:
        if located.short_name in RENAMED:
            return RENAMED[located.short_name]
        document = located.short_name.split("#", 1)[0]
        definition = located.uri.rsplit("/", 1)[-1]
        if document.startswith("methods/"):
            method = document.removeprefix("methods/").split(".params.")[0].split(".result.")[0]
            return camel(method) + camel(definition)
        return camel(definition)

    def claim(self, name: str, uri: str) -> None:
        if name in self.classes or name in self.aliases:
            raise SchemaError(f"two models would be named {name} (the second at {uri}): add it to RENAMED")

    # Types ---------------------------------------------------------------------------------------------------

    def type_of(self, located: Located, name_hint: str) -> Any:
        """The Python type of the values ``located`` allows; ``name_hint`` names an inline object."""
        schema = located.schema
        if not isinstance(schema, dict):
            raise SchemaError(f"{located.short_name}: a schema must be an object")
        if "$ref" in schema:
            target = self.schemas.resolve(schema["$ref"], located.uri)
            if "enum" in schema:  # narrowed in place
                return self.literal_alias(tuple(schema["enum"]), name_hint, located)
            if target.short_name in TEMPORAL_DEFINITIONS:
                return TEMPORAL_DEFINITIONS[target.short_name]
            return self.referenced_type(target)
        if schema.get("type") == "string" and schema.get("format") in TEMPORAL_FORMATS:
            return TEMPORAL_FORMATS[schema["format"]]
        if "enum" in schema:
            return self.literal_alias(tuple(schema["enum"]), name_hint, located)
        if "const" in schema:
            return self.literal_alias((schema["const"],), name_hint, located)
        for combinator in ("oneOf", "anyOf"):
            if combinator in schema and "type" not in schema and "properties" not in schema:
                return self.alternatives_type(located, combinator, name_hint)
        if self.has_members(located):
            model = self.class_type(located, name_hint)
            kinds = schema.get("type")
            return Nullable(model) if isinstance(kinds, list) and "null" in kinds else model
        if "allOf" in schema and "type" not in schema:
            parts = [self.part(located, index) for index in range(len(schema["allOf"]))]
            if len(parts) != 1:
                raise SchemaError(f"{located.short_name}: allOf of several schemas without members")
            return self.type_of(parts[0], name_hint)
        kinds = schema.get("type")
        if kinds is None:
            return ANY
        kinds = [kinds] if isinstance(kinds, str) else list(kinds)
        nullable = "null" in kinds
        kinds = [kind for kind in kinds if kind != "null"]
        if len(kinds) != 1:
            raise SchemaError(f"{located.short_name}: type {schema['type']} is not one type (or one and null)")
        kind = kinds[0]
        if kind in SCALARS:
            result: Any = SCALARS[kind]
        elif kind == "array":
            items = schema.get("items")
            result = ListType(
                ANY if items is None else self.type_of(Located(items, located.uri + "/items"), singular(name_hint))
            )
        elif kind == "object":
            if isinstance(schema.get("additionalProperties"), dict):
                value = Located(schema["additionalProperties"], located.uri + "/additionalProperties")
                result = MapType(self.type_of(value, singular(name_hint)))
            else:
                result = MapType(ANY)
        else:
            raise SchemaError(f"{located.short_name}: unknown type {kind}")
        return Nullable(result) if nullable else result

    def referenced_type(self, target: Located) -> Any:
        schema = target.schema
        if "enum" in schema and self.is_definition(target):
            name = self.definition_name(target)
            return self.literal_alias(tuple(schema["enum"]), name, target, schema.get("description", ""))
        if self.is_object(target) and self.is_definition(target):
            return self.class_type(target, self.definition_name(target))
        return self.type_of(target, self.definition_name(target))

    def literal_alias(self, values: tuple[Any, ...], name: str, located: Located, doc: str = "") -> LiteralType:
        """A named ``Literal`` of a closed set (so that its values are written once, and can be imported); an
        enum written in a member is named after its class and member (``MonthGridColumn``)."""
        if located.uri in self.class_by_uri:
            return self.aliases[self.class_by_uri[located.uri]]
        self.claim(name, located.uri)
        self.aliases[name] = LiteralType(values, alias=name)
        self.alias_docs[name] = doc
        self.class_by_uri[located.uri] = name
        return self.aliases[name]

    def alternatives_type(self, located: Located, combinator: str, name_hint: str) -> Any:
        branches = [Located(branch, f"{located.uri}/{combinator}/{index}")
                    for index, branch in enumerate(located.schema[combinator])]
        nulls = [branch for branch in branches if branch.schema == {"type": "null"}]
        others = [branch for branch in branches if branch.schema != {"type": "null"}]
        if len(others) == 1:
            inner = self.type_of(others[0], name_hint)
            return Nullable(inner) if nulls else inner
        if all(set(branch.schema) <= {"required", "not", "properties", "allOf"} for branch in others):
            return self.class_type(located, name_hint)  # constraints on an object's members, documented
        raise SchemaError(f"{located.short_name}: {combinator} of several types is not supported")

    def part(self, located: Located, index: int) -> Located:
        part = Located(located.schema["allOf"][index], f"{located.uri}/allOf/{index}")
        while "$ref" in part.schema and len(part.schema) == 1:
            part = self.schemas.resolve(part.schema["$ref"], part.uri)
        return part

    def is_definition(self, located: Located) -> bool:
        return "/$defs/" in located.uri

    def has_members(self, located: Located) -> bool:
        schema = located.schema
        if schema.get("properties"):
            return True
        return any(self.has_members(self.part(located, index)) for index in range(len(schema.get("allOf", []))))

    def is_object(self, located: Located) -> bool:
        schema = located.schema
        kinds = schema.get("type")
        kinds = [kinds] if isinstance(kinds, str) else kinds or []
        return "object" in kinds or self.has_members(located)

    # Classes -------------------------------------------------------------------------------------------------

    def reachable(self, name: str) -> set[str]:
        """``name`` and every class its members hold, however deep."""

        def classes_in(member_type: Any) -> list[str]:
            if isinstance(member_type, ClassType):
                return [member_type.name]
            if isinstance(member_type, ListType):
                return classes_in(member_type.item)
            if isinstance(member_type, MapType):
                return classes_in(member_type.value)
            if isinstance(member_type, Nullable):
                return classes_in(member_type.inner)
            if isinstance(member_type, Discriminated):
                return [held for _, case in member_type.cases for held in classes_in(case)]
            return []

        found: set[str] = set()
        pending = [name]
        while pending:
            current = pending.pop()
            if current not in found:
                found.add(current)
                pending += [held for member in self.classes[current].fields for held in classes_in(member.type)]
        return found

    def mark_directions(self, params: list[str], results: list[str]) -> None:
        """Marks the classes of params as incoming (their dates may be strings, kept as read); a class in params
        and in results would need two readings of its dates: the generator stops rather than guess."""
        incoming = set().union(*(self.reachable(name) for name in params))
        outgoing = set().union(*(self.reachable(name) for name in results))
        for name in sorted(incoming & outgoing):
            raise SchemaError(f"{self.classes[name].origin}: used in params and in results")
        for name in incoming:
            self.classes[name].incoming = True

    def class_type(self, located: Located, name: str) -> ClassType:
        if located.uri in self.class_by_uri:
            return ClassType(self.class_by_uri[located.uri])
        self.claim(name, located.uri)
        self.class_by_uri[located.uri] = name
        model = ModelClass(name, doc=located.schema.get("description", ""), origin=located.short_name.rstrip("#"))
        self.classes[name] = model
        members: dict[str, list[Located]] = {}
        required: list[str] = []
        self.collect(located, members, required, model.notes)
        kinds = located.schema.get("type")
        model.nullable_document = isinstance(kinds, list) and "null" in kinds
        discriminated = self.discriminated_members(located, name)
        for json_name, schemas in members.items():
            typed = [schema for schema in schemas if set(schema.schema) - {"description", "default"}]
            member_type: Any
            if json_name in discriminated:
                member_type = discriminated[json_name]
            elif typed:
                member_type = self.type_of(typed[-1], name + camel(json_name))
            else:
                member_type = ANY
            model.fields.append(Field(json_name, member_type, json_name in required, self.member_doc(schemas)))
        self.order.append(name)
        return ClassType(name)

    def collect(
        self, located: Located, members: dict[str, list[Located]], required: list[str], notes: list[str]
    ) -> None:
        """Gathers the members of ``located`` and of every ``allOf`` part, in order (parts first)."""
        schema = located.schema
        alternatives = schema.get("oneOf", [])
        if alternatives and all(len(branch.get("required", [])) == 1 for branch in alternatives):
            names = ", ".join(f"``{branch['required'][0]}``" for branch in alternatives)
            notes.append(f"Exactly one of {names}.")
        elif alternatives and all("properties" in branch for branch in alternatives):
            for branch in alternatives:
                condition = ", ".join(
                    f"``{key}`` is ``{json.dumps(value.get('const'))}``"
                    for key, value in branch["properties"].items() if "const" in value
                )
                if branch.get("required"):
                    listed = ", ".join(f"``{name}``" for name in branch["required"])
                    notes.append(f"When {condition}: {listed} are present.")
        for index in range(len(schema.get("allOf", []))):
            part = self.part(located, index)
            if self.has_members(part) or "oneOf" in part.schema or "required" in part.schema:
                self.collect(part, members, required, notes)
        for json_name, member in schema.get("properties", {}).items():
            members.setdefault(json_name, []).append(Located(member, f"{located.uri}/properties/{json_name}"))
        for json_name in schema.get("required", []):
            if json_name not in required:
                required.append(json_name)

    def discriminated_members(self, located: Located, class_name: str) -> dict[str, Discriminated]:
        """Members whose schema an ``if``/``then`` sets by a sibling's ``const`` value."""
        cases: dict[str, dict[str, list[tuple[Any, Any]]]] = {}
        for index, rule in enumerate(located.schema.get("allOf", [])):
            if "if" not in rule:
                continue
            condition = rule["if"].get("properties", {})
            if len(condition) != 1 or "const" not in next(iter(condition.values())):
                raise SchemaError(f"{located.short_name}: only `if` on one member's const is supported")
            discriminator, test = next(iter(condition.items()))
            for json_name, member in rule.get("then", {}).get("properties", {}).items():
                target = Located(member, f"{located.uri}/allOf/{index}/then/properties/{json_name}")
                case_type = self.type_of(target, class_name + camel(json_name))
                cases.setdefault(json_name, {}).setdefault(discriminator, []).append((test["const"], case_type))
        found = {}
        for json_name, by_discriminator in cases.items():
            if len(by_discriminator) != 1:
                raise SchemaError(f"{located.short_name}: {json_name} depends on several members")
            discriminator, alternatives = next(iter(by_discriminator.items()))
            found[json_name] = Discriminated(discriminator, tuple(alternatives))
        return found

    def member_doc(self, schemas: list[Located]) -> str:
        texts: list[str] = []

        def add(text: str | None) -> None:
            if text and text not in texts:
                texts.append(text.rstrip())

        for located in schemas:
            schema = located.schema
            target = located
            while "$ref" in target.schema:
                target = self.schemas.resolve(target.schema["$ref"], target.uri)
                if target.schema.get("enum") is None and not self.is_object(target):
                    add(target.schema.get("description"))
            add(schema.get("description"))
            add(self.bounds(schema))
            if "default" in schema:
                add(f"Default: ``{json.dumps(schema['default'])}``.")
        return " ".join(text if text.endswith((".", ")", ":")) else text + "." for text in texts)

    @staticmethod
    def bounds(schema: dict[str, Any]) -> str | None:
        parts = []
        if "minimum" in schema and "maximum" in schema:
            parts.append(f"from {schema['minimum']} to {schema['maximum']}")
        elif "minimum" in schema:
            parts.append(f"at least {schema['minimum']}")
        elif "maximum" in schema:
            parts.append(f"at most {schema['maximum']}")
        if "minLength" in schema or "maxLength" in schema:
            parts.append(f"{schema.get('minLength', 0)} to {schema.get('maxLength', 'any number of')} characters")
        if "minItems" in schema or "maxItems" in schema:
            low, high = schema.get("minItems", 0), schema.get("maxItems")
            if high is None:
                parts.append(f"at least {low} element{'s' if low != 1 else ''}")
            else:
                parts.append(f"{low} to {high} elements")
        return ("Bounds: " + ", ".join(parts) + ".") if parts else None


# ---------------------------------------------------------------------------------------------------------------
# Writing Python


def annotation(member_type: Any, incoming: bool) -> str:
    """The annotation of a member; ``incoming``: of a params model (dates and instants may be strings)."""
    if isinstance(member_type, Scalar):
        return member_type.python
    if isinstance(member_type, Temporal):
        return member_type.python(incoming)
    if isinstance(member_type, LiteralType):
        return member_type.alias or f"Literal[{', '.join(json.dumps(value) for value in member_type.values)}]"
    if isinstance(member_type, ListType):
        return f"list[{annotation(member_type.item, incoming)}]"
    if isinstance(member_type, MapType):
        return f"dict[str, {annotation(member_type.value, incoming)}]"
    if isinstance(member_type, Nullable):
        return f"{annotation(member_type.inner, incoming)} | None"
    if isinstance(member_type, ClassType):
        return member_type.name
    if isinstance(member_type, Discriminated):
        return " | ".join(annotation(case, incoming) for _, case in member_type.cases)
    raise SchemaError(f"no annotation for {member_type}")


def decoder(member_type: Any, incoming: bool) -> str:
    if isinstance(member_type, (Scalar, LiteralType)):
        return member_type.decoder
    if isinstance(member_type, Temporal):
        return member_type.decoder(incoming)
    if isinstance(member_type, ListType):
        return f"_d.list_of({decoder(member_type.item, incoming)})"
    if isinstance(member_type, MapType):
        return f"_d.map_of({decoder(member_type.value, incoming)})"
    if isinstance(member_type, Nullable):
        return f"_d.nullable({decoder(member_type.inner, incoming)})"
    if isinstance(member_type, ClassType):
        return f"{member_type.name}.from_json"
    raise SchemaError(f"no decoder for {member_type}")  # Discriminated members are written by render_class


def temporal_kinds(member_type: Any) -> set[str]:
    """The kinds of dates or instants a member holds, directly or in lists and maps (``{"date"}``)."""
    if isinstance(member_type, Temporal):
        return {member_type.kind}
    if isinstance(member_type, ListType):
        return temporal_kinds(member_type.item)
    if isinstance(member_type, MapType):
        return temporal_kinds(member_type.value)
    if isinstance(member_type, Nullable):
        return temporal_kinds(member_type.inner)
    return set()


def docstring(text: str, indent: str) -> list[str]:
    """A docstring of ``text`` wrapped to the line length."""
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    paragraphs = [paragraph for paragraph in text.split("\n\n") if paragraph.strip()]
    if len(paragraphs) == 1 and len(indent) + len(paragraphs[0]) + 6 <= LINE:
        return [f'{indent}"""{paragraphs[0]}"""']
    lines = []
    for number, paragraph in enumerate(paragraphs):
        if number:
            lines.append("")
        lines += textwrap.wrap(
            paragraph,
            LINE - len(indent),
            initial_indent='"""' if number == 0 else "",
            break_on_hyphens=False,
            break_long_words=False,
        )
    return [f"{indent}{line}" if line else "" for line in lines] + [f'{indent}"""']


def wrapped_call(head: str, arguments: list[str], tail: str, indent: str) -> list[str]:
    """``head(arg, arg)tail`` on one line if it fits, else one argument per line."""
    single = f"{indent}{head}{', '.join(arguments)}{tail}"
    if len(single) <= LINE:
        return [single]
    return [f"{indent}{head}"] + [f"{indent}    {argument}," for argument in arguments] + [f"{indent}){tail[1:]}"]


HEADER = """\
# Generated by clients/python/tools/generate_models.py from Protocol/schemas. Do not edit: change the schemas
# (or the generator) and run `python3 clients/python/tools/generate_models.py`.
"""


def render_models(generator: Generator, methods: list[tuple[str, str, str, str]]) -> str:
    out = [HEADER.rstrip("\n")]
    out += docstring(
        "Typed params and results of every Tally v1 method, generated from Protocol/schemas.\n\n"
        "Each model is a frozen dataclass with keyword-only fields. ``from_json`` reads a decoded JSON document "
        "and raises :class:`tally.ModelError` naming the path of a missing or mistyped member; unknown members are "
        "ignored, as v1 evolves by adding them. ``to_json`` writes the document back, leaving out optional members "
        "that are ``None``.\n\n"
        "Dates and instants are Python types. In results, a date (``yyyy-MM-dd``) is a ``datetime.date`` and an "
        "instant an aware ``datetime.datetime`` with the offset Tally wrote (``Z``: UTC); a fraction of a second "
        "of any length is read by truncation to microseconds, never rounded (``.1234567`` is 123456 µs). In "
        "params, a member takes a ``date`` or an aware ``datetime`` (a naive one names no moment and is refused "
        "naming the member), written as RFC 3339 with its own offset and all its microseconds "
        "(``2026-03-08T07:30:00.123456+01:00``; ``Z`` for UTC, no fraction when it has none); or a string, sent "
        "exactly as written, all its digits (a ``datetime`` holds microseconds; Tally reads more). A params "
        "model read by ``from_json`` keeps the document's strings, so it is sent back unchanged. Months "
        "(``yyyy-MM``) are strings.",
        "",
    )
    out += [
        "",
        "from __future__ import annotations",
        "",
        "import datetime as _dt",
        "from collections.abc import Mapping",
        "from dataclasses import dataclass",
        "from typing import Any, Literal",
        "",
        "from . import _decoding as _d",
        "",
    ]
    for name in sorted(generator.aliases):
        alias = generator.aliases[name]
        out.append(f"{name} = Literal[{', '.join(json.dumps(value) for value in alias.values)}]")
        if generator.alias_docs[name]:
            out += docstring(generator.alias_docs[name], "")
    for name in generator.order:
        out += ["", ""] + render_class(generator.classes[name])
    out += ["", "", "@dataclass(frozen=True)", "class MethodSpec:"]
    out += docstring("A v1 method: its name, the MDP service that serves it, and its models.", "    ")
    out += [
        "",
        "    name: str",
        "    service: str",
        '    """The service the method is sent to (``system.*`` methods: any service; this is the default)."""',
        "    params: type[Any]",
        "    result: type[Any]",
        "",
        "",
        "METHODS: Mapping[str, MethodSpec] = {",
    ]
    for method, service, params, result in methods:
        out += wrapped_call(
            f'"{method}": MethodSpec(', [f'"{method}"', f'"{service}"', params, result], "),", "    "
        )
    out.append("}")
    out.append('"""Every method the schemas describe, by name."""')
    return "\n".join(out) + "\n"


def render_class(model: ModelClass) -> list[str]:
    doc = model.doc
    if model.notes:
        doc += "\n\n" + " ".join(model.notes)
    doc += f"\n\nSchema: ``{model.origin}``."
    out = ["@dataclass(frozen=True, kw_only=True, slots=True)", f"class {model.name}:"]
    out += docstring(doc, "    ")
    for member in model.fields:
        out.append("")
        default = "" if member.required else " = None"
        member_annotation = annotation(member.type, model.incoming)
        if not member.required and not isinstance(member.type, Nullable):
            member_annotation += " | None"
        out.append(f"    {python_name(member.json_name)}: {member_annotation}{default}")
        if member.doc:
            out += docstring(member.doc, "    ")
    checked = [(member, temporal_kinds(member.type)) for member in model.fields]
    checked = [(member, kinds) for member, kinds in checked if kinds]
    if checked:
        out += ["", "    def __post_init__(self) -> None:"]
        for member, kinds in checked:
            if len(kinds) != 1:
                raise SchemaError(f"{model.origin}: {member.json_name} holds both dates and instants")
            check = "_d.check_dates" if kinds == {"date"} else "_d.check_instants"
            out.append(f"        {check}(self.{python_name(member.json_name)}, {json.dumps(member.json_name)})")
    out += ["", "    @classmethod", f"    def from_json(cls, value: Any, path: str = \"\") -> {model.name}:"]
    out += docstring("Reads the model from a decoded JSON value; ``path`` names it in errors.", "        ")
    if model.nullable_document:
        out += ["        if value is None:", "            return cls()"]
    if not model.fields:
        out += ["        _d.obj(value, path)", "        return cls()"]
    else:
        out.append("        data = _d.obj(value, path)")
    arguments = []
    for member in model.fields:
        how = "required" if member.required else "optional"
        if not isinstance(member.type, Discriminated):
            member_decoder = decoder(member.type, model.incoming)
        else:
            cases = f"{python_name(member.json_name)}_cases"
            out.append(f"        {cases}: dict[Any, Any] = {{")
            for value, case in member.type.cases:
                out.append(f"            {json.dumps(value)}: {decoder(case, model.incoming)},")
            out.append("        }")
            member_decoder = f"_d.by_discriminator(data, {json.dumps(member.type.discriminator)}, {cases})"
        arguments.append(
            f"{python_name(member.json_name)}=_d.{how}(data, {json.dumps(member.json_name)}, path, {member_decoder})"
        )
    if model.fields:
        out += wrapped_call("return cls(", arguments, ")", "        ")
    out += ["", "    def to_json(self) -> dict[str, Any]:"]
    out += docstring("The model as a JSON object (optional members that are ``None`` left out).", "        ")
    out.append("        document: dict[str, Any] = {}")
    for member in model.fields:
        attribute = python_name(member.json_name)
        plain = isinstance(member.type, (Scalar, LiteralType)) and member.type is not ANY
        if plain:
            value = f"self.{attribute}"
        elif isinstance(member.type, Temporal) or (
            isinstance(member.type, Nullable) and isinstance(member.type.inner, Temporal)
        ):
            writer = "_d.date_json" if temporal_kinds(member.type) == {"date"} else "_d.instant_json"
            value = f"{writer}(self.{attribute}, {json.dumps(member.json_name)})"
        else:
            value = f"_d.to_json_value(self.{attribute}, {json.dumps(member.json_name)})"
        assignment = f"document[{json.dumps(member.json_name)}] = {value}"
        if member.required:
            out.append(f"        {assignment}")
        else:
            out += [f"        if self.{attribute} is not None:", f"            {assignment}"]
    out.append("        return document")
    return out


def render_typed_calls(methods: list[tuple[str, str, str, str]], docs: dict[str, str]) -> str:
    out = [HEADER.rstrip("\n")]
    out += docstring(
        "One typed call per Tally v1 method, for the blocking client (``TypedCalls``) and the asyncio client "
        "(``AsyncTypedCalls``). Each takes the method's params model (or a plain mapping of the same members) and "
        "returns its result model; errors are raised as :class:`tally.TallyError`. ``timeout``, ``deadline``, "
        "``retries`` and ``traceparent`` are as for ``TallyClient.call`` (without ``traceparent``, the current "
        "OpenTelemetry span's context goes, when opentelemetry-api is installed).",
        "",
    )
    out += [
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from datetime import datetime",
        "from typing import Any, TypeVar",
        "",
        "from . import models",
        "",
        'ResultT = TypeVar("ResultT")',
    ]
    for class_name, prefix in (("TypedCalls", ""), ("AsyncTypedCalls", "async ")):
        out += ["", "", f"class {class_name}:"]
        kind = "awaitable " if prefix else ""
        out += docstring(f"The typed {kind}calls; the client provides ``_typed_call``.", "    ")
        out += [
            "",
            f"    {prefix}def _typed_call(",
            "        self,",
            "        method: str,",
            "        params: Any,",
            "        result_type: type[ResultT],",
            "        *,",
            "        service: str,",
            "        timeout: float | None,",
            "        deadline: datetime | None,",
            "        retries: int | None,",
            "        traceparent: str | None,",
            "    ) -> ResultT:",
            "        raise NotImplementedError",
        ]
        for method, service, params, result in methods:
            system = SERVICES.is_system(method)
            params_annotation = f"models.{params} | Mapping[str, Any]" + (" | None = None" if system else "")
            out += ["", f"    {prefix}def {method.replace('.', '_')}(", "        self,"]
            out.append(f"        params: {params_annotation},")
            out.append("        *,")
            if system:
                out.append(f'        service: str = "{service}",')
            out += [
                "        timeout: float | None = None,",
                "        deadline: datetime | None = None,",
                "        retries: int | None = None,",
                "        traceparent: str | None = None,",
                f"    ) -> models.{result}:",
            ]
            out += docstring(docs[method], "        ")
            awaiting = "await " if prefix else ""
            out += wrapped_call(
                f"return {awaiting}self._typed_call(",
                [
                    json.dumps(method),
                    "params",
                    f"models.{result}",
                    "service=service" if system else f'service="{service}"',
                    "timeout=timeout",
                    "deadline=deadline",
                    "retries=retries",
                    "traceparent=traceparent",
                ],
                ")",
                "        ",
            )
    return "\n".join(out) + "\n"


def render(schemas_directory: pathlib.Path = SCHEMAS) -> dict[str, str]:
    """The generated modules' text by file name."""
    schemas = SchemaSet(schemas_directory)
    generator = Generator(schemas)
    found: dict[str, dict[str, Located]] = {}
    for method, kind, located in schemas.method_documents():
        found.setdefault(method, {})[kind] = located
    methods = []
    docs = {}
    for method, kinds in sorted(found.items()):
        if set(kinds) != {"params", "result"}:
            raise SchemaError(f"{method}: needs both a params and a result schema")
        params = generator.class_type(kinds["params"], camel(method) + "Params").name
        result = generator.class_type(kinds["result"], camel(method) + "Result").name
        service = SERVICES.default_service(method)
        methods.append((method, service, params, result))
        given = " (or the service given)" if SERVICES.is_system(method) else ""
        summary = [f"``{method}`` on ``{service}``{given}."]
        for kind in ("params", "result"):
            description = kinds[kind].schema.get("description")
            if description:
                summary.append(f"{kind.capitalize()}: {description}")
        docs[method] = "\n\n".join(summary)
    generator.mark_directions([params for _, _, params, _ in methods], [result for _, _, _, result in methods])
    generated = {
        "models.py": render_models(generator, methods),
        "typed_calls.py": render_typed_calls(methods, docs),
    }
    # The schemas themselves, as they are, for what validates documents at run time (tally.testing.FakeTally):
    # inside the package, so that a wheel has them. The console's schema is not about calls.
    for path in sorted(schemas_directory.rglob("*.schema.json")):
        relative = path.relative_to(schemas_directory)
        if relative.parts[0] not in LEFT_OUT_SCHEMA_FOLDERS:
            generated[f"{SHIPPED_SCHEMAS}/{relative.as_posix()}"] = path.read_text(encoding="utf-8")
    return generated


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--schemas", type=pathlib.Path, default=SCHEMAS, help="the Protocol/schemas folder")
    parser.add_argument("--out", type=pathlib.Path, default=PACKAGE, help="the package folder to write into")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a module is stale")
    options = parser.parse_args(arguments)
    try:
        generated = render(options.schemas)
    except SchemaError as error:
        print(f"generate_models: {error}", file=sys.stderr)
        return 2
    stale = []
    for name, text in generated.items():
        path = options.out / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(name)
        if not options.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    shipped = options.out / SHIPPED_SCHEMAS
    extra = sorted(
        path.relative_to(options.out).as_posix() for path in shipped.rglob("*.json")
        if path.relative_to(options.out).as_posix() not in generated
    ) if shipped.exists() else []
    for name in extra:  # a schema removed from Protocol/schemas
        stale.append(name)
        if not options.check:
            (options.out / name).unlink()
    if options.check and stale:
        print(f"generate_models: stale: {', '.join(stale)} (run {pathlib.Path(__file__).name})", file=sys.stderr)
        return 1
    if not options.check:
        print(f"generate_models: {len(stale)} of {len(generated)} files rewritten in {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
