"""MMI queries (``service_available``) against a scripted broker that answers in the order that would cross the
answers of a client matching them in order: an MMI reply is a bare status code, so each query has a socket of its
own and nothing else can answer it."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from fake_broker import FakeBroker, Received
from tally import TallyClient, TallyTimeoutError


def hold(request: Received, broker: FakeBroker) -> None:
    """Answers nothing by itself: the test answers with ``answer``."""
    return None


def answer(broker: FakeBroker, request: Received) -> None:
    """What a broker says of the service a query names: only ``tally.live`` has workers."""
    status = b"200" if request.body == b"tally.live" else b"404"
    broker.send_later(request.sender, [b"", b"MDPC01", b"mmi.service", status])


def test_answers_given_in_reverse_order_reach_their_own_queries() -> None:
    with FakeBroker(hold) as broker, TallyClient(broker.endpoint, timeout=20) as client, ThreadPoolExecutor(2) as pool:
        live = pool.submit(client.service_available, "tally.live")
        [first] = broker.wait_for_requests(1, timeout=20)
        gone = pool.submit(client.service_available, "tally.gone")
        second = broker.wait_for_requests(2, timeout=20)[1]
        answer(broker, second)  # in-order matching would give the first query this 404
        answer(broker, first)
        assert live.result(20) is True
        assert gone.result(20) is False


def test_the_late_answer_of_a_query_that_timed_out_reaches_no_other_query() -> None:
    with FakeBroker(hold) as broker, TallyClient(broker.endpoint) as client:
        started = time.monotonic()
        with pytest.raises(TallyTimeoutError):
            client.service_available("tally.live", timeout=1.0)
        assert time.monotonic() - started < 10
        held = broker.requests()
        assert held and all(request.body == b"tally.live" for request in held)
        with ThreadPoolExecutor(1) as pool:
            gone = pool.submit(client.service_available, "tally.gone", timeout=20)
            later = broker.wait_for_requests(len(held) + 1, timeout=20)[len(held)]
            for request in held:  # every attempt of the first query is answered late: 200
                answer(broker, request)
            answer(broker, later)
            assert gone.result(20) is False, "a late 200 of the first query went nowhere"

