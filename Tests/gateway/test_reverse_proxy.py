"""The reverse proxy docs/gateway.md documents, run as written: its nginx block, read from the document itself (only
the listening port, the gateway's port and the certificate's paths replaced), terminates TLS with a certificate this
test makes with openssl and proxies to a real gateway, broker and workers on loopback. Calls through it get the
gateway's answers: a result, a v1 error body under its status, `Retry-After` on `overloaded`, the OpenAPI document,
over connections to the gateway that nginx keeps alive.

nginx runs in the foreground as this test's child, one process, every path it writes under a temporary folder, and
is stopped at the end. Skipped where nginx or openssl is not installed (`scripts/install-dependencies --test` installs
Debian's nginx)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pathlib
import re
import shutil
import socket
import ssl
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from tally.testing import LocalCluster, free_loopback_port

from conftest import PROTOCOL, REPOSITORY, Gateway, start_gateway

DOCUMENT = REPOSITORY / "docs" / "gateway.md"


def nginx_binary() -> str | None:
    # Debian puts it in /usr/sbin, which a user's PATH may leave out.
    return shutil.which("nginx") or next((path for path in ("/usr/sbin/nginx",) if os.access(path, os.X_OK)), None)


NGINX = nginx_binary()
pytestmark = [
    pytest.mark.skipif(
        NGINX is None, reason="nginx is not installed (Debian's nginx: scripts/install-dependencies --test)"
    ),
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed (it makes the certificate)"),
]


def documented_block() -> str:
    """The one ```nginx block of docs/gateway.md."""
    blocks = re.findall(r"^( *)```nginx\n(.*?)^\1```$", DOCUMENT.read_text(), flags=re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, f"{DOCUMENT} should have exactly one ```nginx block, has {len(blocks)}"
    indent, block = blocks[0]
    return "\n".join(line.removeprefix(indent) for line in block.splitlines()) + "\n"


def replaced_once(text: str, old: str, new: str) -> str:
    """`text` with `old`, which it has exactly once, replaced: the test changes only what it must, and a document
    that no longer says `old` fails here rather than being run as something else."""
    assert text.count(old) == 1, f"the nginx block of {DOCUMENT} should say {old!r} once:\n{text}"
    return text.replace(old, new)


@dataclass
class Proxy:
    port: int
    context: ssl.SSLContext
    process: subprocess.Popen[bytes]
    folder: pathlib.Path

    def connection(self) -> http.client.HTTPSConnection:
        # The certificate's name is 127.0.0.1: the connection checks it as a client would.
        return http.client.HTTPSConnection("127.0.0.1", self.port, context=self.context, timeout=30)

    def log(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')}"
            for path in sorted(self.folder.glob("*.log"))
            if path.stat().st_size
        )


def certificate(folder: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """A self-signed certificate for 127.0.0.1, valid for a day, and its key."""
    crt, key = folder / "tally.crt", folder / "tally.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(crt),
        ],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return crt, key


def configuration(folder: pathlib.Path, listen: int, gateway_port: int, crt: pathlib.Path, key: pathlib.Path) -> str:
    """nginx.conf: the documented block inside the least a main context needs to run as a child of the test: in the
    foreground, one process, its pid, logs and temporary files in `folder`."""
    block = documented_block()
    block = replaced_once(block, "listen 443 ssl;", f"listen 127.0.0.1:{listen} ssl;")
    block = replaced_once(block, "server 127.0.0.1:8080;", f"server 127.0.0.1:{gateway_port};")
    block = replaced_once(block, "/etc/ssl/tally.crt", str(crt))
    block = replaced_once(block, "/etc/ssl/tally.key", str(key))
    temporary = "\n".join(
        f"    {kind}_temp_path {folder / (kind + '_temp')};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        "daemon off;\n"
        # One process, the test's child: nothing to hand over to an unprivileged worker user, nothing left behind.
        "master_process off;\n"
        f"pid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} notice;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {folder / 'access.log'};\n"
        f"{temporary}\n" + "".join(f"    {line}\n" if line else "\n" for line in block.splitlines()) + "}\n"
    )


def accepts(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


@contextlib.contextmanager
def start_nginx(folder: pathlib.Path, gateway: Gateway) -> Iterator[Proxy]:
    """nginx in front of `gateway`, with the documented block, until the block ends."""
    assert NGINX is not None
    folder.mkdir(parents=True, exist_ok=True)
    crt, key = certificate(folder)
    context = ssl.create_default_context(cafile=str(crt))
    gateway_port = int(gateway.base_url.rsplit(":", 1)[1])
    for _ in range(3):  # a free port taken by someone else between the probe and nginx's bind: another port
        port = free_loopback_port()
        conf = folder / "nginx.conf"
        conf.write_text(configuration(folder, port, gateway_port, crt, key))
        command = [NGINX, "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log")]
        check = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, f"nginx -t refuses the configuration:\n{check.stderr}\n{conf.read_text()}"
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        proxy = Proxy(port, context, process, folder)
        deadline = time.monotonic() + 30
        while process.poll() is None and not accepts(port) and time.monotonic() < deadline:
            time.sleep(0.05)
        if process.poll() is None and accepts(port):
            break
        process.kill()
        process.wait()
        if "Address already in use" not in proxy.log():
            pytest.fail(f"nginx did not start:\n{proxy.log()}", pytrace=False)
    else:
        pytest.fail(f"nginx found no free port:\n{proxy.log()}", pytrace=False)
    try:
        yield proxy
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)


def post(
    connection: http.client.HTTPSConnection, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> Answer:
    connection.request("POST", path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
    response = connection.getresponse()
    return Answer(response.status, response.headers, response.read())


def example_params(name: str) -> bytes:
    return json.dumps(json.loads((PROTOCOL / "examples" / name).read_text())["request"]["params"]).encode()


@dataclass
class Proxied:
    proxy: Proxy
    gateway: Gateway
    metrics_url: str


@pytest.fixture(scope="module")
def proxied(bin_dir: str, cluster: LocalCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    """nginx in front of a gateway of its own on the session's cluster, that gateway's /metrics served (its
    connection count says whether nginx keeps its connections alive)."""
    metrics = f"127.0.0.1:{free_loopback_port()}"
    with (
        start_gateway(bin_dir, cluster.endpoint, "--http", metrics) as gateway,
        start_nginx(tmp_path_factory.mktemp("nginx"), gateway) as proxy,
    ):
        yield Proxied(proxy, gateway, f"http://{metrics}/metrics")


def connections_accepted(metrics_url: str) -> float:
    with urllib.request.urlopen(metrics_url, timeout=10) as response:
        text = response.read().decode()
    found = re.search(r"^tally_gateway_connections_total(?:\{\})? (\S+)$", text, flags=re.MULTILINE)
    assert found, text
    return float(found.group(1))


def test_the_document_has_the_block_the_test_runs() -> None:
    block = documented_block()
    # What makes it a reverse proxy for the gateway, as the document explains it: kept-alive upstream connections
    # over HTTP/1.1, the body limit of the gateway, a read timeout above --max-timeout.
    for directive in (
        "keepalive",
        "proxy_http_version 1.1;",
        'proxy_set_header Connection "";',
        "client_max_body_size 1m;",
        "proxy_read_timeout",
    ):
        assert directive in block, block


def test_a_call_gets_its_result_through_tls(proxied: Proxied) -> None:
    connection = proxied.proxy.connection()
    try:
        sockets = []
        for _ in range(3):
            answer = post(connection, "/v1/system.ping")
            assert answer.status == 200, (answer.body, proxied.proxy.log())
            assert answer.headers["Content-Type"] == "application/json"
            assert answer.headers["Tally-Request-Id"].startswith("gw-")
            assert answer.json()["service"] == "tally.history"
            sockets.append(connection.sock)
        answer = post(connection, "/v1/streak.summary", example_params("streak.summary/active-streak.json"))
        assert answer.status == 200, answer.body
        assert answer.json()["current_streak"]["days"] == 7
        # The caller's TLS connection stayed open from one call to the next (http.client opens another after one
        # the server closed).
        assert sockets[0] is not None and all(sock is sockets[0] for sock in [*sockets, connection.sock])
    finally:
        connection.close()


def test_an_error_keeps_its_status_and_v1_body(proxied: Proxied) -> None:
    connection = proxied.proxy.connection()
    try:
        # The worker's refusal: a zone it does not know.
        answer = post(connection, "/v1/streak.summary", example_params("streak.summary/unknown-zone.json"))
        assert answer.status == 400, answer.body
        body = answer.json()
        assert body["version"] == 1 and body["error"]["code"] == "invalid_params", body
        assert body["id"] == answer.headers["Tally-Request-Id"]
        # The gateway's own: a method Tally does not have, on the same connection.
        answer = post(connection, "/v1/streak.nothing")
        assert answer.status == 404, answer.body
        assert answer.json()["error"]["code"] == "unknown_method"
    finally:
        connection.close()


def test_the_openapi_document_is_served_through_it(proxied: Proxied) -> None:
    connection = proxied.proxy.connection()
    try:
        connection.request("GET", "/openapi.json")
        response = connection.getresponse()
        assert response.status == 200
        assert json.loads(response.read())["openapi"].startswith("3.1")
    finally:
        connection.close()


def test_nginx_keeps_its_connections_to_the_gateway_alive(proxied: Proxied) -> None:
    before = connections_accepted(proxied.metrics_url)
    for _ in range(10):  # ten callers, each on a TLS connection of its own, one after another
        connection = proxied.proxy.connection()
        try:
            assert post(connection, "/v1/system.ping").status == 200
        finally:
            connection.close()
    # One upstream connection, reused; a second only if nginx closed the first between calls.
    assert connections_accepted(proxied.metrics_url) - before <= 2


@pytest.fixture(scope="module")
def overloaded(bin_dir: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """nginx in front of a gateway whose broker queues one request and has no worker for it: a second call while
    the first waits is answered `overloaded`."""
    with (
        LocalCluster.start(
            workers=0, broker_arguments=["--max-queue", "1", "--service-grace", "1h"], bin_dir=bin_dir
        ) as cluster,
        start_gateway(bin_dir, cluster.endpoint) as gateway,
        start_nginx(tmp_path_factory.mktemp("nginx-overloaded"), gateway) as proxy,
    ):
        yield proxy


def test_retry_after_passes_through(overloaded: Proxy) -> None:
    answers: list[Answer] = []

    def call() -> None:
        connection = overloaded.connection()
        try:
            answers.append(post(connection, "/v1/system.ping", headers={"Request-Timeout": "3s"}))
        finally:
            connection.close()

    # Whichever reaches the broker second finds the queue full; the other waits out its time.
    first = threading.Thread(target=call)
    first.start()
    time.sleep(0.5)
    call()
    first.join(timeout=30)
    statuses = sorted(answer.status for answer in answers)
    assert len(answers) == 2 and 429 in statuses, [(a.status, a.body) for a in answers]
    refused = next(answer for answer in answers if answer.status == 429)
    error = refused.json()["error"]
    assert error["code"] == "overloaded", error
    milliseconds = error["details"]["retry_after_ms"]
    assert refused.headers["Retry-After"] == str(-(-milliseconds // 1000)), dict(refused.headers)
    waited = next(answer for answer in answers if answer is not refused)
    assert waited.status in (503, 504), waited.body
