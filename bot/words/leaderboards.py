"""What a player reads of leaderboards and stats: a page as an aligned monospace table, a player's
stats game by game, what they count, a season's final standings, and the refusals. (A front end
sets the tables in a code block: Discord's `bot.views.leaderboards`.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from babel.numbers import format_decimal

from bot.game import TITLES
from bot.game.rules import CASINO_GAMES
from bot.i18n import N_
from bot.play.errors import PlayError, UnknownPeriod, UnknownRanking, UnknownSeason
from bot.play.leaderboards import GameStats, LeaderboardPage, PlayerStats, SeasonStandings
from bot.play.ratings import PROVISIONAL_GAMES, PlayerRating
from bot.words.voice import Voice
from render.captions import shorten

TEXT_LIMIT = 1900  # what a table may take of a 2,000-character message, code block fences aside
MESSAGE_LIMIT = 2000  # a Discord message's characters
NAME_WIDTH = 20
PERIOD_TITLES = {"all": N_("all time"), "week": N_("this week"), "today": N_("today")}
HEADINGS = {"rank": "#", "player": N_("Player"), "team": N_("Team"), "games": N_("Games"), "wins": N_("Wins"),
            "win_rate": N_("Win %"), "points": N_("Points"), "matches_won": N_("Matches won"),
            "result": N_("Result"), "score": N_("Score"), "moves": N_("Moves"), "time": N_("Time"),
            "days": N_("Days"), "best": N_("Best"), "streak": N_("Streak"), "best_streak": N_("Best"),
            "win_streak": N_("Win streak"), "best_win_streak": N_("Best won"), "clean_wins": N_("Clean wins"),
            "bankroll": N_("Bankroll"), "rating": N_("Rating"), "provisional": N_("Provisional")}

# How the players' board and /stats count, in one sentence (the store's _RESULTS and _MATCH_WINS).
COUNTING = N_("Games: finished games of patience (solo, match rounds, dailies) and race hands. Wins: games won "
              "and race hands gone out. Matches won: alone or with your team.")
# What a clean win is, and how the casino pays (bot.play.leaderboards).
RECORDS = N_("A clean win: no undo, no hint. Casino: each game of Canfield (one pass) costs $52 and pays $5 a card "
             "on the foundations; the bankroll carries over.")
BLOCK_BREAK = "\n\n"  # between the totals and each game's lines
STATS_LIMIT = 1200  # what the stats may take of a message, before the line of the games left out and the notes


def leaderboard_error_text(error: PlayError, voice: Voice) -> str:
    """What a player reads for a leaderboard or period there is not ("" for another PlayError)."""
    _ = voice.gettext
    match error:
        case UnknownRanking(ranking=ranking, choices=choices):
            return _("Unknown leaderboard {ranking}; leaderboards: {choices}.", ranking=repr(ranking),
                     choices=", ".join(choices))
        case UnknownPeriod(period=period, choices=choices):
            return _("Unknown period {period}; periods: {choices}.", period=repr(period), choices=", ".join(choices))
        case UnknownSeason(name=name):
            return _("There is no season {name}: a season is named like 2026-11 (a month), 2026-W48 (a week) or "
                     "2026-Q4 (a quarter).", name=voice.name(repr(name)))
    return ""


def page_title(page: LeaderboardPage, voice: Voice) -> str:
    """A page's title: the board, its period (or day) and where, such as "Players · all time · this server"."""
    _ = voice.gettext
    if page.season is not None:
        period = _("season {season}", season=page.season.name)
    else:
        period = _(PERIOD_TITLES.get(page.period, page.period))
    title = {"players": _("Players · {period}", period=period), "teams": _("Teams · {period}", period=period),
             "daily": _("Daily {title} · {period}", title=TITLES.get(page.game, page.game),
                        period=page.day if page.period == "today" else period),
             "streaks": _("Daily streaks (days)"), "clean": _("Clean wins · {period}", period=period),
             "casino": _("Casino bankroll · {title} · {period}", title=", ".join(TITLES[name] for name in CASINO_GAMES),
                         period=period),
             "rating": _("Ratings · {period}", period=period)}[page.ranking]
    where = _("this server") if page.guild_id is not None else _("all servers")
    return f"{title} · {where}"


def season_standings_text(standings: SeasonStandings, voice: Voice) -> str:
    """A season's final standings as a short message (at most MESSAGE_LIMIT characters): a heading
    naming the season, then each board's top rows, or that nobody played; where they would not
    fit, the last rows of the longest boards are left off."""
    _ = voice.gettext
    heading = voice.bold(_("Season {season} is over: the final standings", season=standings.season.name))
    blocks = []
    for board in standings.boards:
        rows = [_("{rank}. {name}: {details}", rank=row[0], name=voice.name(str(row[1])),
                  details=_row_details(board, row, voice)) for row in board.rows]
        blocks.append([voice.bold(_board_name(board, voice)), *(rows or [_("Nobody played.")])])

    def text() -> str:
        return "\n\n".join([heading, *("\n".join(block) for block in blocks)])

    while len(text()) > MESSAGE_LIMIT:
        longest = max(blocks, key=len)
        del longest[-2 if longest[-1] == "…" else -1]
        if longest[-1] != "…":
            longest.append("…")
    return text()


def _board_name(page: LeaderboardPage, voice: Voice) -> str:
    """A board's name in a season's standings, such as "Players" or "Daily Canfield"."""
    _ = voice.gettext
    names = {"players": _("Players"), "teams": _("Teams"), "rating": _("Rating"),
             "daily": _("Daily {title}", title=TITLES.get(page.game, page.game))}
    return names.get(page.ranking, page.ranking)


def _row_details(page: LeaderboardPage, row: tuple[object, ...], voice: Voice) -> str:
    """What a row of a season's standings says after the name, such as "352 points, 1 win"; a
    board without wording of its own says its values after the name."""
    values: dict[str, Any] = dict(zip(page.columns, row, strict=True))
    points = voice.ngettext("{count} point", "{count} points", values.get("points") or 0)
    match page.ranking:
        case "players":
            return ", ".join([points, voice.ngettext("{count} win", "{count} wins", values["wins"])])
        case "teams":
            return ", ".join([voice.ngettext("{count} match won", "{count} matches won", values["matches_won"]),
                              points])
        case "daily":
            return ", ".join([points, _days(values["days"], voice)])
        case "rating":
            rated = voice.ngettext("{count} rated game", "{count} rated games", values["games"])
            shown = number(values["rating"], voice)
            return f"{shown}, {rated}" + (", " + voice.gettext("provisional") if values["provisional"] else "")
    return ", ".join(_cell(FORMATS.get(column, _same)(value)) for column, value in list(values.items())[2:])


def page_text(page: LeaderboardPage, voice: Voice) -> str:
    """The page as a monospace table (without the code block fences), at most TEXT_LIMIT
    characters: names are cut to NAME_WIDTH and, if need be, the last rows left off."""
    title = page_title(page, voice)
    if not page.rows:
        return title + "\n" + voice.gettext("No one here yet.")
    headings = [voice.gettext(HEADINGS[column]) if column != "rank" else "#" for column in page.columns]
    formats = {**FORMATS, "rating": lambda rating: number(rating, voice),
               "provisional": lambda provisional: voice.gettext("yes") if provisional else ""}
    shown = [[formats.get(column, _same)(value) for column, value in zip(page.columns, row, strict=True)]
             for row in page.rows]
    cells = [[_cell(value, NAME_WIDTH if i == 1 else None) for i, value in enumerate(row)] for row in shown]
    widths = [max(len(heading), *(len(line[i]) for line in cells)) for i, heading in enumerate(headings)]
    # Numbers line up on the right, words (names, results) on the left.
    numeric = [all((isinstance(row[i], int | float) and not isinstance(row[i], bool)) or row[i] is None
                   for row in page.rows) for i in range(len(headings))]

    def line(values: list[str]) -> str:
        return "  ".join(value.rjust(width) if right else value.ljust(width)
                         for value, width, right in zip(values, widths, numeric, strict=True)).rstrip()

    header = [title, line(headings), "-" * (sum(widths) + 2 * (len(widths) - 1))]
    body = [line(values) for values in cells]
    footer = voice.gettext("Page {page} of {pages} · {total} in all", page=page.page + 1, pages=page.pages,
                           total=page.total)
    while body and len("\n".join([*header, *body, "…", footer])) > TEXT_LIMIT:
        body.pop()
    if len(body) < len(cells):
        body.append("…")
    return "\n".join([*header, *body, footer])


def _same(value: object) -> object:
    return value


def dollars(amount: int | None) -> str | None:
    """An amount of money, such as "$35" or "-$127"."""
    return None if amount is None else f"-${-amount}" if amount < 0 else f"${amount}"


def number(value: int, voice: Voice) -> str:
    """A whole number as the voice's language writes it, such as "1,083" in English."""
    return format_decimal(value, locale=voice.language)


def rating_text(rating: PlayerRating | None, voice: Voice) -> str:
    """A player's rating as /stats says it, such as "1,083 (+24 in the last game)", with how far
    a provisional one is from counting fully."""
    if rating is None:
        return voice.gettext("no rated game yet")
    sign = "+" if rating.change >= 0 else "-"
    values = {"rating": number(rating.rating, voice), "change": sign + number(abs(rating.change), voice)}
    if not rating.provisional:
        return voice.gettext("{rating} ({change} in the last game)", **values)
    return voice.ngettext("{rating} ({change} in the last game), provisional: {games} of {count} rated game",
                          "{rating} ({change} in the last game), provisional: {games} of {count} rated games",
                          PROVISIONAL_GAMES, games=rating.games, **values)


def clock_time(seconds: int | None) -> str | None:
    """A time taken, such as "4:05" or "1:02:09"."""
    if seconds is None:
        return None
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


FORMATS: dict[str, Callable[..., object]] = {"bankroll": dollars, "time": clock_time}  # columns not shown as they are


def stats_text(stats: PlayerStats, voice: Voice) -> str:
    """A player's stats in a few aligned lines, for a code block."""
    _, days = voice.gettext, stats.streaks
    where = _("this server") if stats.guild_id is not None else _("all servers")
    scores = "-" if stats.best_score is None else _("best {best}, average {average}", best=stats.best_score,
                                                     average=f"{stats.average_score or 0:.1f}")
    lines = [
        (_("Games"), _("{games} finished, {wins} won ({rate})", games=stats.games, wins=stats.wins,
                       rate=f"{stats.win_rate:.0%}")),
        (_("Scores"), scores),
        (_("Matches"), _("{played} played, {won} won", played=stats.matches_played, won=stats.matches_won)),
        (_("Daily streak"), _("{days} (best {best})", days=_days(days.played, voice),
                              best=_days(days.best_played, voice))),
        (_("Daily wins"), _("{days} in a row (best {best})", days=_days(days.won, voice),
                            best=_days(days.best_won, voice))),
        (_("Clean wins"), str(stats.clean_wins)),
        (_("Rating"), rating_text(stats.rating, voice)),
    ]
    width = max(len(label) for label, _value in lines) + 2
    return "\n".join([_("Stats of {name} ({where})", name=_cell(stats.name, NAME_WIDTH), where=where),
                      *(f"{label.ljust(width)}{value}" for label, value in lines)])


def game_stats_text(record: GameStats, voice: Voice) -> str:
    """A player's record at one game in a few lines, for a code block: the lines that have
    something to say."""
    _ = voice.gettext
    lines = [_("{title}: {played} played, {wins} won ({rate}), {clean} clean",
               title=TITLES.get(record.game, record.game), played=record.played, wins=record.wins,
               rate=f"{record.win_rate:.0%}", clean=record.clean_wins)]
    if record.best_score is not None and record.average_cards is not None:
        lines.append("  " + _("best score {best}, {cards} cards to the foundations on average", best=record.best_score,
                              cards=f"{record.average_cards:.1f}"))
    elif record.best_score is not None:
        lines.append("  " + _("best score {best}", best=record.best_score))
    if record.streaks.best_played:
        lines.append("  " + _("daily streak {days} (best {best})", days=_days(record.streaks.played, voice),
                              best=_days(record.streaks.best_played, voice)))
    if record.winnable_share is not None:
        lines.append("  " + _("lost games that could have been won: {winnable} of {analysed} analysed ({share})",
                              winnable=record.lost_winnable, analysed=record.lost_analysed,
                              share=f"{record.winnable_share:.0%}"))
    if record.bankroll is not None:
        lines.append("  " + _("bankroll {money}", money=dollars(record.bankroll)))
    return "\n".join(lines)


def all_stats_text(stats: PlayerStats, voice: Voice) -> str:
    """A player's stats for a code block: the totals, then game by game as many as fit within
    STATS_LIMIT (the rest named, with the command that shows one)."""
    parts = [stats_text(stats, voice)]
    for shown, record in enumerate(stats.games_played):
        block = game_stats_text(record, voice)
        if len(BLOCK_BREAK.join([*parts, block])) > STATS_LIMIT:
            rest = ", ".join(more.game for more in stats.games_played[shown:])
            parts.append(voice.gettext("… and {games}: {command} with a game shows it", games=rest,
                                       command=voice.command("stats")))
            break
        parts.append(block)
    return BLOCK_BREAK.join(parts)


def stats_notes(voice: Voice) -> str:
    """What the players' board and the stats count, what a clean win and the casino are, and a rating."""
    ratings = voice.ngettext("Rating: from won matches and finished races, on every server; provisional until "
                             "{count} rated game.", "Rating: from won matches and finished races, on every server; "
                             "provisional until {count} rated games.", PROVISIONAL_GAMES)
    return f"{voice.gettext(COUNTING)} {voice.gettext(RECORDS)} {ratings}"


def _cell(value: object, width: int | None = None) -> str:
    """A value as table text: None as '-', and no backticks or line breaks, which would break
    out of the code block; cut to `width` with an ellipsis."""
    text = "-" if value is None else str(value)
    text = "".join(" " if not char.isprintable() else "'" if char == "`" else char for char in text)
    return text if width is None else shorten(text, width)


def _days(count: int, voice: Voice) -> str:
    return voice.ngettext("{count} day", "{count} days", count)
