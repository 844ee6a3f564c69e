"""The client's bookkeeping of calls in flight, as a pure state machine: messages and time in, actions out.

The I/O thread (:mod:`tally._io`) owns a :class:`CallBook` and executes what it returns: :class:`Send` frames on the
socket, :class:`Finish` a call's future, :class:`Forget` frames still waiting for a connection. The book never
touches sockets, threads or clocks (``now`` is an argument), so retries, deadlines and reply matching are tested
without any (tests/test_callbook.py).

A call has one deadline. Each attempt waits for its share of the time left — the time left divided by the attempts
left plus one, so one lost attempt cannot eat the whole budget (as TallyClient does in Swift) — or the policy's
``attempt_timeout``. An attempt that times out, or that Tally answers ``overloaded`` or ``unavailable``, is retried
after a back-off (doubled each time, with up to 20% jitter, at least the ``retry_after_ms`` the broker asked for)
while retries are left and the back-off ends before the deadline; when none fits, the attempt in flight waits until
the deadline. Every attempt sends the same request: same ``id``, same ``deadline``, so a late answer to an earlier
attempt is as good as the answer to the current one.

The client has a socket per broker, and the book decides which broker each attempt goes to: of the brokers whose
connection is up, the one holding the fewest attempts (ties in turn). A broker whose host went silent answers
nothing, so what it holds piles up and it stops being chosen at once; when its connection is known to be lost
(``broker_down``), every attempt it held is sent again at once, unchanged, to a broker that is up, or as soon as one
is (``broker_up``). Such a move is not a retry: the attempt keeps its number and its timeout.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._envelope import MMI_PREFIX, Reply
from .errors import RETRYABLE_CODES, TIMEOUT, Attempt, DuplicateRequestIdError, UsageError

MINIMUM_ATTEMPT_TIMEOUT = 0.001


@dataclass(frozen=True)
class RetryPolicy:
    """How hard a call tries.

    Attributes:
        retries: attempts after the first (0: never retry).
        backoff: seconds before the first retry; doubled for each further one.
        max_backoff: the longest back-off, in seconds.
        attempt_timeout: the most one attempt waits, in seconds; ``None`` spreads the time left over the
            attempts left.
        jitter: a back-off is lengthened by up to this fraction at random, so that clients refused together do
            not come back together.
    """

    retries: int = 2
    backoff: float = 0.1
    max_backoff: float = 2.0
    attempt_timeout: float | None = None
    jitter: float = 0.2

    def __post_init__(self) -> None:
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise UsageError(f"retries must be an integer ≥ 0, not {self.retries!r}")
        for name in ("backoff", "max_backoff", "jitter"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
                raise UsageError(f"{name} must be a finite number ≥ 0, not {value!r}")
        if self.attempt_timeout is not None and not 0 < self.attempt_timeout < float("inf"):
            raise UsageError(f"attempt_timeout must be a positive number of seconds, not {self.attempt_timeout!r}")


@dataclass(eq=False)
class Call:
    """One call: its request, its deadline, and how its attempts went.

    Attributes:
        token: the client's handle for the call (unique while the client lives).
        request_id: the request's ``id``, by which its reply is found; ``None`` to match replies in order per
            service (envelopes sent without an id). MMI queries, whose replies are bare status codes, have none:
            each is answered on a socket of its own (``CallBook.received``'s ``token``).
        service: the MDP service.
        frames: the request as MDP frames, sent again unchanged by every attempt.
        started: when the call started (monotonic seconds).
        deadline: when it gives up (monotonic seconds).
        policy: its retries.
        method: the method, for errors and logs.
        payload: whatever the I/O shell keeps with the call (its future).
    """

    token: int
    request_id: str | None
    service: str
    frames: list[bytes]
    started: float
    deadline: float
    policy: RetryPolicy
    method: str | None = None
    payload: Any = None
    attempts: list[Attempt] = field(default_factory=list)
    attempt_number: int = 0
    attempt_deadline: float = 0.0
    resend_at: float | None = None
    sent: bool = False
    next_backoff: float = 0.0
    timer_generation: int = 0
    broker: int | None = None
    """The broker holding the current attempt, ``None`` while it waits for one (or for its back-off to end)."""

    @property
    def budget(self) -> float:
        """The call's whole time budget in seconds."""
        return self.deadline - self.started


@dataclass(frozen=True)
class Send:
    """Send ``frames`` for ``call`` to broker ``broker`` (its first attempt, a retry, or an attempt moved off a lost
    broker); report it with :meth:`CallBook.sent`."""

    call: Call
    frames: list[bytes]
    broker: int = 0


@dataclass(frozen=True)
class Forget:
    """Frames of ``call`` the shell still holds for an unconnected socket are stale: drop them."""

    call: Call


@dataclass(frozen=True)
class Finish:
    """``call`` is over: answered with ``reply``, or out of time (``reply`` is ``None``)."""

    call: Call
    reply: Reply | None


Action = Send | Forget | Finish


class CallBook:
    """Calls in flight, their timers and the matching of replies to them. Used by one thread only."""

    def __init__(self, rng: random.Random | None = None, brokers: int = 1) -> None:
        """A book for ``brokers`` brokers, numbered from 0; none is up until :meth:`broker_up` says so."""
        self._up = [False] * brokers
        self._held = [0] * brokers
        self._turn = 0
        self._unplaced: deque[Call] = deque()
        self._calls: dict[int, Call] = {}
        self._by_request_id: dict[str, Call] = {}
        self._unkeyed: dict[str, deque[Call]] = {}
        self._timers: list[tuple[float, int, int, int]] = []  # (when, sequence, token, generation)
        self._sequence = 0
        self._rng = rng or random.Random()

    def __len__(self) -> int:
        return len(self._calls)

    # Calls in ----------------------------------------------------------------------------------------------

    def start(self, call: Call, now: float) -> list[Action]:
        """Registers ``call`` and returns its first attempt (or its end, if its deadline has already passed).

        Raises:
            DuplicateRequestIdError: another call in flight has the same request id.
        """
        if call.request_id is not None and call.request_id in self._by_request_id:
            raise DuplicateRequestIdError(f"request id {call.request_id!r} is already in flight")
        self._calls[call.token] = call
        if call.request_id is not None:
            self._by_request_id[call.request_id] = call
        elif not call.service.startswith(MMI_PREFIX):  # an MMI query is answered on its own socket, by token
            self._unkeyed.setdefault(call.service, deque()).append(call)
        call.next_backoff = call.policy.backoff
        if now >= call.deadline:
            call.attempts.append(Attempt(1, TIMEOUT, 0.0, "the deadline had passed before the call started"))
            return self._finish(call, None)
        return self._attempt(call, now)

    def cancel(self, token: int) -> list[Action]:
        """Forgets a call whose caller no longer waits (its future was cancelled)."""
        call = self._calls.get(token)
        if call is None:
            return []
        self._remove(call)
        return [Forget(call)]

    def sent(self, token: int) -> None:
        """The shell handed the current attempt of call ``token`` to the socket."""
        call = self._calls.get(token)
        if call is not None:
            call.sent = True

    # Replies and time in ------------------------------------------------------------------------------------

    def received(self, reply: Reply, now: float, token: int | None = None) -> list[Action]:
        """A reply arrived: finishes its call, or schedules a retry for ``overloaded``/``unavailable``.

        ``token`` names the call when the reply came on a socket that carried that call alone (an MMI query);
        otherwise the reply is matched by its ``id``. A reply that matches no call in flight (late, after its call
        ended; or another client's id) is dropped.
        """
        call = self._calls.get(token) if token is not None else self._match(reply)
        if call is None:
            return []
        code = reply.error_code
        outcome = code or "ok"
        message = self._error_message(reply)
        if call.resend_at is not None and code in RETRYABLE_CODES:
            return []  # an earlier attempt's late refusal: the retry it would ask for is already scheduled
        if code in RETRYABLE_CODES:
            retry_after = self._retry_after(reply)
            delay = self._backoff(call, minimum=retry_after)
            if self._may_retry(call, now, delay):
                call.attempts.append(Attempt(call.attempt_number, outcome, now - call.started, message))
                self._schedule_resend(call, now + delay)
                return []
        call.attempts.append(Attempt(call.attempt_number, outcome, now - call.started, message))
        return self._finish(call, reply)

    def advance(self, now: float) -> list[Action]:
        """Fires the timers due at ``now``: retries whose back-off ended, attempts that timed out."""
        actions: list[Action] = []
        while self._timers and self._timers[0][0] <= now:
            _, _, token, generation = heapq.heappop(self._timers)
            call = self._calls.get(token)
            if call is None or generation != call.timer_generation:
                continue
            if call.resend_at is not None:
                # A loop that wakes late may find the back-off ended after the deadline: no attempt is made then.
                actions += self._attempt(call, now) if now < call.deadline else self._finish(call, None)
                continue
            delay = self._backoff(call, minimum=0.0)
            retry = self._may_retry(call, now, delay)
            if not retry and now < call.deadline:
                # No retry fits before the deadline: the attempt in flight may still be answered until then.
                self._set_timer(call, call.deadline)
                continue
            message = "no answer" if call.sent else "not sent: no broker connection was ready"
            call.attempts.append(Attempt(call.attempt_number, TIMEOUT, now - call.started, message))
            if retry:
                self._schedule_resend(call, now + delay)
            else:
                actions += self._finish(call, None)
        return actions

    def next_timer(self) -> float | None:
        """When :meth:`advance` next has something to do, or ``None`` when no call is in flight."""
        while self._timers:
            when, _, token, generation = self._timers[0]
            call = self._calls.get(token)
            if call is not None and generation == call.timer_generation:
                return when
            heapq.heappop(self._timers)
        return None

    # Brokers in ------------------------------------------------------------------------------------------------

    def broker_up(self, broker: int) -> list[Action]:
        """Broker ``broker``'s connection is up: the attempts that waited for a broker go out, oldest first."""
        self._up[broker] = True
        actions: list[Action] = []
        while self._unplaced:
            actions += self._place(self._unplaced.popleft())
        return actions

    def broker_down(self, broker: int) -> list[Action]:
        """Broker ``broker``'s connection is lost, and the attempts it held with it: they are sent again, unchanged,
        to the brokers still up, oldest first, or wait for one to come up."""
        self._up[broker] = False
        actions: list[Action] = []
        for call in sorted((c for c in self._calls.values() if c.broker == broker), key=lambda c: c.token):
            self._release(call)
            call.sent = False
            actions += self._place(call)
        return actions

    def held(self, broker: int) -> int:
        """How many attempts in flight broker ``broker`` holds."""
        return self._held[broker]

    def drain(self) -> list[Call]:
        """Every call in flight, forgotten: the client is closing."""
        calls = list(self._calls.values())
        for call in calls:
            self._remove(call)
        return calls

    # Inside -------------------------------------------------------------------------------------------------

    def _attempt(self, call: Call, now: float) -> list[Action]:
        call.attempt_number += 1
        call.resend_at = None
        call.sent = False
        attempts_left = call.policy.retries + 1 - call.attempt_number
        remaining = call.deadline - now
        if call.policy.attempt_timeout is not None:
            timeout = call.policy.attempt_timeout
        else:
            timeout = remaining / (attempts_left + 1) if attempts_left > 0 else remaining
        timeout = max(min(timeout, remaining), MINIMUM_ATTEMPT_TIMEOUT)
        call.attempt_deadline = now + timeout
        self._set_timer(call, call.attempt_deadline)
        self._release(call)
        return self._place(call)

    def _place(self, call: Call) -> list[Action]:
        """Hands the call's attempt to the connected broker holding the fewest, or keeps it until one is up."""
        best: int | None = None
        for offset in range(len(self._up)):
            broker = (self._turn + offset) % len(self._up)
            if self._up[broker] and (best is None or self._held[broker] < self._held[best]):
                best = broker
        if best is None:
            self._unplaced.append(call)
            return []
        self._turn = (best + 1) % len(self._up)
        call.broker = best
        self._held[best] += 1
        return [Send(call, call.frames, best)]

    def _release(self, call: Call) -> None:
        """The call's attempt is no longer held by a broker (answered, over, moved) nor waiting for one."""
        if call.broker is not None:
            self._held[call.broker] -= 1
            call.broker = None
        elif call in self._unplaced:
            self._unplaced.remove(call)

    def _may_retry(self, call: Call, now: float, delay: float) -> bool:
        return call.attempt_number <= call.policy.retries and now + delay < call.deadline

    def _backoff(self, call: Call, minimum: float) -> float:
        jittered = call.next_backoff * (1 + self._rng.uniform(0, call.policy.jitter))
        return max(min(jittered, call.policy.max_backoff), minimum)

    def _schedule_resend(self, call: Call, when: float) -> None:
        self._release(call)
        call.resend_at = when
        call.next_backoff = min(call.next_backoff * 2, call.policy.max_backoff)
        self._set_timer(call, when)

    def _set_timer(self, call: Call, when: float) -> None:
        call.timer_generation += 1
        self._sequence += 1
        heapq.heappush(self._timers, (when, self._sequence, call.token, call.timer_generation))

    def _finish(self, call: Call, reply: Reply | None) -> list[Action]:
        self._remove(call)
        return [Forget(call), Finish(call, reply)]

    def _remove(self, call: Call) -> None:
        self._release(call)
        self._calls.pop(call.token, None)
        call.timer_generation += 1  # its timers no longer fire
        if call.request_id is not None:
            if self._by_request_id.get(call.request_id) is call:
                del self._by_request_id[call.request_id]
        else:
            waiting = self._unkeyed.get(call.service)
            if waiting is not None:
                try:
                    waiting.remove(call)
                except ValueError:
                    pass
                if not waiting:
                    del self._unkeyed[call.service]

    def _match(self, reply: Reply) -> Call | None:
        """The call a reply on the shared socket answers: by its ``id``; replies whose id is null, in order. An MMI
        reply there answers nothing (queries are answered on their own sockets)."""
        if reply.service.startswith(MMI_PREFIX):
            return None
        request_id = reply.request_id
        if request_id is not None:
            return self._by_request_id.get(request_id)
        if reply.document is None or reply.document.get("id", None) is not None:
            return None  # not a v1 response, or an id of another type: nobody's
        waiting = self._unkeyed.get(reply.service)
        return waiting[0] if waiting else None

    @staticmethod
    def _retry_after(reply: Reply) -> float:
        error = (reply.document or {}).get("error")
        details = error.get("details") if isinstance(error, Mapping) else None
        value = details.get("retry_after_ms") if isinstance(details, Mapping) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return value / 1000
        return 0.0

    @staticmethod
    def _error_message(reply: Reply) -> str:
        error = (reply.document or {}).get("error")
        message = error.get("message") if isinstance(error, Mapping) else None
        return message if isinstance(message, str) else ""
