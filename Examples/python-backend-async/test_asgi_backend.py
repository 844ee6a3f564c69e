"""The asyncio example backend against tally.testing.FakeTally (no Tally binaries needed): asked through httpx's ASGI
transport with the app's lifespan run (its client made at startup, closed at shutdown), many requests at once on one
loop, and served by a real uvicorn on a free loopback port; in the last part, against real Tally binaries when they
are there."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from tally import AsyncTallyClient, TallyClient
from tally.testing import FakeTally, LocalCluster, Reply, TallyProcessError, find_binary, free_loopback_port

from asgi_backend import create_app

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent
SUMMARY = json.loads((REPOSITORY / "Protocol" / "examples" / "streak.summary" / "active-streak.json").read_text())[
    "response"]["result"]
"""What the fake answers for streak.summary: a real answer of Tally (7 days, today 2,500 of 9,000 steps)."""
CARD = {"as_of": "2026-03-10", "goal_tracking": True, "current_streak_days": 7, "best_streak_days": 10,
        "today": {"steps": 2500, "goal": 9000, "steps_to_go": 6500, "state": "in_progress"}, "next_milestone": "silver"}


def streak_summary(params: dict[str, Any]) -> Any:
    """Tally's rule that no schema says: two records for one date are invalid_params naming both."""
    seen: dict[str, int] = {}
    for index, record in enumerate(params.get("records", [])):
        if record["date"] in seen:
            raise Reply.error("invalid_params", "two records for one date", {
                "field": f"params.records[{index}].date", "problem": "repeats the date of another record",
                "conflicts_with": f"params.records[{seen[record['date']]}].date", "value": record["date"]})
        seen[record["date"]] = index
    return SUMMARY


@pytest.fixture
def fake() -> Iterator[FakeTally]:
    with FakeTally() as started:
        started.on("streak.summary", streak_summary)
        yield started


@contextlib.asynccontextmanager
async def serving(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of ``app``, in this process, with the app started (lifespan) before and stopped after."""
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://backend") as http,
    ):
        yield http


Scenario = Callable[[httpx.AsyncClient], Awaitable[None]]


@pytest.fixture
def run(fake: FakeTally, monkeypatch: pytest.MonkeyPatch) -> Callable[[Scenario], None]:
    """Runs a scenario against the app as deployed: its client made at startup from TALLY_BROKERS (the fake)."""
    monkeypatch.setenv("TALLY_BROKERS", fake.endpoint)

    def run_scenario(scenario: Scenario) -> None:
        async def main() -> None:
            async with serving(create_app()) as http:
                await scenario(http)

        asyncio.run(main())

    return run_scenario


def test_a_users_streak_is_tallys_answer_as_a_card(run: Callable[[Scenario], None], fake: FakeTally) -> None:
    async def scenario(http: httpx.AsyncClient) -> None:
        answer = await http.get("/users/ada/streak")
        assert answer.status_code == 200 and answer.json() == CARD

    run(scenario)
    [request] = fake.calls("streak.summary")
    assert request.service == "tally.streak" and request.params["time_zone"] == "Europe/Berlin"
    assert len(request.params["records"]) == 13 and request.params["goal_log"] == [
        {"effective_date": "2000-01-01", "goal": 8000}]
    assert request.params["now"].endswith("Z") and "deadline" in request.envelope


def test_the_apps_records_are_forwarded_and_bad_ones_named(run: Callable[[Scenario], None], fake: FakeTally) -> None:
    records = [{"date": "2026-11-20", "steps": 9000}, {"date": "2026-11-21", "steps": 9500}]

    async def scenario(http: httpx.AsyncClient) -> None:
        answer = await http.post("/streak", json={"time_zone": "UTC", "goal": 8000, "records": records})
        assert answer.status_code == 200, answer.json()
        assert fake.calls("streak.summary")[-1].params["records"] == records

        duplicate = await http.post("/streak", json={"time_zone": "UTC", "goal": 8000,
                                                     "records": [*records, {"date": "2026-11-21", "steps": 1}]})
        assert duplicate.status_code == 400
        assert duplicate.json()["error"] == "invalid_params"
        assert duplicate.json()["field"] == "params.records[2].date"

        missing = await http.post("/streak", json={"time_zone": "UTC", "goal": 8000,
                                                   "records": [{"date": "2026-11-20"}]})
        assert missing.status_code == 400 and missing.json()["field"] == "params.records[0].steps"  # by the fake
        assert (await http.post("/streak", content=b"{")).status_code == 400

    run(scenario)


def test_tally_busy_is_503_with_retry_after(run: Callable[[Scenario], None], fake: FakeTally) -> None:
    fake.on("streak.summary", lambda params: Reply.error("overloaded", "queue full", {
        "service": "tally.streak", "limit": 1, "retry_after_ms": 40}))

    async def scenario(http: httpx.AsyncClient) -> None:
        answer = await http.get("/users/grace/streak")
        assert answer.status_code == 503 and answer.json()["error"] == "overloaded"
        assert answer.headers["Retry-After"] == "1"

    run(scenario)
    assert len(fake.calls("streak.summary")) == 3  # the client retried twice first


def test_an_unknown_user_is_not_found_without_asking_tally(run: Callable[[Scenario], None], fake: FakeTally) -> None:
    async def scenario(http: httpx.AsyncClient) -> None:
        answer = await http.get("/users/nobody/streak")
        assert answer.status_code == 404 and answer.json()["error"] == "unknown_user"
        for _ in range(100):  # the client connects in the background
            if (await http.get("/healthz")).status_code == 200:
                break
            await asyncio.sleep(0.02)
        assert (await http.get("/healthz")).json() == {"tally": True}

    run(scenario)
    assert fake.calls("streak.summary") == []


def test_with_tally_away_the_backend_answers_503_promptly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TALLY_BROKERS", f"tcp://127.0.0.1:{free_loopback_port()}")

    async def main() -> None:
        async with serving(create_app()) as http:
            started = time.monotonic()
            answer = await http.get("/users/grace/streak")
            assert answer.status_code == 503 and answer.json()["error"] == "timeout"
            assert "never connected" in answer.json()["message"] and answer.headers["Retry-After"] == "1"
            assert time.monotonic() - started < 5
            assert (await http.get("/healthz")).status_code == 503

    asyncio.run(main())


def test_one_loop_keeps_many_calls_in_flight(fake: FakeTally) -> None:
    fake.on("streak.summary", lambda params: Reply.after(0.3, SUMMARY))  # each answer takes 0.3 s

    async def main() -> list[httpx.Response]:
        async with AsyncTallyClient(fake.endpoint) as tally, serving(create_app(tally)) as http:
            return await asyncio.gather(*(http.get("/users/ada/streak") for _ in range(20)))

    started = time.monotonic()
    answers = asyncio.run(main())
    assert [answer.status_code for answer in answers] == [200] * 20
    assert time.monotonic() - started < 3, "the calls were awaited one after another"


def test_served_by_a_real_uvicorn(fake: FakeTally, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TALLY_BROKERS", fake.endpoint)
    port = free_loopback_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        answer = httpx.get(f"http://127.0.0.1:{port}/users/ada/streak", timeout=10)
        assert answer.status_code == 200 and answer.json() == CARD
    finally:
        server.should_exit = True
        thread.join(10)


# --- Against real Tally binaries ($TALLY_BIN_DIR or the debug build): skipped where they are not built. -------


def real_bin_dir() -> str:
    directory = os.environ.get("TALLY_BIN_DIR") or str(REPOSITORY / ".build" / "debug")
    try:
        for name in ("tally-broker", "tally-worker"):
            find_binary(name, directory)
    except TallyProcessError as missing:
        pytest.skip(f"no Tally binaries: {missing}")
    return directory


def test_against_real_tally(monkeypatch: pytest.MonkeyPatch) -> None:
    with LocalCluster.start(workers=1, bin_dir=real_bin_dir()) as cluster:
        with TallyClient(cluster.endpoint) as probe:
            cluster.wait_until_served(probe, ["tally.streak"])
        monkeypatch.setenv("TALLY_BROKERS", cluster.endpoint)

        async def main() -> dict[str, Any]:
            async with serving(create_app()) as http:
                answer = await http.get("/users/ada/streak")
                assert answer.status_code == 200, answer.text
                card: dict[str, Any] = answer.json()
                return card

        card = asyncio.run(main())
        assert card["current_streak_days"] == 12 and card["next_milestone"] == "silver", card
        assert card["today"] == {"steps": 3000, "goal": 8000, "steps_to_go": 5000, "state": "in_progress"}
