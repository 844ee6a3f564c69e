#!/usr/bin/env python3
"""An MDP/0.1 client that counts every reply it receives per request id, for the multi-host fault test.

    counting_client.py ENDPOINT SERVICE COUNT RATE SETTLE_SECONDS TIMEOUT_SECONDS

Sends COUNT `system.ping` requests with ids "count-0", "count-1", … at RATE per second on one DEALER socket (no
retries: the broker alone must recover lost requests), receiving as it goes. Once every id is answered, or
TIMEOUT_SECONDS after the first request, it keeps listening SETTLE_SECONDS more, so that a reply delivered twice
(a worker's late answer after its request was re-queued) would be seen. Prints one JSON line:
{"sent", "answered", "missing": [ids], "duplicates": {id: times}, "errors": {code: n}} and exits 0.
"""
import json
import sys
import time

import zmq


def main(endpoint, service, count, rate, settle, timeout):
    count, rate, settle, timeout = int(count), float(rate), float(settle), float(timeout)
    context = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(endpoint)
    replies, errors = {}, {}

    def receive(until):
        while True:
            remaining = until - time.monotonic()
            if remaining <= 0 or not socket.poll(max(1, int(remaining * 1000))):
                return
            frames = socket.recv_multipart()
            if len(frames) < 4 or frames[1] != b"MDPC01":
                continue
            body = json.loads(frames[3])
            replies[body.get("id")] = replies.get(body.get("id"), 0) + 1
            if "error" in body:
                code = body["error"].get("code", "?")
                errors[code] = errors.get(code, 0) + 1

    start = time.monotonic()
    for n in range(count):
        receive(start + n / rate)
        request = {"version": 1, "id": f"count-{n}", "method": "system.ping"}
        socket.send_multipart([b"", b"MDPC01", service.encode(), json.dumps(request).encode()])
    deadline = start + timeout
    while len(replies) < count and time.monotonic() < deadline:
        receive(min(deadline, time.monotonic() + 0.2))
    receive(time.monotonic() + settle)
    ids = [f"count-{n}" for n in range(count)]
    print(json.dumps({
        "sent": count,
        "answered": sum(1 for i in ids if i in replies),
        "missing": [i for i in ids if i not in replies],
        "duplicates": {i: times for i, times in replies.items() if times > 1},
        "errors": errors,
    }))
    sys.stdout.flush()
    socket.close(0)
    context.term()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
