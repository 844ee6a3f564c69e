"""The client's I/O thread: the only thread that touches its ZeroMQ sockets.

ZeroMQ sockets are not thread-safe, so one background thread owns a DEALER per broker (:class:`BrokerLink`), their
monitor sockets and the :class:`~tally._callbook.CallBook`, which decides which broker each attempt goes to and
moves the attempts of a broker whose connection is lost. Callers on any thread hand it calls through an
:class:`Inbox` (a locked queue plus a pipe the thread's poller watches, so a new call wakes it at once) and wait
on a :class:`CallFuture` the thread resolves. The thread blocks only in ``zmq_poll``, for at most the time until
the next timer of the book, and never in a send: a message a socket cannot take yet waits in that broker's backlog
until the socket is writable, the attempt moves, or it times out.

Every broker connection carries ZMTP heartbeats: a broker whose host goes silent (power, link, firewall: no TCP
reset) answers no PING, libzmq drops the connection after ``heartbeat_timeout``, and the monitor says so.

An MMI query is the exception to the one DEALER: its reply carries only a status code, nothing that says which query
it answers, so each attempt of a query goes on a DEALER of its own, closed once the query is answered or the attempt
is given up. Two queries answered out of order, or by two brokers, cannot swap answers, and the late answer of an
attempt that timed out has nowhere to go.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import zmq
from zmq.utils.monitor import recv_monitor_message

from ._callbook import Call, CallBook, Finish, Forget, Send
from ._endpoints import EndpointStates
from ._envelope import MMI_PREFIX, Reply, decode_reply
from .curve import Curve
from .errors import ClientClosedError, DuplicateRequestIdError, TallyError, TallyTimeoutError, UsageError

logger = logging.getLogger("tally.client")

Interpret = Callable[[Reply, Call], Any]
"""Turns the reply that finished a call into the value its future holds (or raises TallyError)."""

RECEIVE_BATCH = 1000
"""Replies read per turn of the loop before timers and new calls get their turn."""


@dataclass(frozen=True)
class SocketSettings:
    """How the DEALER is set up. Durations in seconds."""

    heartbeat: float | None = 0.25
    """ZMTP heartbeat (PING) interval on each broker connection; ``None`` for none."""
    heartbeat_timeout: float = 1.0
    """How long a connection waits for anything after a PING, and a connect for an answer, before it is dropped."""
    max_message_bytes: int = 16 << 20
    high_water_mark: int = 10_000


@dataclass(frozen=True)
class StartCall:
    call: Call
    future: Future[Any]
    interpret: Interpret


@dataclass(frozen=True)
class CancelCall:
    token: int


class StopLoop:
    pass


class CallFuture(Future[Any]):
    """A call's future, which knows the I/O loop that will end it: a caller waiting on it can tell a call still in
    hand from one whose thread is gone (the client closed, or this process is a fork's child)."""

    def __init__(self, io: IOLoop) -> None:
        super().__init__()
        self.io = io


Command = StartCall | CancelCall | StopLoop


class Inbox:
    """Commands from any thread to the I/O thread: a locked queue and a pipe that wakes the poller."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: deque[Command] = deque()
        self._signalled = False
        self._closed = False
        self.read_fd, self._write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        os.set_blocking(self._write_fd, False)

    def post(self, command: Command) -> bool:
        """Queues ``command``; ``False`` once the inbox is closed (the thread will never read it)."""
        if self._closed:  # checked before the lock too: a fork's child must not wait for a lock held at the fork
            return False
        with self._lock:
            if self._closed:
                return False
            self._items.append(command)
            if not self._signalled:
                self._signalled = True
                try:
                    os.write(self._write_fd, b"\x01")
                except BlockingIOError:  # the pipe is full: the thread is awake anyway
                    pass
        return True

    def take_all(self) -> list[Command]:
        """Everything queued, oldest first; clears the wake-up."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            self._signalled = False
            try:
                while os.read(self.read_fd, 4096):
                    pass
            except BlockingIOError:
                pass
            return items

    def close(self) -> list[Command]:
        """Refuses further commands; returns those not taken yet."""
        with self._lock:
            self._closed = True
            items = list(self._items)
            self._items.clear()
        return items

    def abandon(self) -> None:
        """In a fork's child: refuses every post from now on and closes this process's copy of the pipe, without
        the lock (a thread of the parent may have held it at the fork, and no thread here would release it)."""
        self._closed = True
        self.release()

    def release(self) -> None:
        for fd in (self.read_fd, self._write_fd):
            try:
                os.close(fd)
            except OSError:
                pass


def resolve(future: Future[Any], value: Any = None, error: BaseException | None = None) -> None:
    """Completes ``future`` unless its caller cancelled it."""
    if not future.set_running_or_notify_cancel():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class BrokerLink:
    """One broker as the I/O thread sees it: the DEALER connected to it alone, that socket's monitor, and the
    messages of attempts it holds that the socket has not taken yet (oldest first)."""

    def __init__(self, endpoint: str, socket: zmq.Socket[Any]) -> None:
        self.endpoint = endpoint
        self.socket = socket
        self.monitor: zmq.Socket[Any] = socket.get_monitor_socket()
        self.backlog: OrderedDict[int, list[bytes]] = OrderedDict()

    def close(self) -> None:
        try:
            self.socket.disable_monitor()
        except zmq.ZMQError:
            pass
        self.monitor.close(linger=0)
        self.socket.close(linger=0)


class IOLoop:
    """The sockets (one per broker), their monitors, the call book and the thread that runs them.

    The sockets are made and connected in the constructor, on the caller's thread, so that a bad endpoint or key
    fails there with a clear error; from :meth:`start` on only the I/O thread uses them.
    """

    def __init__(
        self,
        context: zmq.Context[Any],
        brokers: list[str],
        curve: Curve | None,
        settings: SocketSettings,
        owns_context: bool,
    ) -> None:
        self.context = context
        self.owns_context = owns_context
        self.pid = os.getpid()
        self.inbox = Inbox()
        self.endpoints = EndpointStates(brokers)
        self.book = CallBook(brokers=len(brokers))
        self._futures: dict[int, tuple[Future[Any], Interpret]] = {}
        self._not_executed: list[Command] = []
        # MMI queries in flight, each on its own DEALER (by call token), with the request it has not taken yet.
        self._queries: dict[int, zmq.Socket[Any]] = {}
        self._query_backlog: dict[int, list[bytes]] = {}
        self._curve = curve
        self._settings = settings
        self._poller = zmq.Poller()
        self.links: list[BrokerLink] = []
        try:
            for broker in brokers:
                socket = self._dealer()
                try:
                    link = BrokerLink(broker, socket)
                except BaseException:
                    socket.close(linger=0)
                    raise
                self.links.append(link)
                self._connect(socket, broker)
        except BaseException:
            for link in self.links:
                link.close()
            self.inbox.release()
            raise
        self.thread = threading.Thread(target=self._run, name="tally-client-io", daemon=True)

    def start(self) -> None:
        self.thread.start()

    @property
    def alive(self) -> bool:
        """Whether the I/O thread runs, in this process (a fork's child has none: threads do not survive a fork)."""
        return self.pid == os.getpid() and self.thread.is_alive()

    def _dealer(self) -> zmq.Socket[Any]:
        """A DEALER as every request of the client needs it (limits, heartbeats, CURVE), not connected yet."""
        socket: zmq.Socket[Any] = self.context.socket(zmq.DEALER)
        try:
            socket.linger = 0
            socket.immediate = 1
            socket.maxmsgsize = self._settings.max_message_bytes
            socket.sndhwm = self._settings.high_water_mark
            socket.rcvhwm = self._settings.high_water_mark
            if self._settings.heartbeat is not None:
                socket.heartbeat_ivl = round(self._settings.heartbeat * 1000)
                socket.heartbeat_timeout = round(self._settings.heartbeat_timeout * 1000)
                socket.connect_timeout = round(self._settings.heartbeat_timeout * 1000)
            if self._curve is not None:
                self._curve.apply(socket)
        except BaseException:
            socket.close(linger=0)
            raise
        return socket

    @staticmethod
    def _connect(socket: zmq.Socket[Any], broker: str) -> None:
        try:
            socket.connect(broker)
        except zmq.ZMQError as error:
            raise UsageError(f"cannot connect to broker {broker!r}: {error}") from error

    def submit(self, call: Call, interpret: Interpret) -> CallFuture:
        """Hands ``call`` to the I/O thread; the future ends with its value, a TallyError or ClientClosedError."""
        future = CallFuture(self)
        if not self.inbox.post(StartCall(call, future, interpret)):
            raise ClientClosedError("the Tally client is closed")
        token = call.token

        def forget_if_cancelled(done: Future[Any]) -> None:
            if done.cancelled():
                self.inbox.post(CancelCall(token))

        future.add_done_callback(forget_if_cancelled)
        return future

    def stop(self, timeout: float | None = None) -> None:
        """Ends the thread: calls still waiting fail with ClientClosedError. Safe to call twice, from any thread."""
        if self.pid != os.getpid():
            return  # a fork's copy: the sockets, the thread and the pipe are the parent's
        self.inbox.post(StopLoop())
        if self.thread.is_alive() and threading.current_thread() is not self.thread:
            self.thread.join(timeout)

    # The thread ---------------------------------------------------------------------------------------------

    def _run(self) -> None:
        reason = "the Tally client is closed"
        try:
            self._loop()
        except BaseException as error:  # a bug must not leave callers waiting forever
            logger.exception("the Tally client's I/O thread failed")
            reason = f"the Tally client's I/O thread failed: {error!r}"
        finally:
            self._shut_down(reason)

    def _loop(self) -> None:
        poller = self._poller
        poller.register(self.inbox.read_fd, zmq.POLLIN)
        for link in self.links:
            poller.register(link.socket, zmq.POLLIN)
            poller.register(link.monitor, zmq.POLLIN)
        watching_writable = [False] * len(self.links)
        while True:
            for broker, link in enumerate(self.links):
                # A socket is watched for writability only while messages wait for it.
                if bool(link.backlog) != watching_writable[broker]:
                    watching_writable[broker] = bool(link.backlog)
                    poller.modify(link.socket, zmq.POLLIN | (zmq.POLLOUT if link.backlog else 0))
            next_timer = self.book.next_timer()
            wait_ms = None if next_timer is None else max(0, int((next_timer - time.monotonic()) * 1000) + 1)
            ready = dict(poller.poll(wait_ms))
            if self.inbox.read_fd in ready and not self._execute_commands(self.inbox.take_all()):
                return  # told to stop
            for broker, link in enumerate(self.links):
                # Replies first: those that arrived before a connection was lost answer their calls.
                events = ready.get(link.socket, 0)
                if events & zmq.POLLIN:
                    self._receive(link)
                if link.backlog and events & zmq.POLLOUT:
                    self._flush_backlog(broker)
                if link.monitor in ready:
                    self._read_monitor(broker)
            for token, query in [(token, query) for token, query in self._queries.items() if query in ready]:
                self._serve_query(token, query, ready[query])
            self._execute(self.book.advance(time.monotonic()))

    def _execute_commands(self, commands: list[Command]) -> bool:
        """Runs commands from callers; ``False`` when told to stop."""
        for index, command in enumerate(commands):
            if isinstance(command, StopLoop):
                self._not_executed = commands[index + 1 :]  # ended by _shut_down like the calls in flight
                return False
            if isinstance(command, CancelCall):
                self._futures.pop(command.token, None)
                self._execute(self.book.cancel(command.token))
                continue
            if command.future.cancelled():
                continue
            self._futures[command.call.token] = (command.future, command.interpret)
            try:
                actions = self.book.start(command.call, time.monotonic())
            except DuplicateRequestIdError as error:
                self._futures.pop(command.call.token, None)
                resolve(command.future, error=error)
                continue
            self._execute(actions)
        return True

    def _execute(self, actions: list[Send | Forget | Finish], moving: bool = False) -> None:
        for action in actions:
            if isinstance(action, Send):
                self._send(action.call, action.frames, action.broker, moving)
            elif isinstance(action, Forget):
                for link in self.links:
                    link.backlog.pop(action.call.token, None)
                self._close_query(action.call.token)
            else:
                self._finish(action.call, action.reply)

    def _send(self, call: Call, frames: list[bytes], broker: int, moving: bool) -> None:
        if call.attempts and not moving:
            last = call.attempts[-1]
            logger.debug(
                "retrying %s (id %s), attempt %d, after %s",
                call.method or call.service,
                call.request_id,
                call.attempt_number,
                last,
                extra={"tally_attempt": call.attempt_number, "tally_after": last.outcome},
            )
        if call.service.startswith(MMI_PREFIX):
            self._send_query(call, frames, self.links[broker].endpoint)
            return
        link = self.links[broker]
        if not link.backlog:
            try:
                link.socket.send_multipart(frames, flags=zmq.NOBLOCK, copy=False)
                self.book.sent(call.token)
                return
            except zmq.Again:
                pass  # its queue is full, or its connection just went: wait for the socket (or the move)
        link.backlog[call.token] = frames

    def _send_query(self, call: Call, frames: list[bytes], endpoint: str) -> None:
        """Sends an attempt of an MMI query on a DEALER of its own, connected to its broker alone (the previous
        attempt's is closed)."""
        self._close_query(call.token)
        socket = self._dealer()
        try:
            self._connect(socket, endpoint)
        except ValueError:
            socket.close(linger=0)
            raise
        self._queries[call.token] = socket
        try:
            socket.send_multipart(frames, flags=zmq.NOBLOCK, copy=False)
            self.book.sent(call.token)
            self._poller.register(socket, zmq.POLLIN)
        except zmq.Again:
            self._query_backlog[call.token] = frames  # no broker connection ready yet
            self._poller.register(socket, zmq.POLLIN | zmq.POLLOUT)

    def _serve_query(self, token: int, socket: zmq.Socket[Any], events: int) -> None:
        """Sends the query that waited for a broker, or hands the answer on its socket to its call alone."""
        if self._queries.get(token) is not socket:
            return  # closed meanwhile
        frames = self._query_backlog.get(token)
        if frames is not None and events & zmq.POLLOUT:
            try:
                socket.send_multipart(frames, flags=zmq.NOBLOCK, copy=False)
            except zmq.Again:
                pass
            else:
                del self._query_backlog[token]
                self.book.sent(token)
                self._poller.modify(socket, zmq.POLLIN)
        if not events & zmq.POLLIN:
            return
        try:
            reply = decode_reply(socket.recv_multipart(flags=zmq.NOBLOCK))
        except zmq.Again:
            return
        if reply is None or not reply.service.startswith(MMI_PREFIX):
            logger.debug("a message that is not an MMI reply was dropped")
            return
        self._execute(self.book.received(reply, time.monotonic(), token=token))

    def _close_query(self, token: int) -> None:
        socket = self._queries.pop(token, None)
        self._query_backlog.pop(token, None)
        if socket is not None:
            self._poller.unregister(socket)
            socket.close(linger=0)

    def _flush_backlog(self, broker: int) -> None:
        link = self.links[broker]
        while link.backlog:
            token, frames = next(iter(link.backlog.items()))
            try:
                link.socket.send_multipart(frames, flags=zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return
            del link.backlog[token]
            self.book.sent(token)

    def _receive(self, link: BrokerLink) -> None:
        for _ in range(RECEIVE_BATCH):
            try:
                frames = link.socket.recv_multipart(flags=zmq.NOBLOCK)
            except zmq.Again:
                return
            reply = decode_reply(frames)
            if reply is None:
                logger.debug("a message that is not an MDP/0.1 client reply was dropped (%d frames)", len(frames))
                continue
            actions = self.book.received(reply, time.monotonic())
            if not actions:
                logger.debug("reply %r on %s matched no waiting call (late, or retried)", reply.request_id,
                             reply.service)
            self._execute(actions)

    def _read_monitor(self, broker: int) -> None:
        """A broker that comes up takes the attempts that waited for one; one whose connection is lost takes none
        of its attempts with it: the book sends them again, unchanged, wherever it puts them."""
        link = self.links[broker]
        while True:
            try:
                event = recv_monitor_message(link.monitor, flags=zmq.NOBLOCK)
            except zmq.Again:
                return
            change = self.endpoints.observe(broker, int(event["event"]), int(event.get("value") or 0))
            if change == "up":
                logger.debug("connected to broker %s", link.endpoint)
                self._execute(self.book.broker_up(broker))
            elif change == "down":
                self._receive(link)  # replies that arrived before the connection went
                link.backlog.clear()
                actions = self.book.broker_down(broker)
                logger.info(
                    "the connection to broker %s was lost; %d attempt(s) it held sent again",
                    link.endpoint,
                    len(actions),
                    extra={"tally_broker": link.endpoint, "tally_moved": len(actions)},
                )
                self._execute(actions, moving=True)

    def _finish(self, call: Call, reply: Reply | None) -> None:
        entry = self._futures.pop(call.token, None)
        if entry is None:
            return
        future, interpret = entry
        if reply is None:
            error: TallyError = TallyTimeoutError(
                call.budget,
                self.endpoints.snapshot(),
                method=call.method,
                request_id=call.request_id,
                attempts=call.attempts,
            )
            resolve(future, error=error)
            return
        if len(call.attempts) > 1:
            logger.debug("%s %s answered after %d attempts: %s", call.method, call.request_id, len(call.attempts),
                         "; ".join(str(attempt) for attempt in call.attempts))
        try:
            value = interpret(reply, call)
        except TallyError as failure:
            resolve(future, error=failure)
        else:
            resolve(future, value)

    def _shut_down(self, reason: str) -> None:
        leftovers = self._not_executed + self.inbox.close()
        for call in self.book.drain():
            entry = self._futures.pop(call.token, None)
            if entry is not None:
                resolve(entry[0], error=ClientClosedError(reason))
        for command in leftovers:
            if isinstance(command, StartCall):
                resolve(command.future, error=ClientClosedError(reason))
        for token in list(self._queries):
            self._close_query(token)
        for link in self.links:
            link.close()
        self.inbox.release()
        if self.owns_context:
            self.context.term()

