#!/usr/bin/env python3
"""A minimal backend that answers an app's streak screen by calling Tally (standard library HTTP, tally-client).

    TALLY_BROKERS=tcp://127.0.0.1:5555 python3 Examples/python-backend/app.py --port 8080

    GET  /users/<id>/streak   the streak card of a user whose data this backend holds (canned here)
    POST /streak              the same for records the app sends: {"time_zone", "goal", "records": [...]}
    GET  /healthz             200 while a broker connection is up

One TallyClient serves every request thread. Tally's answers map to HTTP: a result is 200; ``invalid_params`` is
400 naming the field; ``overloaded``, ``unavailable`` and no answer in time are 503 with Retry-After; anything
else is 502. Prints ``listening on http://HOST:PORT`` once it accepts connections (``--port 0``: any free port).
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from datetime import UTC, date, datetime, timedelta
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from zoneinfo import ZoneInfo

from tally import TallyClient, TallyError
from tally.models import DailyRecord, GoalChange, StreakSummaryParams, StreakSummaryResult

TALLY_TIMEOUT_SECONDS = 2.0
"""Each HTTP request gets at most this long from Tally (retries included); the app's own timeout is longer."""


def canned_records(today: date) -> list[DailyRecord]:
    """Twelve days over an 8,000-step goal before today, and 3,000 steps so far today."""
    records = [DailyRecord(date=today - timedelta(days=back), steps=9_000 + back * 10) for back in range(1, 13)]
    return records + [DailyRecord(date=today, steps=3_000)]


USERS: dict[str, dict[str, Any]] = {
    "ada": {"time_zone": "Europe/Berlin", "goal": 8_000},
    "grace": {"time_zone": "America/New_York", "goal": 10_000},
}
"""The users this example backend knows; a real one reads them (and their records) from its database."""


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


def tally_failure(error: TallyError) -> tuple[HTTPStatus, dict[str, Any], dict[str, str]]:
    """An HTTP answer for a Tally error: the caller's fault (4xx), Tally busy or away (503), or ours (502)."""
    body: dict[str, Any] = {"error": error.code, "message": error.message}
    if error.code in ("invalid_params", "payload_too_large"):
        return HTTPStatus.BAD_REQUEST, body | {"field": error.field}, {}
    if error.retryable:  # overloaded, unavailable, timeout
        retry_after_ms = error.details.get("retry_after_ms", 1000)
        seconds = max(1, round(retry_after_ms / 1000)) if isinstance(retry_after_ms, (int, float)) else 1
        return HTTPStatus.SERVICE_UNAVAILABLE, body, {"Retry-After": str(seconds)}
    return HTTPStatus.BAD_GATEWAY, body, {}


class StreakHandler(BaseHTTPRequestHandler):
    tally: TallyClient  # set on the class by serve(): one client for every request thread

    def do_GET(self) -> None:
        parts = self.path.strip("/").split("/")
        if parts == ["healthz"]:
            connected = any(state.connected for state in self.tally.endpoints())
            self.answer(HTTPStatus.OK if connected else HTTPStatus.SERVICE_UNAVAILABLE, {"tally": connected})
        elif len(parts) == 3 and parts[0] == "users" and parts[2] == "streak":
            user = USERS.get(parts[1])
            if user is None:
                self.answer(HTTPStatus.NOT_FOUND, {"error": "unknown_user", "message": f"no user {parts[1]!r}"})
                return
            today = datetime.now(ZoneInfo(user["time_zone"])).date()
            self.streak(user["time_zone"], user["goal"], canned_records(today))
        else:
            self.answer(HTTPStatus.NOT_FOUND, {"error": "not_found", "message": self.path})

    def do_POST(self) -> None:
        if self.path != "/streak":
            self.answer(HTTPStatus.NOT_FOUND, {"error": "not_found", "message": self.path})
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            time_zone, goal, records = body["time_zone"], body["goal"], body["records"]
        except (ValueError, KeyError, TypeError) as problem:
            self.answer(HTTPStatus.BAD_REQUEST, {"error": "bad_request",
                                                 "message": f"expected JSON with time_zone, goal, records: {problem}"})
            return
        # The app's records go to Tally as they are: Tally checks them and names what is wrong.
        self.streak(time_zone, goal, records)

    def streak(self, time_zone: str, goal: Any, records: list[Any]) -> None:
        params = StreakSummaryParams(
            time_zone=time_zone,
            now=datetime.now(UTC),
            goal_log=[GoalChange(effective_date=date(2000, 1, 1), goal=goal)],
            records=records,
        )
        try:
            summary = self.tally.streak_summary(params, timeout=TALLY_TIMEOUT_SECONDS)
        except TallyError as error:
            status, body, headers = tally_failure(error)
            logging.getLogger("backend").warning("tally: %s", error)
            self.answer(status, body, headers)
            return
        self.answer(HTTPStatus.OK, streak_card(summary))

    def answer(self, status: HTTPStatus, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        logging.getLogger("backend.http").info(format, *args)


def serve(host: str, port: int) -> None:
    with TallyClient.from_env() as tally:
        StreakHandler.tally = tally
        server = ThreadingHTTPServer((host, port), StreakHandler)
        server.daemon_threads = True
        # SIGTERM wakes a thread of its own that stops the server (shutdown() waits for serve_forever() to return,
        # so it cannot run on the main thread). The handler does no more than that: it runs between two bytecodes
        # of the main thread, which may hold a lock right then (starting a request's thread takes one), and
        # taking that lock again in the handler would wait for ever.
        stopping = threading.Event()
        threading.Thread(target=lambda: (stopping.wait(), server.shutdown()), daemon=True).start()
        signal.signal(signal.SIGTERM, lambda *_: stopping.set())
        print(f"listening on http://{host}:{server.server_address[1]}", flush=True)
        try:
            server.serve_forever()
        finally:
            server.server_close()


def main() -> int:
    parser = argparse.ArgumentParser(description="An HTTP backend that calls Tally for users' streaks.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="0: a free port, printed at start")
    options = parser.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    try:
        serve(options.host, options.port)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
