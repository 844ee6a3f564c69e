"""Dates and instants as Python types: params take ``date`` and aware ``datetime`` (or strings, sent as written),
refuse naive datetimes naming the member; results read into ``date`` and aware ``datetime`` with the offset Tally
wrote, fractions truncated to microseconds, never rounded."""

from __future__ import annotations

import json
import pathlib
import shutil
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from conftest import PACKAGE_ROOT, PROTOCOL
from fake_broker import FakeBroker, Received, ok
from tally import ModelError, TallyClient
from tally._decoding import instant, local_date, rfc3339
from tally.errors import InvalidResponseError
from tally.models import (
    DailyRecord,
    GoalChange,
    HistoryMonthsParams,
    StreakSummaryParams,
    WorkoutCalendarActivity,
    WorkoutDayParams,
    WorkoutDayResult,
)
from test_models import load_generator

BERLIN = ZoneInfo("Europe/Berlin")


def test_a_daily_record_takes_a_date() -> None:
    record = DailyRecord(date=date.today(), steps=100)
    assert record.to_json() == {"date": date.today().isoformat(), "steps": 100}
    assert GoalChange(effective_date=date(1, 1, 1), goal=1).to_json()["effective_date"] == "0001-01-01"


@pytest.mark.parametrize(
    "moment, written",
    [
        (datetime(2026, 3, 8, 7, 30, 0, 123456, tzinfo=timezone(timedelta(hours=1))),
         "2026-03-08T07:30:00.123456+01:00"),
        (datetime(2026, 3, 8, 7, 30, 0, 1000, tzinfo=BERLIN), "2026-03-08T07:30:00.001000+01:00"),
        (datetime(2026, 7, 8, 7, 30, tzinfo=BERLIN), "2026-07-08T07:30:00+02:00"),
        (datetime(2026, 11, 1, 1, 0, tzinfo=ZoneInfo("America/New_York"), fold=1), "2026-11-01T01:00:00-05:00"),
        (datetime(2026, 3, 8, 6, 30, tzinfo=UTC), "2026-03-08T06:30:00Z"),
        (datetime(2026, 3, 8, 6, 30, tzinfo=timezone(timedelta(hours=-9, minutes=-30))), "2026-03-08T06:30:00-09:30"),
        # Dublin's local mean time, -00:25:21: an offset RFC 3339 cannot write, so the same moment in UTC
        (datetime(1900, 1, 1, 12, 0, tzinfo=ZoneInfo("Europe/Dublin")), "1900-01-01T12:25:21Z"),
        (datetime(1, 1, 1, 0, 0, 0, 5, tzinfo=UTC), "0001-01-01T00:00:00.000005Z"),
    ],
)
def test_an_aware_datetime_is_written_with_its_own_offset_and_all_its_microseconds(
    moment: datetime, written: str
) -> None:
    params = StreakSummaryParams(time_zone="Europe/Berlin", now=moment, goal_log=[])
    assert params.to_json()["now"] == written
    assert instant(written, "now").timestamp() == moment.timestamp()  # the same moment read back


def capture() -> tuple[FakeBroker, list[dict[str, Any]]]:
    envelopes: list[dict[str, Any]] = []

    def answer(request: Received, broker: FakeBroker) -> list[object]:
        envelopes.append(request.envelope)
        return [ok(request, {"as_of": "2026-03-08", "current_month": "2026-03", "months": ["2026-03"],
                             "locked_months": 0, "future_records_ignored": 0})]

    return FakeBroker(answer), envelopes


def test_strings_are_sent_exactly_as_written_and_dates_as_iso() -> None:
    broker, envelopes = capture()
    with broker, TallyClient(broker.endpoint) as client:
        client.history_months(HistoryMonthsParams(
            time_zone="UTC", now="2026-03-08T07:30:00.123456789+01:00",
            records=[DailyRecord(date="2026-03-07", steps=1), DailyRecord(date=date(2026, 3, 8), steps=2)]))
        client.history_months({"time_zone": "UTC", "now": datetime(2026, 3, 8, 7, 30, tzinfo=BERLIN),
                               "records": [{"date": date(2026, 3, 6), "steps": 3}]})
    assert envelopes[0]["params"] == {
        "time_zone": "UTC", "now": "2026-03-08T07:30:00.123456789+01:00",
        "records": [{"date": "2026-03-07", "steps": 1}, {"date": "2026-03-08", "steps": 2}]}
    assert envelopes[1]["params"] == {
        "time_zone": "UTC", "now": "2026-03-08T07:30:00+01:00", "records": [{"date": "2026-03-06", "steps": 3}]}


def test_a_naive_datetime_is_refused_naming_the_member_and_nothing_is_sent() -> None:
    with pytest.raises(ModelError) as raised:
        StreakSummaryParams(time_zone="UTC", now=datetime(2026, 3, 8, 7, 30), goal_log=[])
    assert raised.value.path == "now" and "naive datetime, which names no moment" in raised.value.problem
    broker, envelopes = capture()
    with broker, TallyClient(broker.endpoint) as client:
        with pytest.raises(ModelError, match=r"^params\.workouts\[0\]\.completed_at: is a naive datetime"):
            client.call("workout.day", {"time_zone": "UTC", "today": "2026-03-08",
                                        "workouts": [{"id": "w1", "completed_at": datetime(2026, 3, 8)}]})
        with pytest.raises(ModelError, match=r"^params\.now: is a naive datetime"):
            client.history_months({"time_zone": "UTC", "now": datetime(2026, 3, 8)})
    assert envelopes == []


def test_a_datetime_is_no_date_and_a_date_no_instant() -> None:
    with pytest.raises(ModelError, match=r"^date: must be a date, not a datetime"):
        DailyRecord(date=datetime(2026, 3, 8, tzinfo=UTC), steps=1)
    with pytest.raises(ModelError, match=r"^now: must be an instant \(an aware datetime\), not a date"):
        HistoryMonthsParams(time_zone="UTC", now=date(2026, 3, 8))
    with pytest.raises(ModelError, match=r"^today: must be a datetime.date or a yyyy-MM-dd string, not int"):
        WorkoutDayParams(time_zone="UTC", today=20260308, date="2026-03-08")  # type: ignore[arg-type]


def test_a_params_model_read_from_json_keeps_the_documents_strings() -> None:
    document = {"time_zone": "UTC", "now": "2026-03-08t07:30:00.1234567891+00:00",
                "records": [{"date": "2026-02-30", "steps": 1}]}
    params = HistoryMonthsParams.from_json(document, "params")
    assert params.now == document["now"] and params.to_json() == document


@pytest.mark.parametrize(
    "text, microsecond",
    [("2026-03-08T07:30:00.1234567+01:00", 123456), ("2026-03-08T07:30:00.9999999+01:00", 999999),
     ("2026-03-08T07:30:00.5+01:00", 500000), ("2026-03-08T07:30:00+01:00", 0),
     ("2026-03-08T07:30:00.000000999+01:00", 0)],
)
def test_fractions_of_any_length_are_truncated_to_microseconds(text: str, microsecond: int) -> None:
    read = instant(text, "now")
    assert read.microsecond == microsecond and read.second == 0
    assert read.utcoffset() == timedelta(hours=1)


def test_results_read_into_dates_and_aware_datetimes_with_the_offset_tally_wrote() -> None:
    assert local_date("2026-11-23", "as_of") == date(2026, 11, 23)
    read = instant("2026-11-01T01:00:00-05:00", "x")
    assert read.utcoffset() == timedelta(hours=-5) and read == datetime(2026, 11, 1, 6, 0, tzinfo=UTC)
    assert instant("2026-11-01T06:00:00Z", "x").tzinfo is UTC and instant("2026-11-01 06:00:00z", "x").tzinfo is UTC
    activity = WorkoutCalendarActivity.from_json(
        {"id": "stretch-s1", "source_id": "s1", "type": "stretch", "completed_at": "2026-03-29T03:30:00.25+02:00",
         "summary": {"regions": ["hips"], "duration_seconds": 420}}, "day")
    assert activity.completed_at == datetime(2026, 3, 29, 1, 30, 0, 250000, tzinfo=UTC)
    assert activity.to_json()["completed_at"] == "2026-03-29T03:30:00.250000+02:00"
    assert rfc3339(activity.completed_at) == "2026-03-29T03:30:00.250000+02:00"


@pytest.mark.parametrize(
    "decode, text, problem",
    [(local_date, "2025-02-30", "must be a date yyyy-MM-dd, not '2025-02-30'"),
     (local_date, "20260308", "must be a date yyyy-MM-dd, not '20260308'"),
     (instant, "2026-03-08T07:30:00", "must be an RFC 3339 instant with a UTC offset, not '2026-03-08T07:30:00'"),
     (instant, "2026-03-08T24:00:00Z", "must be an RFC 3339 instant with a UTC offset, not '2026-03-08T24:00:00Z'"),
     (instant, "2026-03-08T07:30:00+24:00", "must be an RFC 3339 instant with a UTC offset, not "
                                             "'2026-03-08T07:30:00+24:00'")],
)
def test_a_result_date_that_is_not_one_is_named(decode: Any, text: str, problem: str) -> None:
    with pytest.raises(ModelError) as raised:
        decode(text, "result.as_of")
    assert (raised.value.path, raised.value.problem) == ("result.as_of", problem)


def test_a_result_with_a_bad_date_is_an_invalid_response() -> None:
    def answer(request: Received, broker: FakeBroker) -> list[object]:
        return [ok(request, {"as_of": "2026-02-30", "current_month": "2026-02", "months": [], "locked_months": 0,
                             "future_records_ignored": 0})]

    with (
        FakeBroker(answer) as broker,
        TallyClient(broker.endpoint) as client,
        pytest.raises(InvalidResponseError, match=r"result\.as_of: must be a date yyyy-MM-dd"),
    ):
        client.history_months({"time_zone": "UTC", "today": "2026-02-28"})


def test_a_typed_result_holds_dates_and_datetimes() -> None:
    example = json.loads((PROTOCOL / "examples" / "workout.day" / "late-evening-in-kilograms.json").read_text())
    result = WorkoutDayResult.from_json(example["response"]["result"], "result")
    assert isinstance(result.as_of, date) and isinstance(result.date, date)
    workouts = result.workouts
    assert workouts and all(isinstance(w.completed_at, datetime) and w.completed_at.tzinfo for w in workouts)
    assert result.to_json() == example["response"]["result"]


def test_the_generator_reads_format_date_and_date_time(tmp_path: pathlib.Path) -> None:
    generator = load_generator()
    schemas = tmp_path / "schemas"
    shutil.copytree(PROTOCOL / "schemas", schemas)
    path = schemas / "methods" / "history.months.result.schema.json"
    document = json.loads(path.read_text())
    document["properties"]["birthday"] = {"type": "string", "format": "date"}
    document["properties"]["computed_at"] = {"type": "string", "format": "date-time"}
    path.write_text(json.dumps(document))
    models = generator.render(schemas)["models.py"]
    assert "    birthday: _dt.date | None = None" in models
    assert "    computed_at: _dt.datetime | None = None" in models
    assert '_d.optional(data, "computed_at", path, _d.instant)' in models
    assert (PACKAGE_ROOT / "tally" / "models.py").read_text() != models
