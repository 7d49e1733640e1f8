"""Seasons (bot.play.seasons): their edges at local midnights, across changes of clocks and year
ends, their names, and names read back."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.play.errors import UnknownSeason
from bot.play.seasons import KINDS, Season, first_day, following, last_day, parse_season, previous, recent, season_of

PARIS, NEW_YORK, UTC_ZONE = ZoneInfo("Europe/Paris"), ZoneInfo("America/New_York"), ZoneInfo("UTC")
# Zones with clocks that skip or repeat midnight itself (Santiago goes back from 00:00 to 23:00),
# or with a half-hour offset, beside the usual ones.
ZONES = [ZoneInfo(name) for name in ("UTC", "Europe/Paris", "America/New_York", "America/Santiago",
                                     "America/Asuncion", "Asia/Tehran", "Australia/Lord_Howe", "Pacific/Kiritimati")]


def local(timestamp: int, zone: ZoneInfo) -> datetime:
    return datetime.fromtimestamp(timestamp, zone)


def at(text: str, zone: ZoneInfo) -> float:
    """The Unix time of a local time written 'YYYY-MM-DD HH:MM'."""
    return datetime.fromisoformat(text).replace(tzinfo=zone).timestamp()


@pytest.mark.parametrize(("kind", "when", "name", "first", "after"), [
    ("month", "2026-11-17 15:00", "2026-11", "2026-11-01", "2026-12-01"),
    ("month", "2026-12-31 23:59", "2026-12", "2026-12-01", "2027-01-01"),
    ("week", "2026-11-27 10:00", "2026-W48", "2026-11-23", "2026-11-30"),
    ("week", "2026-12-31 12:00", "2026-W53", "2026-12-28", "2027-01-04"),  # 2026 has 53 ISO weeks
    ("week", "2027-01-03 23:59", "2026-W53", "2026-12-28", "2027-01-04"),  # a January Sunday of the ISO year before
    ("week", "2024-12-30 00:00", "2025-W01", "2024-12-30", "2025-01-06"),  # a December Monday of the next ISO year
    ("quarter", "2026-11-17 15:00", "2026-Q4", "2026-10-01", "2027-01-01"),
    ("quarter", "2026-01-01 00:00", "2026-Q1", "2026-01-01", "2026-04-01"),
])
@pytest.mark.parametrize("zone", [PARIS, NEW_YORK, UTC_ZONE], ids=str)
def test_a_season_runs_from_local_midnight_to_local_midnight(kind: str, when: str, name: str, first: str, after: str,
                                                             zone: ZoneInfo) -> None:
    season = season_of(at(when, zone), kind, zone)
    assert season == Season(kind, name, int(at(f"{first} 00:00", zone)), int(at(f"{after} 00:00", zone)))
    assert (first_day(season), last_day(season)) == (date.fromisoformat(first),
                                                     date.fromordinal(date.fromisoformat(after).toordinal() - 1))


def test_the_edges_follow_summer_time() -> None:
    # Paris moves its clocks on the last Sundays of March and October: a month across either is
    # an hour short or long, and its edges stay at local midnight.
    march = parse_season("2026-03", PARIS)
    assert march.starts == at("2026-02-28 23:00", UTC_ZONE) and march.ends == at("2026-03-31 22:00", UTC_ZONE)
    assert march.ends - march.starts == 31 * 86_400 - 3_600
    october = parse_season("2026-10", PARIS)
    assert october.ends - october.starts == 31 * 86_400 + 3_600
    # New York's week of its change on Sunday 1 November: Monday to Monday, -04:00 then -05:00.
    week = parse_season("2026-W44", NEW_YORK)
    assert (week.starts, week.ends) == (at("2026-10-26 04:00", UTC_ZONE), at("2026-11-02 05:00", UTC_ZONE))
    assert season_of(week.ends - 1, "week", NEW_YORK) == week
    assert season_of(week.ends, "week", NEW_YORK).name == "2026-W45"
    # The same instant is in October in New York and already in November in Paris.
    instant = at("2026-11-01 02:00", UTC_ZONE)
    assert (season_of(instant, "month", NEW_YORK).name, season_of(instant, "month", PARIS).name) == ("2026-10",
                                                                                                      "2026-11")


def test_where_clocks_skip_midnight_a_season_starts_when_they_jump() -> None:
    # Asunción went from 00:00 to 01:00 on 1 October 2023; Tehran on Monday 22 March 2021.
    asuncion = ZoneInfo("America/Asuncion")
    quarter = parse_season("2023-Q4", asuncion)
    assert local(quarter.starts, asuncion).isoformat() == "2023-10-01T01:00:00-03:00"
    assert local(quarter.starts - 1, asuncion).isoformat() == "2023-09-30T23:59:59-04:00"
    tehran = ZoneInfo("Asia/Tehran")
    week = season_of(at("2021-03-24 12:00", tehran), "week", tehran)
    assert week.name == "2021-W12" and local(week.starts, tehran).isoformat() == "2021-03-22T01:00:00+04:30"
    assert previous(week, tehran).ends == week.starts


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=40_000_000, max_value=4_102_444_800), st.sampled_from(KINDS), st.sampled_from(ZONES))
def test_every_instant_is_in_one_season_whose_neighbours_touch_it(timestamp: int, kind: str, zone: ZoneInfo) -> None:
    season = season_of(timestamp, kind, zone)
    assert timestamp in season
    assert previous(season, zone).ends == season.starts and following(season, zone).starts == season.ends
    assert season_of(season.starts, kind, zone) == season and season_of(season.ends - 1, kind, zone) == season
    assert season_of(season.starts - 1, kind, zone) == previous(season, zone)
    assert first_day(season) <= local(season.starts, zone).date() and \
        local(season.starts - 1, zone).date() < first_day(season)
    assert parse_season(season.name, zone) == season  # the name reads back
    assert parse_season(season.name.lower(), zone) == season


def test_names_read_back_the_kind_from_their_form() -> None:
    assert parse_season("2026-11", UTC_ZONE).kind == "month"
    assert parse_season(" 2026-w48 ", UTC_ZONE) == season_of(at("2026-11-25 00:00", UTC_ZONE), "week", UTC_ZONE)
    assert parse_season("2026-Q4", UTC_ZONE).kind == "quarter"
    assert parse_season("2020-W53", UTC_ZONE).starts == at("2020-12-28 00:00", UTC_ZONE)


@pytest.mark.parametrize("name", ["", "2026", "2026-13", "2026-00", "2026-1", "2025-W53", "2026-W00", "2026-W54",
                                  "2026-Q0", "2026-Q5", "1969-12", "9999-12", "26-11", "2026-11-01", "november",
                                  "２０２６-11", "2026-W4８"])
def test_bad_or_impossible_names_are_unknown_seasons(name: str) -> None:
    with pytest.raises(UnknownSeason) as refused:
        parse_season(name, PARIS)
    assert refused.value.name == name


def test_recent_seasons_the_latest_first() -> None:
    now = at("2027-01-10 12:00", PARIS)
    assert [s.name for s in recent(now, "month", PARIS, 4)] == ["2027-01", "2026-12", "2026-11", "2026-10"]
    assert [s.name for s in recent(now, "week", PARIS, 3)] == ["2027-W01", "2026-W53", "2026-W52"]
    assert [s.name for s in recent(now, "quarter", PARIS, 2)] == ["2027-Q1", "2026-Q4"]


def test_a_season_of_no_kind_is_a_callers_bug() -> None:
    with pytest.raises(ValueError, match="kinds: month, week, quarter"):
        season_of(0, "year", UTC_ZONE)
    assert datetime.fromtimestamp(parse_season("1970-01", UTC_ZONE).starts, UTC).year == 1970
