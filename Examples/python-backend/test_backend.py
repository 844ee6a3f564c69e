"""The example backend against a real Tally: started as a process, asked over HTTP, its answers checked — a user's
streak, the app's own records (and a bad one named), an unknown user, and Tally away (503, not a hang)."""

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
from tally.testing import LocalCluster, TallyProcess, free_loopback_port

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    bin_dir = os.environ.get("TALLY_BIN_DIR") or str(REPOSITORY / ".build" / "debug")
    with LocalCluster.start(workers=1, bin_dir=bin_dir) as started:
        with TallyClient(started.endpoint) as client:
            started.wait_until_served(client, ["tally.streak"])
        yield started


def start_backend(tally_brokers: str, **environment: str) -> tuple[TallyProcess, str]:
    backend = TallyProcess(
        [sys.executable, HERE / "app.py", "--port", "0"],
        "python-backend",
        env={"TALLY_BROKERS": tally_brokers, **environment},
    )
    return backend, backend.wait_for_line("listening on").split()[-1]


@pytest.fixture(scope="module")
def backend(cluster: LocalCluster) -> Iterator[str]:
    process, url = start_backend(cluster.endpoint)
    yield url
    assert process.stop() == 0, process.error_output()


def request(url: str, body: Any = None) -> tuple[int, dict[str, Any], dict[str, str]]:
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=15) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as failure:
        return failure.code, json.loads(failure.read()), dict(failure.headers)


def test_a_users_streak_is_computed_by_tally(backend: str) -> None:
    status, card, _ = request(f"{backend}/users/ada/streak")
    assert status == 200, card
    assert card["goal_tracking"] is True
    assert card["current_streak_days"] == 12 and card["best_streak_days"] == 12
    assert card["today"] == {"steps": 3000, "goal": 8000, "steps_to_go": 5000, "state": "in_progress"}
    assert card["next_milestone"] == "silver"  # 12 days: bronze (7) earned, silver (14) next


def test_the_apps_records_are_forwarded_and_a_bad_one_is_named(backend: str) -> None:
    records = [{"date": "2026-11-20", "steps": 9000}, {"date": "2026-11-21", "steps": 9500}]
    status, card, _ = request(f"{backend}/streak", {"time_zone": "UTC", "goal": 8000, "records": records})
    assert status == 200 and card["best_streak_days"] == 2, card

    records.append({"date": "2026-11-21", "steps": 100})
    status, body, _ = request(f"{backend}/streak", {"time_zone": "UTC", "goal": 8000, "records": records})
    assert status == 400 and body["error"] == "invalid_params", body
    assert body["field"] == "params.records[2].date"


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
