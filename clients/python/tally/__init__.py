"""Tally's Python client: typed calls of every v1 method over ZeroMQ (MDP/0.1), with deadlines, retries,
several brokers and CURVE.

::

    from datetime import date
    from tally import TallyClient, TallyError
    from tally.models import GoalChange, DailyRecord, StreakSummaryParams

    with TallyClient("tcp://127.0.0.1:5555") as tally:
        summary = tally.streak_summary(StreakSummaryParams(
            time_zone="Europe/Berlin", today=date(2026, 11, 23),
            goal_log=[GoalChange(effective_date=date(2026, 1, 1), goal=8000)],
            records=[DailyRecord(date=date(2026, 11, 22), steps=9100)]))
        print(summary.current_streak.days, summary.as_of)   # as_of: a datetime.date

See clients/python/README.md.
"""

from . import models
from ._decoding import ModelError
from .aio import AsyncTallyClient
from .client import TallyClient
from .curve import Curve, CurveKeyError
from .errors import (
    Attempt,
    ClientClosedError,
    DuplicateRequestIdError,
    EndpointState,
    ErrorCode,
    TallyBaseError,
    TallyError,
    TallyTimeoutError,
    UsageError,
)

__all__ = [
    "AsyncTallyClient",
    "Attempt",
    "ClientClosedError",
    "Curve",
    "CurveKeyError",
    "DuplicateRequestIdError",
    "EndpointState",
    "ErrorCode",
    "ModelError",
    "TallyBaseError",
    "TallyClient",
    "TallyError",
    "TallyTimeoutError",
    "UsageError",
    "models",
]

__version__ = "0.1.0"
