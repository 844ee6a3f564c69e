"""The example backend started as a process, asked over HTTP, its answers checked — a user's streak, the app's own
records (and bad ones named), an unknown user, Tally busy and Tally away (503, not a hang) — against
tally.testing.FakeTally (no Tally binaries needed) and, in the last part, against real Tally binaries when they are
there."""

from __future__ import annotations

import json
import os
import pathlib
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from tally import TallyClient
from tally.testing import (
    FakeTally,
    LocalCluster,
    Reply,
    TallyProcess,
    TallyProcessError,
    find_binary,
    free_loopback_port,
)

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent
SUMMARY = json.loads((REPOSITORY / "Protocol" / "examples" / "streak.summary" / "active-streak.json").read_text())[
    "response"]["result"]
"""What the fake answers for streak.summary: a real answer of Tally (7 days, today 2,500 of 9,000 steps)."""


def streak_summary(params: dict[str, Any]) -> Any:
    """The fake's streak.summary, with Tally's rule that no schema says: two records for one date are named."""
    seen: dict[str, int] = {}
    for index, record in enumerate(params.get("records", [])):
        if record["date"] in seen:
            raise Reply.error("invalid_params", "two records for one date", {
                "field": f"params.records[{index}].date", "problem": "repeats the date of another record",
                "conflicts_with": f"params.records[{seen[record['date']]}].date", "value": record["date"]})
        seen[record["date"]] = index
    return SUMMARY


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeTally]:
    with FakeTally() as started:
        started.on("streak.summary", streak_summary)
        yield started


def start_backend(tally_brokers: str, **environment: str) -> tuple[TallyProcess, str]:
    backend = TallyProcess(
        [sys.executable, HERE / "app.py", "--port", "0"],
        "python-backend",
        env={"TALLY_BROKERS": tally_brokers, **environment},
    )
    return backend, backend.wait_for_line("listening on").split()[-1]


@pytest.fixture(scope="module")
def backend(fake: FakeTally) -> Iterator[str]:
    process, url = start_backend(fake.endpoint)
    yield url
    assert process.stop() == 0, process.error_output()


def request(url: str, body: Any = None) -> tuple[int, dict[str, Any], dict[str, str]]:
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=15) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as failure:
        return failure.code, json.loads(failure.read()), dict(failure.headers)


def test_a_users_streak_is_tallys_answer_as_a_card(backend: str, fake: FakeTally) -> None:
    status, card, _ = request(f"{backend}/users/ada/streak")
    assert status == 200, card
    assert card == {"as_of": "2026-03-10", "goal_tracking": True, "current_streak_days": 7, "best_streak_days": 10,
                    "today": {"steps": 2500, "goal": 9000, "steps_to_go": 6500, "state": "in_progress"},
                    "next_milestone": "silver"}
    sent = fake.calls("streak.summary")[-1].params
    assert sent["time_zone"] == "Europe/Berlin" and len(sent["records"]) == 13
    assert sent["goal_log"] == [{"effective_date": "2000-01-01", "goal": 8000}]


def test_the_apps_records_are_forwarded_and_bad_ones_are_named(backend: str, fake: FakeTally) -> None:
    records = [{"date": "2026-11-20", "steps": 9000}, {"date": "2026-11-21", "steps": 9500}]
    status, card, _ = request(f"{backend}/streak", {"time_zone": "UTC", "goal": 8000, "records": records})
    assert status == 200, card
    assert fake.calls("streak.summary")[-1].params["records"] == records

    status, body, _ = request(f"{backend}/streak", {"time_zone": "UTC", "goal": 8000,
                                                    "records": [*records, {"date": "2026-11-21", "steps": 100}]})
    assert status == 400 and body["error"] == "invalid_params", body
    assert body["field"] == "params.records[2].date"

    status, body, _ = request(f"{backend}/streak", {"time_zone": "UTC", "goal": 8000,
                                                    "records": [{"date": "2026-11-21"}]})
    assert status == 400 and body["field"] == "params.records[0].steps", body  # refused by the fake's schema check


def test_tally_busy_is_503_with_retry_after(backend: str, fake: FakeTally) -> None:
    fake.on("streak.summary", lambda params: Reply.error("overloaded", "queue full", {
        "service": "tally.streak", "limit": 1, "retry_after_ms": 40}))
    try:
        status, body, headers = request(f"{backend}/users/ada/streak")
    finally:
        fake.on("streak.summary", streak_summary)
    assert status == 503 and body["error"] == "overloaded" and headers.get("Retry-After") == "1", body


def test_an_unknown_user_is_not_found(backend: str) -> None:
    status, body, _ = request(f"{backend}/users/nobody/streak")
    assert status == 404 and body["error"] == "unknown_user"


def test_with_tally_away_the_backend_answers_503_promptly() -> None:
    process, url = start_backend(f"tcp://127.0.0.1:{free_loopback_port()}")
    try:
        status, body, headers = request(f"{url}/users/grace/streak")
        assert status == 503 and body["error"] == "timeout", body
        assert "never connected" in body["message"]
        assert headers.get("Retry-After") == "1"
        assert request(f"{url}/healthz")[0] == 503
    finally:
        process.stop()


# --- Against real Tally binaries ($TALLY_BIN_DIR or the debug build): skipped where they are not built. -------


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    bin_dir = os.environ.get("TALLY_BIN_DIR") or str(REPOSITORY / ".build" / "debug")
    try:
        for name in ("tally-broker", "tally-worker"):
            find_binary(name, bin_dir)
    except TallyProcessError as missing:
        pytest.skip(f"no Tally binaries: {missing}")
    with LocalCluster.start(workers=1, bin_dir=bin_dir) as started:
        with TallyClient(started.endpoint) as client:
            started.wait_until_served(client, ["tally.streak"])
        yield started


@pytest.fixture(scope="module")
def real_backend(cluster: LocalCluster) -> Iterator[str]:
    process, url = start_backend(cluster.endpoint)
    yield url
    assert process.stop() == 0, process.error_output()


def test_a_users_streak_is_computed_by_real_tally(real_backend: str) -> None:
    status, card, _ = request(f"{real_backend}/users/ada/streak")
    assert status == 200, card
    assert card["goal_tracking"] is True
    assert card["current_streak_days"] == 12 and card["best_streak_days"] == 12
    assert card["today"] == {"steps": 3000, "goal": 8000, "steps_to_go": 5000, "state": "in_progress"}
    assert card["next_milestone"] == "silver"  # 12 days: bronze (7) earned, silver (14) next


def test_real_tally_names_a_duplicate_date(real_backend: str) -> None:
    records = [{"date": "2026-11-20", "steps": 9000}, {"date": "2026-11-21", "steps": 9500}]
    status, card, _ = request(f"{real_backend}/streak", {"time_zone": "UTC", "goal": 8000, "records": records})
    assert status == 200 and card["best_streak_days"] == 2, card

    records.append({"date": "2026-11-21", "steps": 100})
    status, body, _ = request(f"{real_backend}/streak", {"time_zone": "UTC", "goal": 8000, "records": records})
    assert status == 400 and body["error"] == "invalid_params", body
    assert body["field"] == "params.records[2].date"
