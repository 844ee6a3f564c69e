"""Reading JSON values into the generated models, with errors that name the member's path.

The generated ``from_json`` methods in :mod:`tally.models` are built from these functions. Each decoder takes a
JSON value (as :func:`json.loads` returns it) and the path it was found at (``params.records[3].steps``), and
either returns the Python value or raises :class:`ModelError` naming that path. Decoding checks structure and closed
sets: required members, JSON types, lists and objects, and the values of an ``enum``. Ranges, patterns and rules
between members are Tally's to check: a worker answers ``invalid_params`` naming the same path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_args

from .errors import TallyBaseError

T = TypeVar("T")

Decoder = Callable[[Any, str], T]
"""Turns the JSON value found at a path into a Python value, or raises :class:`ModelError`."""


class ModelError(TallyBaseError, ValueError):
    """A JSON document does not have the shape of a Tally model.

    Attributes:
        path: where, as Tally writes field paths: ``params.records[3].steps``, ``result.days[0]``.
        problem: what is wrong there, in words (``is required``, ``must be an integer, not a string``).
    """

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path or 'the document'}: {problem}")
        self.path = path
        self.problem = problem


def _json_type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def member_path(path: str, key: str) -> str:
    """The path of member ``key`` of the object at ``path``."""
    return f"{path}.{key}" if path else key


def obj(value: Any, path: str) -> Mapping[str, Any]:
    """The JSON object at ``path``."""
    if not isinstance(value, Mapping):
        raise ModelError(path, f"must be an object, not {_json_type_name(value)}")
    return value


def required(data: Mapping[str, Any], key: str, path: str, decode: Decoder[T]) -> T:
    """Member ``key`` of ``data``, which must be present (it may be null only if ``decode`` accepts null)."""
    if key not in data:
        raise ModelError(member_path(path, key), "is required")
    return decode(data[key], member_path(path, key))


def optional(data: Mapping[str, Any], key: str, path: str, decode: Decoder[T]) -> T | None:
    """Member ``key`` of ``data``, or ``None`` when it is absent."""
    if key not in data:
        return None
    return decode(data[key], member_path(path, key))


def string(value: Any, path: str) -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise ModelError(path, f"must be a string, not {_json_type_name(value)}")
    return value


def integer(value: Any, path: str) -> int:
    """A JSON integer (``3.0`` is accepted as 3: JSON does not tell them apart)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ModelError(path, f"must be an integer, not {_json_type_name(value)}")
    if isinstance(value, float):
        if not value.is_integer():
            raise ModelError(path, f"must be an integer, not {value}")
        return int(value)
    return value


def number(value: Any, path: str) -> float:
    """A JSON number, as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ModelError(path, f"must be a number, not {_json_type_name(value)}")
    return float(value)


def boolean(value: Any, path: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise ModelError(path, f"must be a boolean, not {_json_type_name(value)}")
    return value


def one_of(closed_set: Any) -> Decoder[Any]:
    """One of the values of a ``Literal`` type (an ``enum`` or ``const``)."""
    values = get_args(closed_set)

    def decode_one_of(value: Any, path: str) -> Any:
        if isinstance(value, bool) or value not in values:
            shown = ", ".join(repr(known) for known in values)
            raise ModelError(path, f"must be one of {shown}, not {value!r}")
        return value

    return decode_one_of


def anything(value: Any, path: str) -> Any:
    """Any JSON value, as it is."""
    return value


def nullable(decode: Decoder[T]) -> Decoder[T | None]:
    """``decode``, or ``None`` for a JSON null."""

    def decode_nullable(value: Any, path: str) -> T | None:
        return None if value is None else decode(value, path)

    return decode_nullable


def list_of(decode: Decoder[T]) -> Decoder[list[T]]:
    """A JSON array whose elements ``decode`` reads."""

    def decode_list(value: Any, path: str) -> list[T]:
        if not isinstance(value, list):
            raise ModelError(path, f"must be an array, not {_json_type_name(value)}")
        return [decode(element, f"{path}[{index}]") for index, element in enumerate(value)]

    return decode_list


def map_of(decode: Decoder[T]) -> Decoder[dict[str, T]]:
    """A JSON object used as a map from its keys to values that ``decode`` reads."""

    def decode_map(value: Any, path: str) -> dict[str, T]:
        return {key: decode(element, member_path(path, key)) for key, element in obj(value, path).items()}

    return decode_map


def by_discriminator(
    data: Mapping[str, Any], discriminator: str, cases: Mapping[Any, Decoder[Any]]
) -> Decoder[Any]:
    """A value whose shape depends on a sibling member (``summary`` by ``type``): picks the case ``data`` names."""

    def decode_case(value: Any, path: str) -> Any:
        kind = data.get(discriminator)
        case = cases.get(kind)
        if case is None:
            known = ", ".join(repr(name) for name in cases)
            raise ModelError(path, f"cannot be read for {discriminator} {kind!r} (known: {known})")
        return case(value, path)

    return decode_case


def to_json_value(value: Any) -> Any:
    """A model, list, dict or scalar as plain JSON values: models by their ``to_json``, anything else as it is.

    Plain dicts and lists may stand where a model is expected (``records=[{"date": …, "steps": …}]``).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return value.to_json()  # type: ignore[attr-defined]
    if isinstance(value, Mapping):
        return {key: to_json_value(element) for key, element in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_value(element) for element in value]
    return value
