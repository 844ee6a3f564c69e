"""What the client knows of each broker connection, from libzmq's socket monitor events.

One DEALER connects to every broker; with ``ZMQ_IMMEDIATE`` it sends only over connections whose handshake is
done, so which broker took a request is libzmq's choice. What the monitor tells — connected, refused, handshake
refused by CURVE — is what a timeout can honestly say about each endpoint.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import replace

import zmq

from .errors import EndpointState


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
    """Connection states per endpoint, updated by the I/O thread and read by any thread."""

    def __init__(self, endpoints: Iterable[str]) -> None:
        self._lock = threading.Lock()
        self._states = {
            endpoint: EndpointState(endpoint, connected=False, ever_connected=False) for endpoint in endpoints
        }
        self._connecting: set[str] = set()

    def snapshot(self) -> list[EndpointState]:
        """Every endpoint's state, in the order given to the client."""
        with self._lock:
            return list(self._states.values())

    def observe(self, event: int, endpoint: str, value: int) -> None:
        """Applies one monitor event."""
        with self._lock:
            state = self._states.get(endpoint) or EndpointState(endpoint, connected=False, ever_connected=False)
            if event == zmq.EVENT_CONNECTED:
                self._connecting.add(endpoint)
            elif event == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                self._connecting.discard(endpoint)
                state = replace(state, connected=True, ever_connected=True, problem=None)
            elif event in (
                zmq.EVENT_HANDSHAKE_FAILED_AUTH,
                zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL,
                zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL,
            ):
                self._connecting.discard(endpoint)
                state = replace(state, connected=False, problem=_handshake_problem(event, value))
            elif event == zmq.EVENT_DISCONNECTED:
                if endpoint in self._connecting:  # dropped before the handshake ended, with no reason given
                    self._connecting.discard(endpoint)
                    state = replace(state, problem="the connection closed during the handshake")
                elif state.connected:
                    state = replace(state, connected=False, problem="the connection was lost")
            elif event == zmq.EVENT_CONNECT_RETRIED and not state.connected:
                # Every connection that failed or was lost is retried: this counts them.
                state = replace(
                    state,
                    failed_connects=state.failed_connects + 1,
                    problem=state.problem or "cannot connect (nothing listening, or unreachable); retrying",
                )
            self._states[endpoint] = state
