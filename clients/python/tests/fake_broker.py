"""A scripted MDP/0.1 broker (a ROUTER socket on its own thread) for tests that must see or shape the wire exactly:
the envelope a client sends, refusals on demand, replies held back, reordered or garbled."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import zmq

MDP_CLIENT = b"MDPC01"


@dataclass(frozen=True)
class Received:
    """One request as the broker got it."""

    at: float  # time.monotonic()
    service: str
    envelope: dict[str, Any]
    sender: bytes
    body: bytes = b""
    """The body as sent (an MMI query's service name; the envelope's JSON)."""


Reply = dict[str, Any] | bytes | list[bytes]
"""An answer: a v1 envelope, a raw body, or raw frames after the sender's routing id."""

Script = Callable[[Received, "FakeBroker"], list[Reply] | None]
"""Decides the answers to one request (``None`` or ``[]``: none for now)."""


class FakeBroker:
    def __init__(self, script: Script) -> None:
        self.script = script
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._outbox: list[tuple[bytes, Reply]] = []
        self._stop = threading.Event()
        self._context = zmq.Context()
        self._socket = self._context.socket(zmq.ROUTER)
        self._socket.linger = 0
        port = self._socket.bind_to_random_port("tcp://127.0.0.1")
        self.endpoint = f"tcp://127.0.0.1:{port}"
        self._thread = threading.Thread(target=self._run, name="fake-broker", daemon=True)
        self._thread.start()

    def send_later(self, sender: bytes, reply: Reply) -> None:
        """Queues an answer from any thread (a script that answers several requests at once)."""
        with self._lock:
            self._outbox.append((sender, reply))

    def requests(self) -> list[Received]:
        with self._lock:
            return list(self.received)

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.requests()) >= count:
                return self.requests()
            time.sleep(0.005)
        raise AssertionError(f"the fake broker got {len(self.requests())} requests, not {count}")

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._socket.poll(10):
                frames = self._socket.recv_multipart()
                sender, rest = frames[0], frames[1:]
                assert rest[:2] == [b"", MDP_CLIENT], f"not an MDP/0.1 client request: {rest!r}"
                service = rest[2].decode()
                envelope = {} if service.startswith("mmi.") else json.loads(rest[3])
                request = Received(time.monotonic(), service, envelope, sender, rest[3])
                with self._lock:
                    self.received.append(request)
                for reply in self.script(request, self) or []:
                    self._send(sender, request.service, reply)
            with self._lock:
                pending, self._outbox = self._outbox, []
            for sender, reply in pending:
                self._send(sender, "tally.history", reply)

    def _send(self, sender: bytes, service: str, reply: Reply) -> None:
        if isinstance(reply, list):
            self._socket.send_multipart([sender, *reply])
            return
        body = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
        self._socket.send_multipart([sender, b"", MDP_CLIENT, service.encode(), body])

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._socket.close(0)
        self._context.term()

    def __enter__(self) -> FakeBroker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def ok(request: Received, result: Any) -> dict[str, Any]:
    return {"version": 1, "id": request.envelope.get("id"), "result": result}


def error(request: Received, code: str, message: str = "", **details: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message or code}
    if details:
        body["details"] = details
    return {"version": 1, "id": request.envelope.get("id"), "error": body}
