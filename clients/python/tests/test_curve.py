"""CURVE: key files as ``tally keys`` writes them and the Swift CLI reads them; a broker with CURVE on answers a
client with an allowed key, and a client with an unknown key or none times out with the reason named."""

from __future__ import annotations

import pathlib
import subprocess
from collections.abc import Iterator

import pytest
import zmq

from tally import Curve, CurveKeyError, TallyClient, TallyTimeoutError
from tally.curve import public_key, read_keys, read_secret_key
from tally.testing import find_binary, start_broker, start_worker, wait_until_served

# A key pair for the file-format tests (made with zmq.curve_keypair, never used for anything else).
PUBLIC = "cBWD[Ue<f0i$wRKRF9*Chaq)Drt?zK.r6H$A}gCa"
SECRET = "w!qp%wcX9pK-0c^<K(p.F&X*s1nu=:hyyCln.wi)"


@pytest.fixture(scope="module")
def keys(bin_dir: str, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """broker, worker, client and stranger key pairs, made by ``tally keys --out NAME``."""
    directory = tmp_path_factory.mktemp("keys")
    for name in ("broker", "worker", "client", "stranger"):
        subprocess.run([find_binary("tally", bin_dir), "keys", "--out", directory / name], check=True,
                       capture_output=True, timeout=30)
    return directory


@pytest.fixture(scope="module")
def curve_broker(bin_dir: str, keys: pathlib.Path) -> Iterator[str]:
    broker, endpoint = start_broker(
        [
            "--curve-secret-key", str(keys / "broker.key"),
            "--curve-client-keys", str(keys / "client.pub"),
            "--curve-worker-keys", str(keys / "worker.pub"),
        ],
        bin_dir=bin_dir,
    )
    worker = start_worker(
        endpoint,
        ["--curve-secret-key", str(keys / "worker.key"), "--curve-server-key", str(keys / "broker.pub")],
        bin_dir=bin_dir,
    )
    try:
        yield endpoint
    finally:
        worker.stop()
        broker.stop()


def test_an_allowed_client_key_gets_answers(keys: pathlib.Path, curve_broker: str) -> None:
    curve = Curve.from_files(server_key=keys / "broker.pub", secret_key_file=keys / "client.key")
    assert curve.public_key == (keys / "client.pub").read_text().strip(), "the public key is derived as tally does"
    with TallyClient(curve_broker, curve=curve) as client:
        wait_until_served(client)
        assert client.system_ping(service="tally.streak").service == "tally.streak"
        [state] = client.endpoints()
        assert state.connected


def test_an_unknown_client_key_is_refused_and_the_timeout_says_so(keys: pathlib.Path, curve_broker: str) -> None:
    curve = Curve.from_files(server_key=keys / "broker.pub", secret_key_file=keys / "stranger.key")
    with TallyClient(curve_broker, curve=curve, timeout=0.8) as client, pytest.raises(TallyTimeoutError) as raised:
        client.system_ping()
    message = str(raised.value)
    assert curve_broker in message and "never connected" in message
    assert "refused the handshake" in message and "not among its allowed client keys" in message, message


def test_a_plaintext_client_of_a_curve_broker_times_out_naming_the_mismatch(curve_broker: str) -> None:
    with TallyClient(curve_broker, timeout=0.8) as client, pytest.raises(TallyTimeoutError) as raised:
        client.system_ping()
    assert "handshake failed" in str(raised.value) and "security settings differ" in str(raised.value)


def test_a_key_file_may_hold_comments_and_blank_lines(tmp_path: pathlib.Path) -> None:
    listed = tmp_path / "clients.pub"
    listed.write_text(f"# clients of Tally\n\n{PUBLIC}   # app1\n\t{PUBLIC}\r\n  # retired: {PUBLIC}\n")
    assert read_keys(listed) == [PUBLIC, PUBLIC]


def test_a_line_that_is_neither_key_nor_comment_is_named(tmp_path: pathlib.Path) -> None:
    broken = tmp_path / "broken.pub"
    broken.write_text(f"{PUBLIC}\n{PUBLIC[:-1]}\n")
    with pytest.raises(CurveKeyError, match=r"broken\.pub:2: not a 40-character Z85 key"):
        read_keys(broken)


def test_a_key_with_text_after_it_that_is_not_a_comment_is_refused(tmp_path: pathlib.Path) -> None:
    broken = tmp_path / "broken.pub"
    broken.write_text(f"{PUBLIC} app1\n")
    with pytest.raises(CurveKeyError, match=r"broken\.pub:1"):
        read_keys(broken)


def test_a_secret_key_file_holds_exactly_one_key(tmp_path: pathlib.Path) -> None:
    two = tmp_path / "two.key"
    two.write_text(f"{SECRET}\n{SECRET}\n")
    with pytest.raises(CurveKeyError, match="must hold exactly one secret key"):
        read_secret_key(two)
    with pytest.raises(CurveKeyError, match=r"cannot read .*missing\.key"):
        read_secret_key(tmp_path / "missing.key")


def test_a_server_key_is_given_inline_or_as_a_file(tmp_path: pathlib.Path) -> None:
    assert public_key(PUBLIC) == PUBLIC
    (tmp_path / "broker.pub").write_text(PUBLIC + "\n")
    assert public_key(tmp_path / "broker.pub") == PUBLIC
    assert public_key(str(tmp_path / "broker.pub")) == PUBLIC


def test_keys_that_are_not_z85_are_refused() -> None:
    with pytest.raises(CurveKeyError, match="server_key"):
        Curve.from_keys(server_key="~" * 40, secret_key=SECRET)  # "~" is not a Z85 character
    with pytest.raises(CurveKeyError, match="secret_key"):
        Curve.from_keys(server_key=PUBLIC, secret_key="#" * 40)  # Z85 characters whose value overflows 32 bits
    assert Curve.from_keys(server_key=PUBLIC, secret_key=SECRET).public_key == PUBLIC
    assert zmq.curve_public(SECRET.encode()).decode() == PUBLIC
    assert SECRET not in repr(Curve.from_keys(server_key=PUBLIC, secret_key=SECRET))
