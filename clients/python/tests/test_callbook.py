"""The call bookkeeping without sockets or clocks: attempt timeouts, retries and back-off, deadlines, matching."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tally._callbook import Call, CallBook, DuplicateRequestIdError, Finish, Forget, RetryPolicy, Send
from tally._envelope import Reply

FRAMES = [b"", b"MDPC01", b"tally.history", b"{}"]
NO_JITTER = RetryPolicy(retries=2, backoff=0.1, max_backoff=2.0, jitter=0.0)


def make_call(token: int = 1, request_id: str | None = "r-1", *, budget: float = 3.0, policy: RetryPolicy = NO_JITTER,
              service: str = "tally.history", now: float = 0.0) -> Call:
    return Call(token, request_id, service, FRAMES, started=now, deadline=now + budget, policy=policy, method="m.x")


def response(request_id: str | None, *, code: str | None = None, retry_after_ms: int | None = None,
             service: str = "tally.history") -> Reply:
    document: dict[str, Any] = {"version": 1, "id": request_id}
    if code is None:
        document["result"] = {"answered": request_id}
    else:
        details = {} if retry_after_ms is None else {"retry_after_ms": retry_after_ms}
        document["error"] = {"code": code, "message": f"{code} says the test", "details": details}
    return Reply(service, json.dumps(document).encode(), document)


def connected_book(rng: random.Random | None = None) -> CallBook:
    """A book of one broker, connected."""
    book = CallBook(rng)
    book.broker_up(0)
    return book


def finished(actions: list[Any]) -> list[Finish]:
    return [action for action in actions if isinstance(action, Finish)]


def sends(actions: list[Any]) -> list[Send]:
    return [action for action in actions if isinstance(action, Send)]


def test_the_first_attempt_waits_a_third_of_the_budget_with_two_retries_and_retries_resend_the_same_frames() -> None:
    book = connected_book(random.Random(1))
    call = make_call(budget=3.0)
    assert sends(book.start(call, 0.0)) == [Send(call, FRAMES)]
    assert book.next_timer() == pytest.approx(1.0)  # 3 s over 3 attempts
    assert book.advance(0.99) == []
    assert book.advance(1.0) == []  # timed out: the retry waits for its back-off
    assert book.next_timer() == pytest.approx(1.1)
    assert sends(book.advance(1.1)) == [Send(call, FRAMES)]
    # 1.9 s left over 2 attempts: 0.95 s
    assert book.next_timer() == pytest.approx(2.05)
    book.advance(2.05)
    assert sends(book.advance(2.25)) == [Send(call, FRAMES)]  # back-off doubled: 0.2 s
    assert book.next_timer() == pytest.approx(3.0)  # the last attempt has everything left
    [end] = finished(book.advance(3.0))
    assert end.reply is None
    assert [attempt.outcome for attempt in call.attempts] == ["timeout"] * 3
    assert [attempt.number for attempt in call.attempts] == [1, 2, 3]
    assert call.attempts[0].message == "not sent: no broker connection was ready"
    assert len(book) == 0 and book.next_timer() is None


def test_an_attempt_the_socket_took_times_out_as_no_answer() -> None:
    book = connected_book()
    call = make_call(policy=RetryPolicy(retries=0), budget=1.0)
    book.start(call, 0.0)
    book.sent(call.token)
    [end] = finished(book.advance(1.0))
    assert end.reply is None and call.attempts[0].message == "no answer"


def test_overloaded_is_retried_after_the_retry_after_the_broker_asked_for_then_the_answer_finishes_the_call() -> None:
    book = connected_book()
    call = make_call(budget=5.0)
    book.start(call, 0.0)
    assert book.received(response("r-1", code="overloaded", retry_after_ms=400), 0.01) == []
    resend_at = book.next_timer()
    assert resend_at == pytest.approx(0.41)  # 400 ms asked for, more than the 100 ms back-off
    assert book.advance(0.4) == []
    assert sends(book.advance(resend_at or 0.0)) == [Send(call, FRAMES)]
    [end] = finished(book.received(response("r-1"), 0.5))
    assert end.reply is not None and end.reply.document["result"] == {"answered": "r-1"}  # type: ignore[index]
    assert [(attempt.number, attempt.outcome) for attempt in call.attempts] == [(1, "overloaded"), (2, "ok")]
    assert call.attempts[0].message == "overloaded says the test"


def test_unavailable_is_retried_and_the_last_refusal_is_the_answer_once_retries_are_spent() -> None:
    book = connected_book()
    call = make_call(budget=10.0)
    book.start(call, 0.0)
    now = 0.0
    for _ in range(2):
        assert book.received(response("r-1", code="unavailable"), now) == []
        now = book.next_timer() or 0.0
        assert sends(book.advance(now))
    [end] = finished(book.received(response("r-1", code="unavailable"), now))
    assert end.reply is not None and end.reply.error_code == "unavailable"
    assert [attempt.outcome for attempt in call.attempts] == ["unavailable"] * 3


@pytest.mark.parametrize("code", ["invalid_params", "internal", "deadline_exceeded", "a_code_from_the_future"])
def test_other_errors_are_answers_not_retried(code: str) -> None:
    book = connected_book()
    call = make_call()
    book.start(call, 0.0)
    [end] = finished(book.received(response("r-1", code=code), 0.1))
    assert end.reply is not None and end.reply.error_code == code and len(call.attempts) == 1


def test_with_no_retries_overloaded_is_the_answer_at_once() -> None:
    book = connected_book()
    call = make_call(policy=RetryPolicy(retries=0))
    book.start(call, 0.0)
    [end] = finished(book.received(response("r-1", code="overloaded"), 0.1))
    assert end.reply is not None and end.reply.error_code == "overloaded"


def test_a_retry_whose_back_off_would_end_after_the_deadline_is_not_made() -> None:
    book = connected_book()
    call = make_call(budget=1.0)
    book.start(call, 0.0)
    [end] = finished(book.received(response("r-1", code="overloaded", retry_after_ms=1000), 0.2))
    assert end.reply is not None and end.reply.error_code == "overloaded"


def test_when_no_retry_fits_the_attempt_in_flight_waits_until_the_deadline_and_may_still_be_answered() -> None:
    book = connected_book()
    call = make_call(budget=1.0, policy=RetryPolicy(retries=1, backoff=0.9, jitter=0.0))
    book.start(call, 0.0)
    assert book.next_timer() == pytest.approx(0.5)
    assert book.advance(0.5) == []  # 0.5 + 0.9 is past the deadline: no retry, but no giving up yet
    assert book.next_timer() == pytest.approx(1.0)
    [end] = finished(book.received(response("r-1"), 0.8))
    assert end.reply is not None and [attempt.outcome for attempt in call.attempts] == ["ok"]


def test_a_late_answer_to_an_earlier_attempt_ends_the_call_during_its_back_off() -> None:
    book = connected_book()
    call = make_call(budget=3.0)
    book.start(call, 0.0)
    book.advance(1.0)  # attempt 1 timed out; attempt 2 due at 1.1
    [end] = finished(book.received(response("r-1"), 1.05))
    assert end.reply is not None
    assert book.advance(1.1) == [] and len(book) == 0


def test_a_late_refusal_during_a_back_off_does_not_schedule_a_second_retry() -> None:
    book = connected_book()
    call = make_call(budget=10.0)
    book.start(call, 0.0)
    book.received(response("r-1", code="overloaded"), 0.1)
    assert book.received(response("r-1", code="overloaded"), 0.15) == []
    assert len(call.attempts) == 1


def test_replies_find_their_calls_by_id_in_any_order_and_strangers_are_dropped() -> None:
    book = connected_book()
    calls = [make_call(token, f"r-{token}") for token in range(1, 6)]
    for call in calls:
        book.start(call, 0.0)
    assert book.received(response("someone-else"), 0.1) == []
    for call in reversed(calls):
        [end] = finished(book.received(response(call.request_id), 0.2))
        assert end.call is call
    assert book.received(response("r-3"), 0.3) == []  # a second answer to a finished call
    assert len(book) == 0


def test_replies_with_a_null_id_are_matched_in_order_per_service() -> None:
    book = connected_book()
    first, second = make_call(1, None), make_call(2, None)
    for call in (first, second):
        book.start(call, 0.0)
    [end] = finished(book.received(response(None, code="invalid_request"), 0.1))
    assert end.call is first
    assert book.received(Reply("tally.history", b"not json", None), 0.1) == []  # nobody's
    [end] = finished(book.received(response(None, code="invalid_request"), 0.2))
    assert end.call is second


def test_an_mmi_query_is_answered_by_its_token_only() -> None:
    book = connected_book()
    first, second = make_call(1, None, service="mmi.service"), make_call(2, None, service="mmi.service")
    for call in (first, second):
        book.start(call, 0.0)
    assert book.received(Reply("mmi.service", b"200", None), 0.1) == [], "not matched in order"
    [end] = finished(book.received(Reply("mmi.service", b"404", None), 0.1, token=2))
    assert end.call is second
    assert book.received(Reply("mmi.service", b"200", None), 0.2, token=2) == [], "its call has ended"
    [end] = finished(book.received(Reply("mmi.service", b"200", None), 0.2, token=1))
    assert end.call is first


def test_an_id_already_in_flight_is_refused() -> None:
    book = connected_book()
    book.start(make_call(1, "same"), 0.0)
    with pytest.raises(DuplicateRequestIdError, match="'same' is already in flight"):
        book.start(make_call(2, "same"), 0.0)


def test_a_cancelled_call_is_forgotten_and_its_reply_dropped() -> None:
    book = connected_book()
    call = make_call()
    book.start(call, 0.0)
    assert book.cancel(call.token) == [Forget(call)]
    assert book.received(response("r-1"), 0.1) == [] and book.advance(10.0) == []


def test_a_call_whose_deadline_has_passed_ends_without_being_sent() -> None:
    book = connected_book()
    call = make_call(budget=0.0)
    actions = book.start(call, 0.0)
    assert not sends(actions)
    [end] = finished(actions)
    assert end.reply is None and "deadline had passed" in call.attempts[0].message


def test_an_attempt_timeout_caps_each_attempt() -> None:
    book = connected_book()
    book.start(make_call(budget=10.0, policy=RetryPolicy(retries=2, attempt_timeout=0.25)), 0.0)
    assert book.next_timer() == pytest.approx(0.25)


def test_jitter_lengthens_the_back_off_by_at_most_its_fraction() -> None:
    delays = []
    for seed in range(50):
        book = connected_book(random.Random(seed))
        book.start(make_call(budget=10.0, policy=RetryPolicy(retries=1, backoff=1.0, jitter=0.2)), 0.0)
        book.received(response("r-1", code="overloaded"), 0.0)
        delays.append(book.next_timer())
    assert all(1.0 <= delay <= 1.2 for delay in delays if delay is not None)
    assert len(set(delays)) > 10


@pytest.mark.parametrize(
    "settings, problem",
    [
        ({"retries": -1}, "retries must be an integer ≥ 0"),
        ({"retries": 1.5}, "retries must be an integer ≥ 0"),
        ({"backoff": -0.1}, "backoff must be a finite number ≥ 0"),
        ({"max_backoff": float("inf")}, "max_backoff must be a finite number ≥ 0"),
        ({"attempt_timeout": 0}, "attempt_timeout must be a positive number"),
    ],
)
def test_a_retry_policy_refuses_impossible_settings(settings: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        RetryPolicy(**settings)


# Brokers ------------------------------------------------------------------------------------------------------------


def test_attempts_go_to_the_connected_broker_holding_the_fewest_in_turn() -> None:
    book = CallBook(brokers=3)
    book.broker_up(0)
    book.broker_up(2)
    calls = [make_call(token, f"r-{token}") for token in range(1, 5)]
    assert [sends(book.start(call, 0.0))[0].broker for call in calls] == [0, 2, 0, 2]
    book.received(response("r-1"), 0.1)
    book.received(response("r-3"), 0.1)
    assert (book.held(0), book.held(2)) == (0, 2)
    later = [make_call(token, f"r-{token}") for token in (5, 6)]
    assert [sends(book.start(call, 0.2))[0].broker for call in later] == [0, 0]


def test_a_broker_that_stops_answering_stops_being_chosen() -> None:
    book = CallBook(brokers=2)
    book.broker_up(0)
    book.broker_up(1)
    assert sends(book.start(make_call(1, "r-1"), 0.0))[0].broker == 0
    for token in range(2, 40):
        assert sends(book.start(make_call(token, f"r-{token}"), 0.0))[0].broker == 1
        assert finished(book.received(response(f"r-{token}"), 0.0))
    assert book.held(0) == 1


def test_a_lost_brokers_attempts_are_sent_again_elsewhere_unchanged_and_in_order() -> None:
    book = CallBook(brokers=2)
    book.broker_up(0)
    book.broker_up(1)
    calls = [make_call(token, f"r-{token}", budget=float(token)) for token in range(1, 7)]
    for call in calls:
        book.start(call, 0.0)
        book.sent(call.token)
    moved = sends(book.broker_down(0))
    assert [send.call.token for send in moved] == [1, 3, 5]
    assert all(send.broker == 1 and send.frames == FRAMES for send in moved)
    assert (book.held(0), book.held(1)) == (0, 6)
    # Not a retry: the attempt keeps its number and its timer; nothing was sent yet on the new broker.
    assert all(call.attempt_number == 1 and not call.sent for call in (calls[0], calls[2], calls[4]))
    assert book.next_timer() == pytest.approx(1 / 3)
    [end] = finished(book.received(response("r-3"), 0.1))
    assert end.call is calls[2] and [attempt.outcome for attempt in calls[2].attempts] == ["ok"]
    assert sends(book.start(make_call(7, "r-7"), 0.2))[0].broker == 1


def test_with_no_broker_up_attempts_wait_for_the_first_that_comes_up() -> None:
    book = CallBook(brokers=2)
    first, second = make_call(1, "r-1"), make_call(2, "r-2")
    assert book.start(first, 0.0) == [] and book.start(second, 0.0) == []
    assert [(send.call, send.broker) for send in sends(book.broker_up(1))] == [(first, 1), (second, 1)]
    assert book.broker_down(1) == []  # nowhere to go: they wait again
    assert book.held(1) == 0
    assert [send.call for send in sends(book.broker_up(0))] == [first, second]


def test_a_retry_after_a_refusal_may_go_to_another_broker_and_a_returning_broker_is_used_again() -> None:
    book = CallBook(brokers=2)
    book.broker_up(0)
    book.broker_up(1)
    call = make_call(1, "r-1")
    assert sends(book.start(call, 0.0))[0].broker == 0
    book.received(response("r-1", code="overloaded"), 0.01)
    assert book.held(0) == 0, "a refused attempt is held by nobody during its back-off"
    book.broker_down(1)
    book.broker_up(1)
    assert sends(book.advance(book.next_timer() or 0.0))[0].broker == 1


@pytest.mark.parametrize("seed", range(30))
def test_every_call_ends_once_whatever_the_brokers_do(seed: int) -> None:
    rng = random.Random(seed)
    brokers = rng.randint(1, 3)
    book = CallBook(random.Random(seed), brokers=brokers)
    up = [False] * brokers
    started, ended = 0, {}
    now = 0.0
    live: list[Call] = []

    def apply(actions: list[Any]) -> None:
        for action in actions:
            if isinstance(action, Send):
                assert up[action.broker], "an attempt went to a broker that is down"
            if isinstance(action, Finish):
                ended[action.call.token] = ended.get(action.call.token, 0) + 1
                live.remove(action.call)

    for _ in range(300):
        choice = rng.randrange(7)
        if choice <= 1:
            started += 1
            call = make_call(started, f"r-{started}", budget=rng.uniform(0.05, 2.0), now=now)
            live.append(call)
            apply(book.start(call, now))
        elif choice == 2 and live:
            call = rng.choice(live)
            apply(book.received(response(call.request_id, code=rng.choice([None, "overloaded"])), now))
        elif choice == 3:
            broker = rng.randrange(brokers)
            if not up[broker]:
                up[broker] = True
                apply(book.broker_up(broker))
        elif choice == 4:
            broker = rng.randrange(brokers)
            if up[broker]:
                up[broker] = False
                apply(book.broker_down(broker))
        else:
            now += rng.uniform(0, 0.3)
            apply(book.advance(now))
        for broker in range(brokers):
            assert book.held(broker) == sum(1 for call in live if call.broker == broker)
    apply(book.advance(now + 10.0))
    assert len(book) == 0 and sorted(ended) == list(range(1, started + 1)) and set(ended.values()) <= {1}
