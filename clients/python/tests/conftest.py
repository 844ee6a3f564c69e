"""Fixtures: the repository's paths, the built binaries, and one small cluster shared by the tests that only call."""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterator

import pytest

import tally
from tally import TallyClient
from tally.testing import LocalCluster, TallyProcessError, find_binary

PACKAGE_ROOT = pathlib.Path(__file__).resolve().parent.parent
REPOSITORY = PACKAGE_ROOT.parent.parent
PROTOCOL = REPOSITORY / "Protocol"

# scripts/test-python-wheel runs these tests against the installed wheel: the checkout's package must not be the one
# imported, or the wheel would go untested.
if os.environ.get("TALLY_CLIENT_INSTALLED") == "1":
    imported = pathlib.Path(tally.__file__).resolve()
    if PACKAGE_ROOT in imported.parents:
        raise RuntimeError(f"tally was imported from the checkout ({imported}), not from the installed wheel")


@pytest.fixture(scope="session")
def bin_dir() -> str:
    """Where tally-broker, tally-worker and tally are: $TALLY_BIN_DIR, else the debug build of this repository."""
    directory = os.environ.get("TALLY_BIN_DIR") or str(REPOSITORY / ".build" / "debug")
    try:
        for name in ("tally-broker", "tally-worker", "tally"):
            find_binary(name, directory)
    except TallyProcessError as missing:
        pytest.fail(f"{missing} (run `swift build` in {REPOSITORY} first)", pytrace=False)
    return directory


@pytest.fixture(scope="session")
def cluster(bin_dir: str) -> Iterator[LocalCluster]:
    """One broker and one worker serving every service, for tests that only make calls."""
    with LocalCluster.start(workers=1, bin_dir=bin_dir) as started:
        yield started


@pytest.fixture(scope="session")
def client(cluster: LocalCluster) -> Iterator[TallyClient]:
    """A client of the shared cluster, once every service has a worker."""
    with TallyClient(cluster.endpoint) as connected:
        cluster.wait_until_served(connected)
        yield connected
