#!/usr/bin/env python3
"""A live MDP/0.1 client speaking ZMTP 3.0 by hand over a plain TCP socket: a peer that never answers (nor even
knows) a ZMTP PING, as an older ZeroMQ stack would. For the test that such a peer is not cut while it is alive.

    zmtp30_peer.py HOST PORT IDLE_SECONDS

Connects, does the ZMTP 3.0 NULL handshake as a DEALER, then stays idle for IDLE_SECONDS (reading whatever comes
and answering nothing), then sends an MMI `mmi.service` query for `tally.history` on the same connection and
prints one JSON line: {"answer": status or null, "commands_received": [names], "closed": bool}.
"""

from __future__ import annotations

import json
import socket
import struct
import sys
import time


def greeting() -> bytes:
    # Signature, version 3.0, mechanism NULL, as-server 0, filler: 64 bytes (ZMTP 3.0, RFC 23).
    return b"\xff" + b"\x00" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\x00") + b"\x00" + b"\x00" * 31


def frame(body: bytes, more: bool = False, command: bool = False) -> bytes:
    flags = (0x01 if more else 0) | (0x04 if command else 0)
    if len(body) > 255:
        return bytes([flags | 0x02]) + struct.pack(">Q", len(body)) + body
    return bytes([flags, len(body)]) + body


def ready_command() -> bytes:
    name, value = b"Socket-Type", b"DEALER"
    return frame(b"\x05READY" + bytes([len(name)]) + name + struct.pack(">I", len(value)) + value, command=True)


class Reader:
    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.buffer = b""

    def exactly(self, count: int) -> bytes | None:
        while len(self.buffer) < count:
            chunk = self.connection.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def frame(self) -> tuple[int, bytes] | None:
        head = self.exactly(1)
        if head is None:
            return None
        flags = head[0]
        size_bytes = self.exactly(8 if flags & 0x02 else 1)
        if size_bytes is None:
            return None
        size = struct.unpack(">Q", size_bytes)[0] if flags & 0x02 else size_bytes[0]
        body = self.exactly(size)
        return None if body is None else (flags, body)


def main(host: str, port: str, idle: str) -> int:
    connection = socket.create_connection((host, int(port)), timeout=10)
    reader = Reader(connection)
    connection.sendall(greeting())
    if reader.exactly(64) is None:
        print(json.dumps({"answer": None, "commands_received": [], "closed": True}))
        return 0
    connection.sendall(ready_command())
    commands: list[str] = []
    closed = False
    answer = None
    idle_until = time.monotonic() + float(idle)
    sent_query = False
    while True:
        if not sent_query and time.monotonic() >= idle_until:
            connection.sendall(
                frame(b"", more=True) + frame(b"MDPC01", more=True) + frame(b"mmi.service", more=True)
                + frame(b"tally.history")
            )
            sent_query = True
        wait = max(0.05, idle_until - time.monotonic()) if not sent_query else 10.0
        connection.settimeout(wait)
        try:
            received = reader.frame()
        except TimeoutError:
            if sent_query:
                break  # no answer within 10 s
            continue
        except OSError:
            closed = True
            break
        if received is None:
            closed = True
            break
        flags, body = received
        if flags & 0x04:
            commands.append(body[1 : 1 + body[0]].decode("ascii", "replace"))
            continue
        if sent_query and not flags & 0x01:
            answer = body.decode("utf-8", "replace")
            break
    print(json.dumps({"answer": answer, "commands_received": commands, "closed": closed}), flush=True)
    connection.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
