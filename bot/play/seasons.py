"""Seasons: the stretches of time a server's leaderboards can be read for (`period:season`), a
calendar month, ISO week or quarter in the server's time zone (its settings, bot/play/settings.py).

A season runs from a local midnight to the next season's, [starts, ends) as Unix times: a month
from its 1st, a week from its Monday (ISO weeks), a quarter from January, April, July or October
1st. Its name says which: "2026-11", "2026-W48" (the ISO year and week), "2026-Q4". Pure: the
time is passed in, never read from a clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

from bot.play.errors import UnknownSeason

KINDS = ("month", "week", "quarter")
# The years a season's name may have: none before Unix time, and the next season still a date.
FIRST_YEAR, LAST_YEAR = 1970, 9998
_NAMES = {"month": re.compile(r"([0-9]{4})-([0-9]{2})"), "week": re.compile(r"([0-9]{4})-W([0-9]{2})"),
          "quarter": re.compile(r"([0-9]{4})-Q([0-9])")}


@dataclass(frozen=True, slots=True)
class Season:
    """A season of `kind` (month, week or quarter) called `name`, from Unix time `starts` up to,
    not including, `ends`."""

    kind: str
    name: str
    starts: int
    ends: int

    def __contains__(self, timestamp: float) -> bool:
        """Whether a Unix time falls in this season."""
        return self.starts <= timestamp < self.ends


def season_of(timestamp: float, kind: str, zone: tzinfo) -> Season:
    """The season of `kind` that a Unix time falls in, in this time zone. ValueError for a kind
    there is not (a caller's bug: the settings allow only KINDS)."""
    season = _season(kind, datetime.fromtimestamp(timestamp, zone).date(), zone)
    # Where clocks go back across midnight, a local date can come again after its next day began.
    while timestamp >= season.ends:
        season = following(season, zone)
    while timestamp < season.starts:
        season = previous(season, zone)
    return season


def previous(season: Season, zone: tzinfo) -> Season:
    """The season before this one, of its kind, in this time zone."""
    return _season(season.kind, first_day(season) - timedelta(days=1), zone)


def following(season: Season, zone: tzinfo) -> Season:
    """The season after this one, of its kind, in this time zone."""
    return _season(season.kind, _next_first_day(season.kind, first_day(season)), zone)


def recent(timestamp: float, kind: str, zone: tzinfo, count: int) -> list[Season]:
    """The season of `kind` a Unix time falls in and the ones before it, `count` in all, the latest first."""
    seasons = [season_of(timestamp, kind, zone)]
    while len(seasons) < count:
        seasons.append(previous(seasons[-1], zone))
    return seasons


def parse_season(name: str, zone: tzinfo) -> Season:
    """The season a name calls, in this time zone: "2026-11" (a month), "2026-W48" (an ISO week)
    or "2026-Q4" (a quarter), its letter in either case. UnknownSeason for a name of none of these
    forms, or of a month, week or quarter there is not (2026-13, 2026-W53), or of a year outside
    FIRST_YEAR to LAST_YEAR."""
    text = name.strip().upper()
    for kind, form in _NAMES.items():
        found = form.fullmatch(text)
        if found is None:
            continue
        year, number = int(found[1]), int(found[2])
        if not FIRST_YEAR <= year <= LAST_YEAR:
            break
        try:
            first = _first_of(kind, year, number)
        except ValueError:  # no such month, week or quarter
            break
        return _season(kind, first, zone)
    raise UnknownSeason(name)


def first_day(season: Season) -> date:
    """The season's first date (in its time zone)."""
    found = _NAMES[season.kind].fullmatch(season.name)
    assert found is not None, season  # a Season is made here, with its name
    return _first_of(season.kind, int(found[1]), int(found[2]))


def last_day(season: Season) -> date:
    """The season's last date (in its time zone)."""
    return _next_first_day(season.kind, first_day(season)) - timedelta(days=1)


def _season(kind: str, day: date, zone: tzinfo) -> Season:
    """The season of `kind` holding the local date `day`."""
    match kind:
        case "month":
            first, name = day.replace(day=1), f"{day.year:04d}-{day.month:02d}"
        case "week":
            year, week, weekday = day.isocalendar()
            first, name = day - timedelta(days=weekday - 1), f"{year:04d}-W{week:02d}"
        case "quarter":
            quarter = (day.month - 1) // 3 + 1
            first, name = date(day.year, 3 * quarter - 2, 1), f"{day.year:04d}-Q{quarter}"
        case _:
            raise ValueError(f"no season of kind {kind!r}; kinds: {', '.join(KINDS)}")
    return Season(kind=kind, name=name, starts=_midnight(first, zone),
                  ends=_midnight(_next_first_day(kind, first), zone))


def _first_of(kind: str, year: int, number: int) -> date:
    """The first date of month, ISO week or quarter `number` of `year`; ValueError where there is none."""
    match kind:
        case "week":
            return date.fromisocalendar(year, number, 1)
        case "quarter":
            if not 1 <= number <= 4:
                raise ValueError(f"no quarter {number}")
            return date(year, 3 * number - 2, 1)
    return date(year, number, 1)


def _next_first_day(kind: str, first: date) -> date:
    """The first date of the season after the one that begins on `first`."""
    if kind == "week":
        return first + timedelta(days=7)
    months = first.month - 1 + (3 if kind == "quarter" else 1)
    return date(first.year + months // 12, months % 12 + 1, 1)


def _midnight(day: date, zone: tzinfo) -> int:
    """The Unix time at which a local date begins: its 00:00 (the first, where clocks go back
    over it; where they skip it, the moment they jump, as fold 0 reads a missing time with the
    offset from before the change)."""
    return int(datetime.combine(day, time(), tzinfo=zone).timestamp())
