"""Many calls in flight on one client against a real cluster: from several threads, as futures from one thread,
and as asyncio tasks; each caller gets the answer to its own request (``as_of`` is the day it asked about)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta

from tally import AsyncTallyClient, TallyClient
from tally.models import DailyRecord, HistoryMonthsParams, HistoryMonthsResult
from tally.testing import LocalCluster


def day(n: int) -> date:
    return date(2020, 1, 1) + timedelta(days=n)


def params_for(n: int) -> HistoryMonthsParams:
    """Params whose answer names ``n``: today is day n, and the one record is that day's."""
    return HistoryMonthsParams(time_zone="UTC", today=day(n), records=[DailyRecord(date=day(n), steps=n)],
                               is_pro=True)


def check(n: int, result: HistoryMonthsResult) -> None:
    assert result.as_of == day(n), f"call {n} got the answer for {result.as_of}"
    month = day(n).isoformat()[:7]
    assert result.current_month == month and result.months == [month]


def test_threads_sharing_one_client_each_get_their_own_answers(client: TallyClient) -> None:
    threads, per_thread = 8, 30
    start = threading.Barrier(threads)

    def worker(first: int) -> int:
        start.wait()
        for n in range(first, first + per_thread):
            check(n, client.history_months(params_for(n)))
        return per_thread

    with ThreadPoolExecutor(threads) as pool:
        done = sum(pool.map(worker, range(0, threads * per_thread, per_thread)))
    assert done == threads * per_thread


def test_one_thread_keeps_hundreds_of_calls_in_flight_with_futures(client: TallyClient) -> None:
    futures = {n: client.submit("history.months", params_for(n)) for n in range(1000, 1300)}
    for n, future in futures.items():
        check(n, HistoryMonthsResult.from_json(future.result(timeout=30)))


def test_asyncio_tasks_share_one_client(cluster: LocalCluster) -> None:
    async def main() -> None:
        async with AsyncTallyClient(cluster.endpoint) as tally:
            results = await asyncio.gather(*(tally.history_months(params_for(n)) for n in range(2000, 2200)))
            for n, result in zip(range(2000, 2200), results, strict=True):
                check(n, result)
            pong = await tally.system_ping(service="tally.workout")
            assert pong.service == "tally.workout"
            assert await tally.service_available("tally.streak")

    asyncio.run(main())
