"""The generated models: fresh against Protocol/schemas, complete (a typed call per method), and reading JSON with
errors that name the member's path."""

from __future__ import annotations

import importlib.util
import inspect
import json
import pathlib
import re
import shutil
import sys
from types import ModuleType

import pytest

from conftest import PACKAGE_ROOT, PROTOCOL
from tally import AsyncTallyClient, ModelError, TallyClient
from tally._core import typed_params
from tally.models import (
    METHODS,
    DailyRecord,
    HistoryMonthParams,
    HistoryMonthsParams,
    StreakSummaryResult,
    WorkoutCalendarActivity,
    WorkoutCalendarStretchSummary,
)


def load_generator() -> ModuleType:
    path = PACKAGE_ROOT / "tools" / "generate_models.py"
    spec = importlib.util.spec_from_file_location("generate_models", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_models_are_what_the_schemas_generate() -> None:
    generated = load_generator().render(PROTOCOL / "schemas")
    for name, text in generated.items():
        checked_in = (PACKAGE_ROOT / "tally" / name).read_text(encoding="utf-8")
        assert checked_in == text, f"tally/{name} is stale: run python3 clients/python/tools/generate_models.py"


def test_a_changed_schema_makes_the_check_fail(tmp_path: pathlib.Path) -> None:
    generator = load_generator()
    schemas = tmp_path / "schemas"
    shutil.copytree(PROTOCOL / "schemas", schemas)
    params = schemas / "methods" / "history.months.params.schema.json"
    document = json.loads(params.read_text())
    document["properties"]["locale"] = {"description": "A new optional param.", "type": "string"}
    params.write_text(json.dumps(document))
    package = tmp_path / "tally"
    shutil.copytree(PACKAGE_ROOT / "tally", package)
    assert generator.main(["--schemas", str(PROTOCOL / "schemas"), "--out", str(package), "--check"]) == 0
    assert generator.main(["--schemas", str(schemas), "--out", str(package), "--check"]) == 1
    assert generator.main(["--schemas", str(schemas), "--out", str(package)]) == 0
    assert "    locale: str | None = None" in (package / "models.py").read_text()
    assert generator.main(["--schemas", str(schemas), "--out", str(package), "--check"]) == 0


def test_every_method_has_a_typed_call_on_both_clients() -> None:
    assert len(METHODS) == len(list((PROTOCOL / "schemas" / "methods").glob("*.params.schema.json")))
    for name, spec in METHODS.items():
        attribute = name.replace(".", "_")
        blocking, awaitable = getattr(TallyClient, attribute), getattr(AsyncTallyClient, attribute)
        assert inspect.signature(blocking).return_annotation == f"models.{spec.result.__name__}"
        assert inspect.iscoroutinefunction(awaitable)
        assert spec.service == ("tally.history" if name.startswith("system.") else "tally." + name.split(".")[0])


def test_a_missing_member_is_named_by_its_path() -> None:
    document = {"time_zone": "UTC", "today": "2026-11-23", "goal_log": [{"effective_date": "2026-01-01"}]}
    with pytest.raises(ModelError) as raised:
        HistoryMonthParams.from_json(document, "params")
    assert raised.value.path == "params.goal_log[0].goal" and raised.value.problem == "is required"
    assert str(raised.value) == "params.goal_log[0].goal: is required"


@pytest.mark.parametrize(
    "record, path, problem",
    [
        ({"date": "2026-11-20", "steps": "9000"}, "params.records[0].steps", "must be an integer, not a string"),
        ({"date": "2026-11-20", "steps": 90.5}, "params.records[0].steps", "must be an integer, not 90.5"),
        ({"date": "2026-11-20", "steps": True}, "params.records[0].steps", "must be an integer, not a boolean"),
        ({"date": None, "steps": 1}, "params.records[0].date", "must be a string, not null"),
        ({"date": "2026-11-20", "steps": 1, "distance_m": "far"}, "params.records[0].distance_m",
         "must be a number, not a string"),
        ("2026-11-20", "params.records[0]", "must be an object, not a string"),
    ],
)
def test_a_mistyped_member_is_named_by_its_path(record: object, path: str, problem: str) -> None:
    with pytest.raises(ModelError) as raised:
        HistoryMonthsParams.from_json({"time_zone": "UTC", "today": "2026-11-23", "records": [record]}, "params")
    assert (raised.value.path, raised.value.problem) == (path, problem)


def test_unknown_members_are_ignored_and_optional_ones_left_out_when_none() -> None:
    record = DailyRecord.from_json({"date": "2026-11-20", "steps": 10, "heart_rate": 80})
    assert record == DailyRecord(date="2026-11-20", steps=10)
    assert record.to_json() == {"date": "2026-11-20", "steps": 10}
    params = HistoryMonthsParams(time_zone="UTC", today="2026-11-23", records=[record, {"date": "x", "steps": 1}])
    assert params.to_json() == {
        "time_zone": "UTC", "today": "2026-11-23", "records": [{"date": "2026-11-20", "steps": 10},
                                                              {"date": "x", "steps": 1}]}


def test_a_member_whose_model_depends_on_a_sibling_is_read_by_it() -> None:
    activity = {"id": "stretch-s1", "source_id": "s1", "type": "stretch", "completed_at": "2026-03-29T03:30:00+02:00",
                "summary": {"regions": ["hips"], "duration_seconds": 420}}
    read = WorkoutCalendarActivity.from_json(activity, "day")
    assert read.summary == WorkoutCalendarStretchSummary(regions=["hips"], duration_seconds=420)
    with pytest.raises(ModelError, match=r"day\.summary: must be an object, not an array"):
        WorkoutCalendarActivity.from_json({**activity, "summary": []}, "day")
    with pytest.raises(ModelError, match=r"day\.type: must be one of 'workout', 'stretch', 'meditation', not 'nap'"):
        WorkoutCalendarActivity.from_json({**activity, "type": "nap"}, "day")


def test_a_value_outside_a_closed_set_is_named() -> None:
    with pytest.raises(ModelError) as raised:
        HistoryMonthParams.from_json({"goal_log": [], "week_starts_on": "friday"}, "params")
    assert raised.value.path == "params.week_starts_on"
    assert raised.value.problem == "must be one of 'sunday', 'monday', not 'friday'"


def test_sections_that_only_some_states_have_are_optional() -> None:
    off = StreakSummaryResult.from_json({"status": "goal_tracking_off", "as_of": "2026-11-23"})
    assert off.current_streak is None and off.to_json() == {"status": "goal_tracking_off", "as_of": "2026-11-23"}


def test_typed_calls_take_their_own_params_model_or_a_mapping() -> None:
    own = HistoryMonthsParams(time_zone="UTC", today="2026-11-23")
    assert typed_params("history.months", own) is own
    assert typed_params("history.months", {"time_zone": "UTC"}) == {"time_zone": "UTC"}
    assert typed_params("system.ping", None) is None
    expected = "history.month takes HistoryMonthParams (or a mapping), not HistoryMonthsParams"
    with pytest.raises(TypeError, match=re.escape(expected)):
        typed_params("history.month", own)
    with pytest.raises(TypeError, match=r"history\.month needs params"):
        typed_params("history.month", None)
