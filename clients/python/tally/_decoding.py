"""Reading JSON values into the generated models, with errors that name the member's path.

The generated ``from_json`` methods in :mod:`tally.models` are built from these functions. Each decoder takes a
JSON value (as :func:`json.loads` returns it) and the path it was found at (``params.records[3].steps``), and
either returns the Python value or raises :class:`ModelError` naming that path. Decoding checks structure and closed
sets: required members, JSON types, lists and objects, and the values of an ``enum``. Ranges, patterns and rules
between members are Tally's to check: a worker answers ``invalid_params`` naming the same path.

Dates and instants of results are read into ``datetime.date`` and aware ``datetime.datetime`` (:func:`local_date`,
:func:`instant`); those of params are written back by :func:`date_json` and :func:`instant_json`, strings as they
are.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, timedelta, timezone
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


_LOCAL_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)
_INSTANT = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?"
    r"(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))",
    re.ASCII,
)


def local_date(value: Any, path: str) -> date:
    """A local date, ``yyyy-MM-dd``, as a ``datetime.date``."""
    text = string(value, path)
    match = _LOCAL_DATE.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise ModelError(path, f"must be a date yyyy-MM-dd, not {text!r}") from None


def instant(value: Any, path: str) -> datetime:
    """An RFC 3339 instant with its offset (``2026-11-01T01:00:00-05:00``, ``…Z``), as an aware datetime with that
    offset (``Z`` and ``+00:00``: ``datetime.UTC``).

    A fraction of a second of any length is read by truncation to microseconds, the most a ``datetime`` holds,
    never rounded: ``.1234567`` is 123456 µs, ``.9999999`` 999999 µs (so never the next second), ``.5`` 500000 µs.
    """
    text = string(value, path)
    match = _INSTANT.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        year, month, day, hour, minute, second = (int(match[index]) for index in range(1, 7))
        microsecond = int((match[7] or "").ljust(6, "0")[:6])
        zone = UTC
        if match[8] is None:
            offset = timedelta(hours=int(match[10]), minutes=int(match[11]))
            if offset:
                zone = timezone(offset if match[9] == "+" else -offset)
        return datetime(year, month, day, hour, minute, second, microsecond, tzinfo=zone)
    except ValueError:
        raise ModelError(path, f"must be an RFC 3339 instant with a UTC offset, not {text!r}") from None


def rfc3339(moment: datetime) -> str:
    """An aware datetime as RFC 3339 with its own offset and all its microseconds:
    ``2026-03-08T07:30:00.123456+01:00``; ``Z`` for an offset of zero; no fraction when it has none. An offset
    RFC 3339 cannot write (with seconds: a zone's local mean time) is written as the same moment in UTC."""
    offset = moment.utcoffset()
    if offset is None:
        raise ValueError("a naive datetime names no moment")
    if offset % timedelta(minutes=1):
        moment, offset = moment.astimezone(UTC), timedelta(0)
    text = (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    )
    if moment.microsecond:
        text += f".{moment.microsecond:06d}"
    if not offset:
        return text + "Z"
    minutes = abs(offset) // timedelta(minutes=1)
    return f"{text}{'+' if offset > timedelta(0) else '-'}{minutes // 60:02d}:{minutes % 60:02d}"


def _naive(path: str) -> ModelError:
    return ModelError(
        path,
        "is a naive datetime, which names no moment: give it a time zone (datetime.now(UTC), "
        "datetime(…, tzinfo=ZoneInfo('Europe/Berlin'))) or pass the instant as a string",
    )


def date_json(value: Any, path: str) -> Any:
    """A date member as JSON: a ``date`` as ``yyyy-MM-dd``, a string as it is (``None`` stays ``None``)."""
    if isinstance(value, datetime):
        raise ModelError(path, f"must be a date, not a datetime ({value!r}): give its .date() in the zone meant")
    if isinstance(value, date):
        return value.isoformat()
    return value


def instant_json(value: Any, path: str) -> Any:
    """An instant member as JSON: an aware ``datetime`` by :func:`rfc3339`, a string as it is."""
    if isinstance(value, datetime):
        if value.utcoffset() is None:
            raise _naive(path)
        return rfc3339(value)
    if isinstance(value, date):
        raise ModelError(path, f"must be an instant (an aware datetime), not a date ({value!r})")
    return value


def _check(value: Any, path: str, write: Callable[[Any, str], Any], expected: str) -> None:
    if value is None or isinstance(value, str):
        return
    if isinstance(value, list):
        for index, element in enumerate(value):
            _check(element, f"{path}[{index}]", write, expected)
        return
    if isinstance(value, Mapping):
        for key, element in value.items():
            _check(element, member_path(path, key), write, expected)
        return
    if not isinstance(value, date):
        raise ModelError(path, f"must be {expected}, not {type(value).__name__}")
    write(value, path)


def check_dates(value: Any, path: str) -> None:
    """Refuses, naming ``path``, a value of a date member that is neither a ``date`` nor a string (a ``datetime``
    included: its date depends on a zone)."""
    _check(value, path, date_json, "a datetime.date or a yyyy-MM-dd string")


def check_instants(value: Any, path: str) -> None:
    """Refuses, naming ``path``, a value of an instant member that is neither an aware ``datetime`` nor a string."""
    _check(value, path, instant_json, "an aware datetime or an RFC 3339 string")


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


def to_json_value(value: Any, path: str = "") -> Any:
    """A model, list, dict or scalar as plain JSON values: models by their ``to_json``, a ``date`` as
    ``yyyy-MM-dd``, an aware ``datetime`` by :func:`rfc3339` (a naive one is refused naming ``path``), anything
    else as it is.

    Plain dicts and lists may stand where a model is expected (``records=[{"date": date.today(), "steps": …}]``).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return value.to_json()  # type: ignore[attr-defined]
    if isinstance(value, Mapping):
        return {key: to_json_value(element, member_path(path, str(key))) for key, element in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_value(element, f"{path}[{index}]") for index, element in enumerate(value)]
    if isinstance(value, datetime):
        return instant_json(value, path)
    if isinstance(value, date):
        return value.isoformat()
    return value
