"""The Python client's whole public surface is documented: every public module, class, function, method and
property a user can import from ``tally`` has a docstring of its own (a dataclass's generated signature is none)."""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any

import pytest

PUBLIC_MODULES = ["tally", "tally.aio", "tally.client", "tally.curve", "tally.errors", "tally.models", "tally.testing"]


def public_names(module: ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    return list(names) if names is not None else [name for name in vars(module) if not name.startswith("_")]


def own_docstring(thing: Any, name: str) -> bool:
    text = thing.__doc__
    if not text or not text.strip():
        return False
    return not (inspect.isclass(thing) and text.startswith(f"{name}("))  # what @dataclass writes for none


def undocumented(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    missing = [] if own_docstring(module, "") else [module_name]
    for name in public_names(module):
        thing = getattr(module, name)
        if not (inspect.isclass(thing) or inspect.isfunction(thing)):
            continue
        if not getattr(thing, "__module__", "").startswith("tally"):
            continue
        if not own_docstring(thing, name):
            missing.append(f"{module_name}.{name}")
        if inspect.isclass(thing):
            for member, value in vars(thing).items():
                if member.startswith("_"):
                    continue
                function = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
                documentable = inspect.isfunction(function) or isinstance(value, property)
                if documentable and not own_docstring(function, member):
                    missing.append(f"{module_name}.{name}.{member}")
    return missing


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_name_has_a_docstring(module_name: str) -> None:
    assert undocumented(module_name) == []
