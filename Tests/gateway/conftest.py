"""A cluster and a tally-gateway in front of it, as real processes on loopback, for the tests that take the gateway
as a team in another language would: from its own /openapi.json."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from tally import TallyClient
from tally.testing import LocalCluster, TallyProcess, TallyProcessError, find_binary

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent.parent
PROTOCOL = REPOSITORY / "Protocol"


@dataclass
class Gateway:
    process: TallyProcess
    base_url: str

    def document(self) -> dict:
        with urllib.request.urlopen(f"{self.base_url}/openapi.json", timeout=10) as response:
            return json.load(response)


@pytest.fixture(scope="session")
def bin_dir() -> str:
    """$TALLY_BIN_DIR, else the debug build of this repository."""
    directory = os.environ.get("TALLY_BIN_DIR") or str(REPOSITORY / ".build" / "debug")
    try:
        for name in ("tally-broker", "tally-worker", "tally-gateway"):
            find_binary(name, directory)
    except TallyProcessError as missing:
        pytest.fail(f"{missing} (run `swift build` in {REPOSITORY} first)", pytrace=False)
    return directory


@contextlib.contextmanager
def start_gateway(bin_dir: str, endpoint: str, *arguments: str) -> Iterator[Gateway]:
    """A gateway on a kernel-chosen loopback port calling the broker at `endpoint` with no retries of its own (an
    answer the tests see is the first one), stopped on leaving."""
    process = TallyProcess(
        [
            find_binary("tally-gateway", bin_dir),
            "--broker",
            endpoint,
            "--listen",
            "127.0.0.1:0",
            "--retries",
            "0",
            "--log-level",
            "notice",
            *arguments,
        ],
        name="gateway",
    )
    try:
        line = process.wait_for_line("listening on")
        yield Gateway(process, line.rsplit(" ", 1)[-1])
    finally:
        process.stop()


@pytest.fixture(scope="session")
def cluster(bin_dir: str) -> Iterator[LocalCluster]:
    """Two workers behind a broker, every service served."""
    with LocalCluster.start(workers=2, bin_dir=bin_dir) as cluster:
        with TallyClient(cluster.endpoint) as client:
            cluster.wait_until_served(client)
        yield cluster


@pytest.fixture(scope="session")
def gateway(bin_dir: str, cluster: LocalCluster) -> Iterator[Gateway]:
    """A gateway calling the cluster."""
    with start_gateway(bin_dir, cluster.endpoint) as gateway:
        yield gateway


def examples() -> list[tuple[str, dict]]:
    """Every Protocol example, by folder/name."""
    found = []
    for path in sorted((PROTOCOL / "examples").glob("*/*.json")):
        found.append((f"{path.parent.name}/{path.stem}", json.loads(path.read_text())))
    return found


def matches(actual: object, expected: object) -> bool:
    """`actual` is `expected`, "$any" in `expected` standing for any value, numbers within 1e-9."""
    if expected == "$any":
        return True
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(matches(actual[key], value) for key, value in expected.items())
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(matches(a, e) for a, e in zip(actual, expected))
        )
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return isinstance(actual, (int, float)) and abs(actual - expected) <= 1e-9 * max(1, abs(expected))
    return actual == expected
