#!/usr/bin/env python3
"""Many client connections from one host, for the vanished-host tests: some busy, some idle.

    many_clients.py ENDPOINT BUSY IDLE

Opens BUSY DEALERs that each send a `system.ping` every 200 ms (so the broker always has replies on their way to
this host) and IDLE DEALERs that connect and then never send anything, with no ZMTP heartbeats (as a foreign peer
on an old ZeroMQ stack would): two ways for a connection to be left behind when the host vanishes. Prints `ready`
once every busy connection has had an answer, then runs until killed.
"""

from __future__ import annotations

import json
import sys
import time

import zmq


def main(endpoint: str, busy: str, idle: str) -> int:
    context = zmq.Context()
    sockets = []
    for _ in range(int(busy) + int(idle)):
        socket = context.socket(zmq.DEALER)
        socket.linger = 0
        socket.connect(endpoint)
        sockets.append(socket)
    busy_sockets = sockets[: int(busy)]
    poller = zmq.Poller()
    for socket in busy_sockets:
        poller.register(socket, zmq.POLLIN)
    answered: set[int] = set()
    announced = False
    sequence = 0
    while True:
        for index, socket in enumerate(busy_sockets):
            sequence += 1
            request = {"version": 1, "id": f"many-{index}-{sequence}", "method": "system.ping"}
            try:
                socket.send_multipart(
                    [b"", b"MDPC01", b"tally.history", json.dumps(request).encode()], flags=zmq.NOBLOCK
                )
            except zmq.Again:
                pass
        until = time.monotonic() + 0.2
        while (remaining := until - time.monotonic()) > 0:
            for socket, _ in poller.poll(max(1, int(remaining * 1000))):
                socket.recv_multipart()
                answered.add(busy_sockets.index(socket))
        if not announced and len(answered) == len(busy_sockets):
            print("ready", flush=True)
            announced = True


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
