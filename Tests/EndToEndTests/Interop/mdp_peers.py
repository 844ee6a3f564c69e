#!/usr/bin/env python3
"""Minimal Majordomo Protocol 0.1 peers written from ZeroMQ RFC 7, for interoperability tests with Tally.

    mdp_peers.py client ENDPOINT SERVICE BODY [COUNT]
        REQ-style lock-step client on a DEALER socket: sends COUNT requests (BODY with {n} replaced by the
        request number), prints each reply body on its own line, exits 0 when all arrived, 1 on timeout.
    mdp_peers.py worker ENDPOINT SERVICE
        Worker: READY, then answers every REQUEST with a reply body "python-echo:" + request body, heartbeats
        every second, exits on DISCONNECT or SIGTERM.
    mdp_peers.py broker ENDPOINT
        Broker: one ROUTER; per-service FIFO of requests and of idle workers; mmi.service; prints
        "listening ENDPOINT" once bound. Runs until SIGTERM.
"""
import signal
import sys
import time

import zmq

CLIENT = b"MDPC01"
WORKER = b"MDPW01"
READY, REQUEST, REPLY, HEARTBEAT, DISCONNECT = (bytes([n]) for n in range(1, 6))
HEARTBEAT_INTERVAL = 1.0


def client(endpoint, service, body, count=1):
    context = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(endpoint)
    for n in range(int(count)):
        socket.send_multipart([b"", CLIENT, service.encode(), body.replace("{n}", str(n)).encode()])
        if not socket.poll(10_000):
            print("timeout", file=sys.stderr)
            socket.close(0)
            context.term()
            return 1
        frames = socket.recv_multipart()
        # Frames: empty, MDPC01, service, body...
        if len(frames) < 4 or frames[0] != b"" or frames[1] != CLIENT or frames[2] != service.encode():
            print(f"bad reply {frames!r}", file=sys.stderr)
            return 1
        print(frames[3].decode())
        sys.stdout.flush()
    socket.close(0)
    context.term()
    return 0


def worker(endpoint, service):
    context = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(endpoint)
    socket.send_multipart([b"", WORKER, READY, service.encode()])
    running = True

    def stop(*_):
        nonlocal running
        running = False

    signal.signal(signal.SIGTERM, stop)
    next_heartbeat = time.monotonic() + HEARTBEAT_INTERVAL
    while running:
        if socket.poll(100):
            frames = socket.recv_multipart()
            if len(frames) < 3 or frames[0] != b"" or frames[1] != WORKER:
                continue
            command = frames[2]
            if command == REQUEST and len(frames) >= 6 and frames[4] == b"":
                client_address, body = frames[3], frames[5:]
                socket.send_multipart([b"", WORKER, REPLY, client_address, b""] + [b"python-echo:" + body[0]] + body[1:])
            elif command == DISCONNECT:
                break
        if time.monotonic() >= next_heartbeat:
            socket.send_multipart([b"", WORKER, HEARTBEAT])
            next_heartbeat = time.monotonic() + HEARTBEAT_INTERVAL
    socket.send_multipart([b"", WORKER, DISCONNECT])
    socket.close(linger=500)
    context.term()
    return 0


def broker(endpoint):
    context = zmq.Context()
    socket = context.socket(zmq.ROUTER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.bind(endpoint)
    print("listening", socket.getsockopt(zmq.LAST_ENDPOINT).decode())
    sys.stdout.flush()
    running = True

    def stop(*_):
        nonlocal running
        running = False

    signal.signal(signal.SIGTERM, stop)
    requests = {}      # service -> [(client, body frames)]
    idle = {}          # service -> [worker id]
    workers = {}       # worker id -> (service, expiry)
    next_heartbeat = time.monotonic() + HEARTBEAT_INTERVAL

    def dispatch(service):
        while requests.get(service) and idle.get(service):
            client_address, body = requests[service].pop(0)
            worker_id = idle[service].pop(0)
            socket.send_multipart([worker_id, b"", WORKER, REQUEST, client_address, b""] + body)

    while running:
        if socket.poll(100):
            frames = socket.recv_multipart()
            if len(frames) < 3 or frames[1] != b"":
                continue
            sender, header = frames[0], frames[2]
            if header == CLIENT and len(frames) >= 4:
                service = frames[3]
                if service == b"mmi.service":
                    name = frames[4] if len(frames) > 4 else b""
                    code = b"200" if any(s == name for s, _ in workers.values()) else b"404"
                    socket.send_multipart([sender, b"", CLIENT, service, code])
                elif service.startswith(b"mmi."):
                    socket.send_multipart([sender, b"", CLIENT, service, b"501"])
                else:
                    requests.setdefault(service, []).append((sender, frames[4:]))
                    dispatch(service)
            elif header == WORKER and len(frames) >= 4:
                command = frames[3]
                if command == READY and len(frames) == 5:
                    workers[sender] = (frames[4], time.monotonic() + 3 * HEARTBEAT_INTERVAL)
                    idle.setdefault(frames[4], []).append(sender)
                    dispatch(frames[4])
                elif sender not in workers:
                    socket.send_multipart([sender, b"", WORKER, DISCONNECT])
                elif command == REPLY and len(frames) >= 7:
                    service, _ = workers[sender]
                    workers[sender] = (service, time.monotonic() + 3 * HEARTBEAT_INTERVAL)
                    socket.send_multipart([frames[4], b"", CLIENT, service] + frames[6:])
                    idle.setdefault(service, []).append(sender)
                    dispatch(service)
                elif command == HEARTBEAT:
                    service, _ = workers[sender]
                    workers[sender] = (service, time.monotonic() + 3 * HEARTBEAT_INTERVAL)
                elif command == DISCONNECT:
                    service, _ = workers.pop(sender)
                    if sender in idle.get(service, []):
                        idle[service].remove(sender)
        now = time.monotonic()
        if now >= next_heartbeat:
            for worker_id in list(workers):
                service, expiry = workers[worker_id]
                if expiry < now:
                    del workers[worker_id]
                    if worker_id in idle.get(service, []):
                        idle[service].remove(worker_id)
                else:
                    socket.send_multipart([worker_id, b"", WORKER, HEARTBEAT])
            next_heartbeat = now + HEARTBEAT_INTERVAL
    socket.close(0)
    context.term()
    return 0


if __name__ == "__main__":
    # A parent may start us with signals blocked (test runners often do); SIGTERM must reach the handlers.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    mode, arguments = sys.argv[1], sys.argv[2:]
    sys.exit({"client": client, "worker": worker, "broker": broker}[mode](*arguments))
