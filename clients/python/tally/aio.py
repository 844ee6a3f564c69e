"""The asyncio Tally client: the same I/O thread and retries as :class:`tally.TallyClient`, awaited.

Calls never block the event loop: the I/O thread resolves a future that the loop awaits
(:func:`asyncio.wrap_future`). Cancelling an awaiting task forgets its call (a late reply is dropped). A call never
waits on an I/O thread that is gone (this process is a fork's child, or the thread failed): it fails with
:class:`tally.ClientClosedError` within a second.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

from ._base import ClientBase
from ._core import typed_params, typed_result
from ._io import CallFuture
from .client import LIVENESS_CHECK_SECONDS
from .errors import ClientClosedError
from .typed_calls import AsyncTypedCalls

ResultT = TypeVar("ResultT")


async def _outcome(future: CallFuture) -> Any:
    """The call's value, awaited; checks once a second that its I/O thread is still there to end it."""
    waiting = asyncio.wrap_future(future)
    try:
        while True:
            done, _ = await asyncio.wait({waiting}, timeout=LIVENESS_CHECK_SECONDS)
            if done:
                return waiting.result()
            if not future.io.alive and not future.done():
                waiting.cancel()
                raise ClientClosedError("the Tally client's I/O thread is gone")
    except asyncio.CancelledError:
        waiting.cancel()  # and with it the call: its late reply is dropped
        raise


class AsyncTallyClient(ClientBase, AsyncTypedCalls):
    """:class:`tally.TallyClient` for asyncio: the same arguments, the same behaviour, awaitable calls.

    ::

        async with AsyncTallyClient(["tcp://127.0.0.1:5555"]) as tally:
            months, summary = await asyncio.gather(
                tally.history_months(months_params), tally.streak_summary(streak_params))

    One client serves every task of a loop (and of several loops); create it anywhere, close it with
    ``await client.aclose()`` or ``async with``.
    """

    async def aclose(self) -> None:
        """Stops the I/O thread (joined off the event loop); calls still waiting fail with ClientClosedError."""
        await asyncio.to_thread(self._core.close)

    async def __aenter__(self) -> AsyncTallyClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.aclose()

    async def call(
        self,
        method: str,
        params: Any = None,
        *,
        service: str | None = None,
        timeout: float | None = None,
        deadline: datetime | None = None,
        retries: int | None = None,
        traceparent: str | None = None,
    ) -> Any:
        """Calls any method; arguments, result and errors as :meth:`tally.TallyClient.call`."""
        future = self._core.start_method(
            method,
            params,
            service=service,
            timeout=timeout,
            deadline=deadline,
            retries=retries,
            traceparent=traceparent,
        )
        return await _outcome(future)

    async def send_envelope(
        self,
        envelope: Mapping[str, Any],
        *,
        service: str,
        timeout: float | None = None,
        retries: int | None = None,
    ) -> dict[str, Any]:
        """Sends a whole envelope and returns the whole response, as :meth:`tally.TallyClient.send_envelope`."""
        future = self._core.start_envelope(envelope, service=service, timeout=timeout, retries=retries)
        response: dict[str, Any] = await _outcome(future)
        return response

    async def service_available(self, service: str, *, timeout: float | None = None) -> bool:
        """Asks the broker (MMI) whether at least one live worker serves ``service``."""
        status: str = await _outcome(self._core.start_mmi(service, timeout=timeout))
        return status == "200"

    async def _typed_call(
        self,
        method: str,
        params: Any,
        result_type: type[ResultT],
        *,
        service: str,
        timeout: float | None,
        deadline: datetime | None,
        retries: int | None,
        traceparent: str | None = None,
    ) -> ResultT:
        result = await self.call(
            method,
            typed_params(method, params),
            service=service,
            timeout=timeout,
            deadline=deadline,
            retries=retries,
            traceparent=traceparent,
        )
        return typed_result(result_type, result, method)
