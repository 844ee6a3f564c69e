"""The Swift example backend (StepsAPI) against a real Tally: started as a process, asked over HTTP, its answers
checked — a user's streak, the app's own records as of a given moment, bad input named by field, Tally without a
worker (503 with Retry-After) and without a broker (504 within the backend's 2 s), a graceful stop on SIGTERM that
lets a request in flight finish, and a setting that cannot work. Also checks that the Swift snippets of the README and
of the DocC catalogues (the TallyClient manual and the others) are the ones this package compiles.

Expects the example built: ``swift build --package-path Examples/swift-backend`` (``scripts/test`` does it), or
``STEPS_API`` naming the binary; the Tally binaries come from ``$TALLY_BIN_DIR`` (default: the root's debug build).
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import pathlib
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from tally import TallyClient
from tally.testing import LocalCluster, TallyProcess, free_loopback_port, start_broker

HERE = pathlib.Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent
BIN_DIR = os.environ.get("TALLY_BIN_DIR") or str(REPOSITORY / ".build" / "debug")


@pytest.fixture(scope="module")
def steps_api() -> pathlib.Path:
    binary = pathlib.Path(os.environ.get("STEPS_API") or HERE / ".build" / "debug" / "StepsAPI")
    if not binary.is_file():
        pytest.fail(f"{binary} does not exist: run `swift build --package-path {HERE}` first", pytrace=False)
    return binary


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster.start(workers=1, bin_dir=BIN_DIR) as started:
        with TallyClient(started.endpoint) as client:
            started.wait_until_served(client, ["tally.streak"])
        yield started


def start_backend(binary: pathlib.Path, tally_brokers: str) -> tuple[TallyProcess, str]:
    backend = TallyProcess([binary], "steps-api", env={"TALLY_BROKERS": tally_brokers, "HTTP_PORT": "0"})
    try:
        return backend, backend.wait_for_line("listening on").split()[-1]
    except BaseException:
        backend.stop()
        raise


@pytest.fixture(scope="module")
def backend(steps_api: pathlib.Path, cluster: LocalCluster) -> Iterator[str]:
    process, url = start_backend(steps_api, cluster.endpoint)
    try:
        yield url
    finally:
        status = process.stop()
    assert status == 0, f"SIGTERM should stop the backend gracefully (exit 0), got {status}"


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


def test_the_apps_records_are_summarised_as_of_the_moment_it_gives(backend: str) -> None:
    records = [{"date": "2026-11-20", "steps": 9000}, {"date": "2026-11-21", "steps": 9500}]
    body = {"time_zone": "Asia/Tokyo", "goal": 8000, "records": records, "now": "2026-11-21T16:00:00Z"}
    status, card, _ = request(f"{backend}/streak", body)
    assert status == 200, card
    # 16:00 UTC is 01:00 the next day in Tokyo: today is 11-22, without a record yet.
    assert card["as_of"] == "2026-11-22"
    assert card["current_streak_days"] == 2 and card["best_streak_days"] == 2
    assert card["today"] == {"steps": None, "goal": 8000, "steps_to_go": 8000, "state": "no_data"}


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        # Tally's verdicts, with the field said as this body names it (Tally's is params.records[2].date).
        ({"records": [{"date": "2026-11-20", "steps": 1}] * 3}, "invalid_params", "records[1].date"),
        ({"goal": 0}, "invalid_params", "goal"),
        ({"records": [{"date": "2026-11-20", "steps": -5}]}, "invalid_params", "records[0].steps"),
        # The backend's own, from decoding the body into Tally's wire types.
        ({"time_zone": "Mars/Olympus_Mons"}, "bad_request", "time_zone"),
        ({"records": [{"date": "2026-02-30", "steps": 1}]}, "bad_request", "records[0].date"),
        ({"goal": "lots"}, "bad_request", "goal"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(backend: str, change: dict[str, Any], code: str, field: str) -> None:
    body = {"time_zone": "UTC", "goal": 8000, "records": []} | change
    status, answer, _ = request(f"{backend}/streak", body)
    assert status == 400, answer
    assert answer["error"] == code and answer["field"] == field, answer
    assert answer["message"].startswith(f"{field}: ") and answer["problem"], answer


def test_an_unknown_user_is_not_found_and_health_is_ok(backend: str) -> None:
    status, body, _ = request(f"{backend}/users/nobody/streak")
    assert status == 404 and body["error"] == "unknown_user", body
    assert request(f"{backend}/healthz")[:2] == (200, {"tally": True})


def test_with_no_worker_the_backend_answers_503_with_retry_after(steps_api: pathlib.Path) -> None:
    # A broker that answers `unavailable` at once (and says when to retry) for a service nobody serves.
    broker, endpoint = start_broker(["--service-grace", "0"], bin_dir=BIN_DIR)
    try:
        process, url = start_backend(steps_api, endpoint)
        try:
            started = time.monotonic()
            status, body, headers = request(f"{url}/users/ada/streak")
            assert status == 503 and body["error"] == "unavailable", body
            assert headers.get("Retry-After") == "1"  # the broker's retry_after_ms, 1000
            assert time.monotonic() - started < 1.8, "retries of `unavailable` should end well before the timeout"
            assert request(f"{url}/healthz")[:2] == (503, {"tally": False})
        finally:
            assert process.stop() == 0
    finally:
        broker.stop()


def test_with_no_broker_the_backend_answers_504_within_its_timeout(steps_api: pathlib.Path) -> None:
    process, url = start_backend(steps_api, f"tcp://127.0.0.1:{free_loopback_port()}")
    try:
        started = time.monotonic()
        status, body, headers = request(f"{url}/users/grace/streak")
        elapsed = time.monotonic() - started
        assert status == 504 and body["error"] == "timeout", body
        assert "never reached" in body["message"], body  # the client's account of the broker, not "timeout" alone
        assert set(body) == {"error", "message"}, body
        assert 1.5 < elapsed < 5, f"the backend gives Tally 2 s per request, took {elapsed:.1f} s"
    finally:
        # Stopping while the client has never connected is still a clean stop.
        assert process.stop() == 0


def test_sigterm_lets_a_request_in_flight_finish_before_the_client_stops(steps_api: pathlib.Path) -> None:
    # With no broker the call takes the backend's whole 2 s, so it is surely in flight when SIGTERM comes.
    process, url = start_backend(steps_api, f"tcp://127.0.0.1:{free_loopback_port()}")
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            answer = pool.submit(request, f"{url}/users/ada/streak")
            time.sleep(0.8)
            process.terminate()
            status, body, _ = answer.result(timeout=15)
        # The server drains first; had the client stopped first, the call would end `client_stopped` (503).
        assert status == 504 and body["error"] == "timeout", body
        assert process.wait(15) == 0
    finally:
        process.stop()


def test_a_setting_that_cannot_work_stops_the_backend_at_start(steps_api: pathlib.Path) -> None:
    process = TallyProcess([steps_api], "steps-api", env={"TALLY_BROKERS": "tcp://127.0.0.1:5555", "HTTP_PORT": "x"})
    try:
        assert process.wait(15) == 64
        assert "HTTP_PORT: 'x' is not a port number" in process.error_output()
    finally:
        process.stop()


def swift_blocks(document: pathlib.Path, heading: str) -> list[str]:
    """The ```swift blocks of the section under `heading` (a whole line, e.g. "## Swift"), up to the next heading of
    its level or a higher one; lines inside code blocks are not headings."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = document.read_text(encoding="utf-8").split("\n")
    start = lines.index(heading) + 1
    section: list[str] = []
    fenced = False
    for line in lines[start:]:
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(rf"#{{1,{level}}} ", line):
            break
        section.append(line)
    return re.findall(r"```swift\n(.*?)```", "\n".join(section), re.DOTALL)


def catalogue_pages(catalogue: pathlib.Path) -> dict[str, list[str]]:
    """The ```swift blocks of each Markdown page of a DocC catalogue (its landing page and articles), by the page's
    path from the repository's root."""
    pages: dict[str, list[str]] = {}
    for page in sorted(catalogue.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        pages[str(page.relative_to(REPOSITORY))] = re.findall(r"```swift\n(.*?)```", text, re.DOTALL)
    return pages


def declares_a_url_dependency(block: str) -> bool:
    """A manifest line that depends on Tally by URL and version: this package depends on it by path, so it cannot
    compile that line (the path form beside it in the manual's "Getting started" is compiled)."""
    return ".package(url:" in block


def meaningful_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def appears_in_order(needles: list[str], haystack: list[str]) -> bool:
    remaining = iter(haystack)
    return all(any(line == candidate for candidate in remaining) for line in needles)


def test_the_documented_swift_snippets_are_compiled_here() -> None:
    catalogues = sorted((REPOSITORY / "Sources").glob("*/*.docc"))
    manual = catalogue_pages(REPOSITORY / "Sources" / "TallyClient" / "TallyClient.docc")
    shown = "\n".join(block for blocks in manual.values() for block in blocks)
    for call in ("withTallyClient(", "ServiceGroup(", "FakeTally()", ".package(name:"):
        assert call in shown, f"the TallyClient manual should show {call}… in a swift block"
    pages = {name: blocks for catalogue in catalogues for name, blocks in catalogue_pages(catalogue).items()}
    first_page = swift_blocks(REPOSITORY / "README.md", "### Swift")
    assert first_page, "the README's Swift part should show a call"
    sources = [
        HERE / "Package.swift",
        *sorted((HERE / "Sources" / "ReadmeSnippets").glob("*.swift")),
        *sorted((HERE / "Tests").rglob("*.swift")),
    ]
    compiled = {path.name: meaningful_lines(path.read_text(encoding="utf-8")) for path in sources}
    for where, blocks in [*pages.items(), ("README.md", first_page)]:
        for block in blocks:
            if declares_a_url_dependency(block):
                continue
            lines = meaningful_lines(block)
            assert any(appears_in_order(lines, file_lines) for file_lines in compiled.values()), (
                f"this {where} snippet is not in {', '.join(compiled)} line by line:\n{block}"
            )
