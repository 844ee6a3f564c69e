"""Test helpers: :class:`FakeTally`, an in-process fake of Tally for unit tests (no binaries needed), and real
``tally-broker`` and ``tally-worker`` processes on loopback for integration tests (yours and ours).

::

    from tally.testing import FakeTally, Reply

    with FakeTally() as fake, TallyClient(fake.endpoint) as tally:
        fake.on("history.months", lambda params: {...})
        ...

    from tally.testing import LocalCluster

    with LocalCluster.start(workers=1) as cluster, TallyClient(cluster.endpoint) as tally:
        cluster.wait_until_served(tally)
        ...

The binaries are found in ``bin_dir``, else ``$TALLY_BIN_DIR``, else on ``PATH``. Brokers bind to a port the
kernel chooses (``tcp://127.0.0.1:0``) and print it; every process gets ``TALLY_PARENT_PID`` (this process), so it
stops by itself if the test process dies without stopping it. Each process's standard error goes to a log file
that is deleted when it stops, unless ``TALLY_KEEP_TEST_LOGS`` is set; startup failures quote its tail.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Protocol

from ._fake import SERVICES, FakeRequest, FakeTally, FakeTallyError, Reply, traceparent_problem
from .errors import TallyBaseError

__all__ = [
    "QUICK_HEARTBEATS",
    "SERVICES",
    "WORKER_RECONNECT",
    "FakeRequest",
    "FakeTally",
    "FakeTallyError",
    "LocalCluster",
    "Reply",
    "TallyProcess",
    "TallyProcessError",
    "find_binary",
    "free_loopback_port",
    "start_broker",
    "start_worker",
    "traceparent_problem",
    "wait_until_served",
]

QUICK_HEARTBEATS = ("--heartbeat-interval", "250ms", "--heartbeat-liveness", "4")
"""Heartbeats that take a peer silent for 1 s for dead, for tests about liveness only (pass them as arguments).

Processes start on the binaries' own heartbeats (2.5 s, a peer dead after 7.5 s of silence): on a busy machine a
live process is descheduled for a good part of a second now and then, and a sub-second liveness would take it for
dead and answer its requests ``unavailable``. A worker that dies is noticed within a heartbeat interval anyway (the
broker's next heartbeat finds its connection gone). The Swift end-to-end tests do the same."""
WORKER_RECONNECT = ("--reconnect-delay", "200ms")


class TallyProcessError(TallyBaseError, RuntimeError):
    """A Tally process did not start (or stop) as expected; the message quotes its standard error."""


def find_binary(name: str, bin_dir: str | os.PathLike[str] | None = None) -> Path:
    """The path of ``tally-broker``, ``tally-worker`` or ``tally``."""
    directory = bin_dir or os.environ.get("TALLY_BIN_DIR")
    if directory:
        path = Path(directory) / name
        if not path.is_file():
            raise TallyProcessError(f"{path} does not exist: build it (swift build) or point TALLY_BIN_DIR elsewhere")
        return path
    found = shutil.which(name)
    if found is None:
        raise TallyProcessError(f"{name} is neither in $TALLY_BIN_DIR nor on PATH (build it with swift build)")
    return Path(found)


def free_loopback_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (for endpoints that must be down)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TallyProcess:
    """One child process: its standard output read line by line, its standard error in a log file."""

    def __init__(self, argv: Sequence[str | os.PathLike[str]], name: str, env: dict[str, str] | None = None) -> None:
        self.name = name
        environment = {**os.environ, **(env or {}), "TALLY_PARENT_PID": str(os.getpid())}
        log = tempfile.NamedTemporaryFile(prefix=f"tally-test-{name}-", suffix=".log", delete=False)
        self.log_path = Path(log.name)
        self._lines: list[str] = []
        self._lines_changed = threading.Condition()
        try:
            self.process = subprocess.Popen(
                [os.fspath(part) for part in argv],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=log,
                env=environment,
                text=True,
            )
        finally:
            log.close()
        threading.Thread(target=self._read_output, name=f"{name}-stdout", daemon=True).start()

    def _read_output(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._lines_changed:
                self._lines.append(line.rstrip("\n"))
                self._lines_changed.notify_all()
        with self._lines_changed:
            self._lines_changed.notify_all()

    @property
    def pid(self) -> int:
        """The process id."""
        return self.process.pid

    @property
    def running(self) -> bool:
        """Whether the process has not exited yet."""
        return self.process.poll() is None

    @property
    def output(self) -> list[str]:
        """Standard output so far, line by line."""
        with self._lines_changed:
            return list(self._lines)

    def error_output(self) -> str:
        """Standard error so far."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def wait_for_line(self, marker: str, timeout: float = 30.0) -> str:
        """The first line of standard output that contains ``marker``, waiting for it up to ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._lines_changed:
            while True:
                for line in self._lines:
                    if marker in line:
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or not self.running:
                    break
                self._lines_changed.wait(min(left, 0.1))
        raise TallyProcessError(
            f"{self.name} did not print {marker!r} (running: {self.running}); stderr:\n{self.error_output()[-2000:]}"
        )

    def terminate(self) -> None:
        """SIGTERM: a graceful stop."""
        if self.running:
            self.process.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL: the process dies without a word to its peers."""
        if self.running:
            self.process.kill()

    def wait(self, timeout: float = 15.0) -> int | None:
        """Waits for the process to end; its exit status, or ``None`` if it still runs."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM, then SIGKILL if it has not ended within ``timeout``; removes the log unless kept."""
        self.terminate()
        status = self.wait(timeout)
        if status is None:
            self.kill()
            status = self.wait(5.0)
        self.discard_log()
        return status

    def discard_log(self) -> None:
        """Deletes the process's standard-error log, unless ``TALLY_KEEP_TEST_LOGS`` is set."""
        if not os.environ.get("TALLY_KEEP_TEST_LOGS"):
            self.log_path.unlink(missing_ok=True)


def start_broker(
    arguments: Iterable[str] = (), *, bind: str = "tcp://127.0.0.1:0", bin_dir: str | None = None, name: str = "broker"
) -> tuple[TallyProcess, str]:
    """A started broker and the endpoint it listens on."""
    argv: list[str | os.PathLike[str]] = [find_binary("tally-broker", bin_dir), "--bind", bind, "--log-level", "notice"]
    broker = TallyProcess([*argv, *arguments], name)
    line = broker.wait_for_line("listening on")
    return broker, line.split()[-1]


def start_worker(
    brokers: str | Sequence[str],
    arguments: Iterable[str] = (),
    *,
    bin_dir: str | None = None,
    name: str = "worker",
) -> TallyProcess:
    """A started worker connected to ``brokers`` (registration with them follows in the background)."""
    endpoints = [brokers] if isinstance(brokers, str) else list(brokers)
    argv: list[str | os.PathLike[str]] = [find_binary("tally-worker", bin_dir), "--log-level", "notice"]
    for endpoint in endpoints:
        argv += ["--broker", endpoint]
    worker = TallyProcess([*argv, *WORKER_RECONNECT, *arguments], name)
    worker.wait_for_line("serving")
    return worker


class AvailabilityProbe(Protocol):
    def service_available(self, service: str, *, timeout: float | None = None) -> bool: ...


def wait_until_served(
    client: AvailabilityProbe, services: Iterable[str] = SERVICES, timeout: float = 20.0
) -> None:
    """Waits until the broker (MMI) says every service has a live worker."""
    deadline = time.monotonic() + timeout
    for service in services:
        while not client.service_available(service, timeout=1.0):
            if time.monotonic() > deadline:
                raise TallyProcessError(f"no worker registered {service} within {timeout} s")
            time.sleep(0.05)


class LocalCluster:
    """A broker and workers as processes on loopback, stopped together (workers first)."""

    def __init__(self, broker: TallyProcess, endpoint: str, workers: list[TallyProcess], bin_dir: str | None) -> None:
        self.broker = broker
        self.endpoint = endpoint
        self.workers = workers
        self.bin_dir = bin_dir

    @classmethod
    def start(
        cls,
        workers: int = 1,
        *,
        broker_arguments: Iterable[str] = (),
        worker_arguments: Iterable[str] = (),
        bin_dir: str | None = None,
    ) -> LocalCluster:
        """A broker on a kernel-chosen loopback port and ``workers`` workers serving every service; a failure to
        start any of them stops the others. Use it as a context manager, or call ``stop()``."""
        broker, endpoint = start_broker(broker_arguments, bin_dir=bin_dir)
        cluster = cls(broker, endpoint, [], bin_dir)
        try:
            for index in range(workers):
                cluster.add_worker(worker_arguments, name=f"worker-{index}")
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def add_worker(self, arguments: Iterable[str] = (), *, name: str = "worker") -> TallyProcess:
        """Starts one more worker for the cluster's broker (stopped with the cluster)."""
        worker = start_worker(self.endpoint, arguments, bin_dir=self.bin_dir, name=name)
        self.workers.append(worker)
        return worker

    def wait_until_served(self, client: AvailabilityProbe, services: Iterable[str] = SERVICES) -> None:
        """Waits until the broker (MMI, through ``client``) says every service has a live worker."""
        wait_until_served(client, services)

    def stop(self) -> None:
        """SIGTERM to every worker, then to the broker; waits for them all."""
        for worker in self.workers:
            worker.terminate()
        for worker in self.workers:
            worker.stop()
        self.broker.stop()

    def __enter__(self) -> LocalCluster:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()
