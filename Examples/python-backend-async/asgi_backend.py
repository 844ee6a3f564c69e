#!/usr/bin/env python3
"""An asyncio backend that answers an app's streak screen by calling Tally: Starlette on uvicorn, AsyncTallyClient.

    TALLY_BROKERS=tcp://127.0.0.1:5555 python3 Examples/python-backend-async/asgi_backend.py --port 8080
    TALLY_BROKERS=tcp://127.0.0.1:5555 uvicorn asgi_backend:app --app-dir Examples/python-backend-async

    GET  /users/{user}/streak   the streak card of a user whose data this backend holds (canned here)
    POST /streak                the same for records the app sends: {"time_zone", "goal", "records": [...]}
    GET  /healthz               200 while a broker connection is up

One AsyncTallyClient, made at startup (ASGI lifespan) and closed at shutdown, serves every request on the event
loop: a call awaits its answer without blocking the loop, so one process keeps many Tally calls in flight. Tally's
answers map to HTTP as in the synchronous example (Examples/python-backend): a result is 200; ``invalid_params`` is
400 naming the field; ``overloaded``, ``unavailable`` and no answer in time are 503 with Retry-After; anything else
is 502.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from tally import AsyncTallyClient, TallyError
from tally.errors import InvalidParamsError, PayloadTooLargeError
from tally.models import DailyRecord, GoalChange, StreakSummaryParams, StreakSummaryResult

TALLY_TIMEOUT_SECONDS = 2.0
"""Each HTTP request gets at most this long from Tally (retries included); the app's own timeout is longer."""

USERS: dict[str, dict[str, Any]] = {
    "ada": {"time_zone": "Europe/Berlin", "goal": 8_000},
    "grace": {"time_zone": "America/New_York", "goal": 10_000},
}
"""The users this example backend knows; a real one reads them (and their records) from its database."""

log = logging.getLogger("backend")


def canned_records(today: date) -> list[DailyRecord]:
    """Twelve days over an 8,000-step goal before today, and 3,000 steps so far today."""
    records = [DailyRecord(date=today - timedelta(days=back), steps=9_000 + back * 10) for back in range(1, 13)]
    return records + [DailyRecord(date=today, steps=3_000)]


def streak_card(summary: StreakSummaryResult) -> dict[str, Any]:
    """What the app's streak screen shows, from Tally's ``streak.summary``."""
    card: dict[str, Any] = {"as_of": summary.as_of.isoformat(), "goal_tracking": summary.status == "active"}
    if summary.current_streak and summary.best_streak and summary.today and summary.milestones:
        card |= {
            "current_streak_days": summary.current_streak.days,
            "best_streak_days": summary.best_streak.days,
            "today": {
                "steps": summary.today.steps,
                "goal": summary.today.goal,
                "steps_to_go": summary.today.steps_to_go,
                "state": summary.today.state,
            },
            "next_milestone": summary.milestones.next_tier,
        }
    return card


def tally_failure(error: TallyError) -> JSONResponse:
    """An HTTP answer for a Tally error: the caller's fault (400), Tally busy or away (503), or ours (502)."""
    body: dict[str, Any] = {"error": error.code, "message": error.message}
    if isinstance(error, (InvalidParamsError, PayloadTooLargeError)):
        return JSONResponse(body | {"field": error.field}, status_code=400)
    if error.retryable:  # overloaded, unavailable, timeout
        retry_after_ms = error.details.get("retry_after_ms", 1000)
        seconds = max(1, round(retry_after_ms / 1000)) if isinstance(retry_after_ms, (int, float)) else 1
        return JSONResponse(body, status_code=503, headers={"Retry-After": str(seconds)})
    return JSONResponse(body, status_code=502)


async def streak(request: Request, time_zone: str, goal: Any, records: list[Any]) -> JSONResponse:
    tally: AsyncTallyClient = request.app.state.tally
    params = StreakSummaryParams(
        time_zone=time_zone,
        now=datetime.now(UTC),
        goal_log=[GoalChange(effective_date=date(2000, 1, 1), goal=goal)],
        records=records,
    )
    try:
        summary = await tally.streak_summary(params, timeout=TALLY_TIMEOUT_SECONDS)
    except TallyError as error:
        log.warning("tally: %s", error)
        return tally_failure(error)
    return JSONResponse(streak_card(summary))


async def user_streak(request: Request) -> JSONResponse:
    name = request.path_params["user"]
    user = USERS.get(name)
    if user is None:
        return JSONResponse({"error": "unknown_user", "message": f"no user {name!r}"}, status_code=404)
    today = datetime.now(ZoneInfo(user["time_zone"])).date()
    return await streak(request, user["time_zone"], user["goal"], canned_records(today))


async def posted_streak(request: Request) -> JSONResponse:
    try:
        body = await request.json()
        time_zone, goal, records = body["time_zone"], body["goal"], body["records"]
    except (ValueError, KeyError, TypeError) as problem:
        return JSONResponse({"error": "bad_request", "message": f"expected JSON with time_zone, goal, records: "
                                                                f"{problem}"}, status_code=400)
    # The app's records go to Tally as they are: Tally checks them and names what is wrong.
    return await streak(request, time_zone, goal, records)


async def healthz(request: Request) -> JSONResponse:
    tally: AsyncTallyClient = request.app.state.tally
    connected = any(state.connected for state in tally.endpoints())
    return JSONResponse({"tally": connected}, status_code=200 if connected else 503)


def create_app(tally: AsyncTallyClient | None = None) -> Starlette:
    """The ASGI app. Without ``tally``, it makes its client at startup from the environment (``TALLY_BROKERS``,
    ``TALLY_TIMEOUT``, the CURVE variables, as the ``tally`` CLI reads them) and closes it at shutdown."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if tally is not None:
            app.state.tally = tally
            yield
            return
        async with AsyncTallyClient.from_env() as owned:
            app.state.tally = owned
            yield

    routes = [
        Route("/users/{user}/streak", user_streak, methods=["GET"]),
        Route("/streak", posted_streak, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


app = create_app()
"""For ``uvicorn asgi_backend:app``."""


def main() -> int:
    import uvicorn

    parser = argparse.ArgumentParser(description="An asyncio HTTP backend that calls Tally for users' streaks.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="0: a free port")
    options = parser.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    uvicorn.run(app, host=options.host, port=options.port, log_level="info")
    return 0


if __name__ == "__main__":
    sys.exit(main())
