"""What the client knows of each broker connection, from libzmq's socket monitor events.

Each broker has a DEALER of its own, with ``ZMQ_IMMEDIATE``, so a request goes only over a connection whose
handshake is done, and the client knows which broker holds it. The monitor tells when a connection is up and when
it is lost (closed by the broker, or dropped because the broker stopped answering heartbeats): what the call book
needs to move a lost broker's attempts, and what a timeout can honestly say about each endpoint.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import replace
from typing import Literal

import zmq

from .errors import EndpointState

Change = Literal["up", "down"]
"""What an event changed: the connection came up, or the one that was up is gone."""


def _handshake_problem(event: int, value: int) -> str:
    if event == zmq.EVENT_HANDSHAKE_FAILED_AUTH:
        return (
            f"the broker refused the handshake (ZAP status {value}): this client's CURVE key is not among its "
            "allowed client keys"
        )
    if event == zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL:
        return (
            f"handshake failed (ZMTP protocol error {value:#x}): the security settings differ "
            "(CURVE on one side only, or the wrong server key)"
        )
    return "handshake failed: the security settings differ (CURVE on one side only, or the wrong server key)"


class EndpointStates:
    """Connection states per broker (by position), updated by the I/O thread and read by any thread."""

    def __init__(self, endpoints: Iterable[str]) -> None:
        self._lock = threading.Lock()
        self._states = [EndpointState(endpoint, connected=False, ever_connected=False) for endpoint in endpoints]
        self._connecting: set[int] = set()

    def snapshot(self) -> list[EndpointState]:
        """Every endpoint's state, in the order given to the client."""
        with self._lock:
            return list(self._states)

    def observe(self, broker: int, event: int, value: int) -> Change | None:
        """Applies one monitor event of broker ``broker``'s socket; says whether its connection came up or went."""
        with self._lock:
            state = self._states[broker]
            change: Change | None = None
            if event == zmq.EVENT_CONNECTED:
                self._connecting.add(broker)
            elif event == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                self._connecting.discard(broker)
                change = None if state.connected else "up"
                state = replace(state, connected=True, ever_connected=True, problem=None)
            elif event in (
                zmq.EVENT_HANDSHAKE_FAILED_AUTH,
                zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL,
                zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL,
            ):
                self._connecting.discard(broker)
                state = replace(state, connected=False, problem=_handshake_problem(event, value))
            elif event == zmq.EVENT_DISCONNECTED:
                if state.connected:
                    change = "down"
                    problem = "the connection was lost (closed, or the broker stopped answering heartbeats)"
                    state = replace(state, connected=False, losses=state.losses + 1, problem=problem)
                elif broker in self._connecting:  # dropped before the handshake ended, with no reason given
                    state = replace(state, problem="the connection closed during the handshake")
                self._connecting.discard(broker)
            elif event == zmq.EVENT_CONNECT_RETRIED and not state.connected:
                # Every connection that failed or was lost is retried: this counts them.
                state = replace(
                    state,
                    failed_connects=state.failed_connects + 1,
                    problem=state.problem or "cannot connect (nothing listening, or unreachable); retrying",
                )
            self._states[broker] = state
            return change
