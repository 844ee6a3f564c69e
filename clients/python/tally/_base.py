"""What the blocking and the asyncio client share: their options, given once, and the ClientCore they drive."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

import zmq

from ._core import DEFAULT_TIMEOUT, ClientCore
from .curve import Curve
from .errors import EndpointState


class ClientBase:
    """Holds the I/O core; :class:`tally.TallyClient` and :class:`tally.aio.AsyncTallyClient` add their calls."""

    def __init__(
        self,
        brokers: str | Sequence[str],
        *,
        curve: Curve | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = 2,
        backoff: float = 0.1,
        max_backoff: float = 2.0,
        attempt_timeout: float | None = None,
        heartbeat: float | None = 0.25,
        heartbeat_timeout: float = 1.0,
        context: zmq.Context[Any] | None = None,
    ) -> None:
        self._core = ClientCore(
            brokers,
            curve=curve,
            timeout=timeout,
            retries=retries,
            backoff=backoff,
            max_backoff=max_backoff,
            attempt_timeout=attempt_timeout,
            heartbeat=heartbeat,
            heartbeat_timeout=heartbeat_timeout,
            context=context,
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **options: Any) -> Self:
        """A client configured like the ``tally`` CLI: ``TALLY_BROKERS`` (comma-separated; default
        ``tcp://127.0.0.1:5555``), ``TALLY_TIMEOUT`` (``2.5s``), ``TALLY_CURVE_SECRET_KEY`` (a ``NAME.key`` file)
        and ``TALLY_CURVE_SERVER_KEY`` (the broker's key or ``.pub`` file). ``options`` override them."""
        return cls(**{**ClientCore.from_environment(environ), **options})

    @property
    def closed(self) -> bool:
        """Whether the client takes no more calls."""
        return self._core.closed

    @property
    def brokers(self) -> list[str]:
        """The broker endpoints, as given."""
        return list(self._core.brokers)

    def endpoints(self) -> list[EndpointState]:
        """What the client knows of each broker connection now (connected, refused, CURVE handshake refused)."""
        return self._core.endpoints()
