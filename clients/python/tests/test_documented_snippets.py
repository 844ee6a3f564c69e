"""The Python a user copies from the documents: every block of the repository README's Python part and of the
client's README type-checks with ``mypy --strict`` against the installed package, and the FakeTally example runs."""

from __future__ import annotations

import os
import pathlib
import re
from typing import Any

import pytest
from mypy import api as mypy

import tally

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent.parent.parent

CLIENT_README = REPOSITORY / "clients" / "python" / "README.md"


def python_blocks(document: pathlib.Path, heading: str | None = None) -> list[str]:
    """The ```python blocks of `document`, or of its section under `heading` alone."""
    text = document.read_text(encoding="utf-8")
    if heading is not None:
        lines = text.split("\n")
        level = len(heading) - len(heading.lstrip("#"))
        start = lines.index(heading) + 1
        section: list[str] = []
        fenced = False
        for line in lines[start:]:
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(rf"#{{1,{level}}} ", line):
                break
            section.append(line)
        text = "\n".join(section)
    return re.findall(r"```python\n(.*?)```", text, re.DOTALL)


SNIPPETS = [
    *(pytest.param(block, id=f"README.md-{index}") for index, block in enumerate(python_blocks(
        REPOSITORY / "README.md", "### Python"))),
    *(pytest.param(block, id=f"clients-python-README.md-{index}") for index, block in enumerate(python_blocks(
        CLIENT_README))),
]


def test_the_documents_show_python() -> None:
    assert len(python_blocks(REPOSITORY / "README.md", "### Python")) >= 1
    assert len(python_blocks(CLIENT_README)) >= 4


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_a_documented_snippet_type_checks_strictly(snippet: str, tmp_path: pathlib.Path) -> None:
    source = tmp_path / "snippet.py"
    source.write_text(snippet, encoding="utf-8")
    installed = pathlib.Path(tally.__file__).resolve().parent.parent
    environment = dict(os.environ)
    # The checkout's package is found through MYPYPATH; an installed one through site-packages, which mypy refuses
    # to be given as a search path.
    if installed.name not in ("site-packages", "dist-packages"):
        environment["MYPYPATH"] = str(installed)
    previous = os.environ.copy()
    os.environ.clear()
    os.environ.update(environment)
    try:
        report, errors, status = mypy.run(
            ["--strict", "--no-incremental", "--cache-dir", os.devnull, "--no-error-summary", str(source)]
        )
    finally:
        os.environ.clear()
        os.environ.update(previous)
    assert status == 0, f"mypy --strict:\n{report}{errors}\n--- the snippet:\n{snippet}"


def test_the_fake_tally_example_runs() -> None:
    [example] = [block for block in python_blocks(CLIENT_README) if "FakeTally()" in block]
    namespace: dict[str, Any] = {}
    exec(compile(example, str(CLIENT_README), "exec"), namespace)
    tests = [value for name, value in namespace.items() if name.startswith("test_") and callable(value)]
    assert tests, "the example defines a test"
    for test in tests:
        test()
