"""CURVE encryption for the client: the broker's public key and the client's key pair, read from the files that
``tally keys --out NAME`` writes (the same files the Swift CLI's ``--curve-server-key`` and ``--curve-secret-key``
take).

Key files are text: a secret-key file holds one Z85 secret key; a public-key file holds Z85 public keys, one per
line. Blank lines, lines starting with ``#``, and text after a key separated by whitespace and ``#`` are comments
(``#`` is itself a Z85 character, so it starts a comment only at the start of a line or after whitespace). This is
the format of Sources/ZeroMQ/Security/CurveKeyFile.swift.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field

import zmq
from zmq.utils import z85

from .errors import TallyBaseError

KEY_LENGTH = 40
"""A Z85 key: 40 characters for 32 bytes."""


class CurveKeyError(TallyBaseError, ValueError):
    """A key or key file that cannot be used, with the file (and line) it came from."""


def is_valid_key(text: str) -> bool:
    """Whether ``text`` is 40 characters of Z85 that decode to 32 bytes."""
    if len(text) != KEY_LENGTH or not text.isascii():
        return False
    try:
        return len(z85.decode(text.encode("ascii"))) == 32
    except (ValueError, KeyError, IndexError, struct.error):  # bad characters, or a group over 2³²
        return False


def read_keys(path: str | os.PathLike[str]) -> list[str]:
    """Every key in a key file, in order.

    Raises:
        CurveKeyError: the file cannot be read, or a line is neither a key nor a comment (``FILE:LINE`` named).
    """
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as handle:
            text = handle.read()
    except OSError as error:
        raise CurveKeyError(f"cannot read {os.fspath(path)}: {error.strerror or error}") from error
    keys = []
    for number, line in enumerate(text.split("\n"), start=1):
        tokens = line.replace("\t", " ").replace("\r", " ").split()
        if not tokens:
            continue
        first = tokens[0]
        if is_valid_key(first) and (len(tokens) == 1 or tokens[1].startswith("#")):
            keys.append(first)
        elif not first.startswith("#"):
            raise CurveKeyError(f"{os.fspath(path)}:{number}: not a 40-character Z85 key")
    return keys


def read_secret_key(path: str | os.PathLike[str]) -> str:
    """The one secret key of a secret-key file (``NAME.key``)."""
    keys = read_keys(path)
    if len(keys) != 1:
        raise CurveKeyError(f"{os.fspath(path)} must hold exactly one secret key (it holds {len(keys)})")
    return keys[0]


def public_key(key_or_path: str | os.PathLike[str]) -> str:
    """A Z85 public key given as it is, or read from a file that holds exactly one (``NAME.pub``)."""
    if isinstance(key_or_path, str) and is_valid_key(key_or_path):
        return key_or_path
    keys = read_keys(key_or_path)
    if len(keys) != 1:
        raise CurveKeyError(f"{os.fspath(key_or_path)} must hold exactly one public key (it holds {len(keys)})")
    return keys[0]


@dataclass(frozen=True)
class Curve:
    """CURVE settings of a client: the broker's public key and this client's key pair (Z85 text).

    Build it from key files with :meth:`from_files`, or from keys held elsewhere (a secret store) with
    :meth:`from_keys`. The broker admits the client only if its public key is in the broker's
    ``--curve-client-keys`` list.

    Attributes:
        server_key: the broker's public key.
        public_key: this client's public key (derived from the secret key).
        secret_key: this client's secret key; not shown by ``repr``.
    """

    server_key: str
    public_key: str
    secret_key: str = field(repr=False)

    def __post_init__(self) -> None:
        for name in ("server_key", "public_key", "secret_key"):
            if not is_valid_key(getattr(self, name)):
                raise CurveKeyError(f"{name} is not a 40-character Z85 key")

    @classmethod
    def from_keys(cls, *, server_key: str, secret_key: str) -> Curve:
        """Settings from the broker's public key and this client's secret key, as Z85 text."""
        if not is_valid_key(secret_key):
            raise CurveKeyError("secret_key is not a 40-character Z85 key")
        if not is_valid_key(server_key):
            raise CurveKeyError("server_key is not a 40-character Z85 key")
        derived = zmq.curve_public(secret_key.encode("ascii")).decode("ascii")
        return cls(server_key=server_key, public_key=derived, secret_key=secret_key)

    @classmethod
    def from_files(cls, *, server_key: str | os.PathLike[str], secret_key_file: str | os.PathLike[str]) -> Curve:
        """Settings as the Swift CLI takes them: ``--curve-server-key`` (the broker's public key, or a file holding
        it, e.g. ``broker.pub``) and ``--curve-secret-key`` (this client's ``NAME.key``)."""
        return cls.from_keys(server_key=public_key(server_key), secret_key=read_secret_key(secret_key_file))

    def apply(self, socket: zmq.Socket[bytes]) -> None:
        """Makes ``socket`` a CURVE client of the broker. Call before ``connect``."""
        socket.curve_serverkey = self.server_key.encode("ascii")
        socket.curve_publickey = self.public_key.encode("ascii")
        socket.curve_secretkey = self.secret_key.encode("ascii")
