"""UTC days, as dailies count them: a day is its UTC date written YYYY-MM-DD, and an attempt at a
day's daily may be finished until 01:00 UTC the next day (DAILY_GRACE)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, date, datetime

DAY_SECONDS = 86_400
# An attempt of day D may be finished until 01:00 UTC on D+1; D's deal stays live until then.
DAILY_GRACE = 3_600
_EPOCH = date(1970, 1, 1).toordinal()


def utc_day(timestamp: float) -> str:
    """The UTC date of a Unix time, YYYY-MM-DD."""
    return datetime.fromtimestamp(timestamp, UTC).date().isoformat()


def today(clock: Callable[[], float] = time.time) -> str:
    """Today's UTC date by this clock, YYYY-MM-DD."""
    return utc_day(clock())


def day_start(day: str) -> float:
    """The Unix time at which a UTC day (YYYY-MM-DD) begins."""
    return float((date.fromisoformat(day).toordinal() - _EPOCH) * DAY_SECONDS)


def seconds_to_next_day(timestamp: float) -> float:
    """How long from this Unix time to the next 00:00 UTC."""
    return DAY_SECONDS - timestamp % DAY_SECONDS


def attempt_deadline(day: str) -> float:
    """The Unix time until which an attempt at a daily of `day` may be played: 01:00 UTC the next day."""
    return day_start(day) + DAY_SECONDS + DAILY_GRACE
