"""Leaderboard pages with Prev/Next buttons (DynamicItems: the custom_id says which page)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.game import TITLES
from bot.play.leaderboards import LeaderboardPage, PlayerStats
from bot.views.respond import Answer, answer

if TYPE_CHECKING:
    from bot.app import PatientExorcismBot

PAGE_TEMPLATE = re.compile(
    r"pl:(?P<ranking>players|teams|daily|streaks):(?P<period>all|week|today):(?P<scope>server|all):(?P<page>[0-9]{1,4})"
    r":(?P<step>prev|next)")


TEXT_LIMIT = 1900  # what a table may take of a 2,000-character message, code block fences aside
NAME_WIDTH = 20
PERIOD_TITLES = {"all": "all time", "week": "this week", "today": "today"}
HEADINGS = {"rank": "#", "player": "Player", "team": "Team", "games": "Games", "wins": "Wins", "win_rate": "Win %",
            "points": "Points", "matches_won": "Matches won", "result": "Result", "score": "Score",
            "finished": "Finished", "days": "Days", "best": "Best", "streak": "Streak", "best_streak": "Best",
            "win_streak": "Win streak", "best_win_streak": "Best won"}

# How the players' board and /stats count, in one sentence (the store's _RESULTS and _MATCH_WINS).
COUNTING = ("Games: finished games of patience (solo, match rounds, dailies) and race hands. Wins: games won "
            "and race hands gone out. Matches won: alone or with your team.")


def page_title(page: LeaderboardPage) -> str:
    """A page's title: the board, its period (or day) and where, such as "Players · all time · this server"."""
    period = PERIOD_TITLES[page.period]
    title = {"players": f"Players · {period}", "teams": f"Teams · {period}",
             "daily": f"Daily {TITLES.get(page.game, page.game)} · {page.day if page.period == 'today' else period}",
             "streaks": "Daily streaks (days)"}[page.ranking]
    return f"{title} · {'this server' if page.guild_id is not None else 'all servers'}"


def page_text(page: LeaderboardPage) -> str:
    """The page as a monospace table (without the code block fences), at most TEXT_LIMIT
    characters: names are cut to NAME_WIDTH and, if need be, the last rows left off."""
    title = page_title(page)
    if not page.rows:
        return f"{title}\nNo one here yet."
    headings = [HEADINGS[column] for column in page.columns]
    cells = [[_cell(value, NAME_WIDTH if i == 1 else None) for i, value in enumerate(row)] for row in page.rows]
    widths = [max(len(heading), *(len(line[i]) for line in cells)) for i, heading in enumerate(headings)]
    # Numbers line up on the right, words (names, results) on the left.
    numeric = [all(isinstance(row[i], int | float) or row[i] is None for row in page.rows)
               for i in range(len(headings))]

    def line(values: list[str]) -> str:
        return "  ".join(value.rjust(width) if right else value.ljust(width)
                         for value, width, right in zip(values, widths, numeric, strict=True)).rstrip()

    header = [title, line(headings), "-" * (sum(widths) + 2 * (len(widths) - 1))]
    body = [line(values) for values in cells]
    footer = f"Page {page.page + 1} of {page.pages} · {page.total} in all"
    while body and len("\n".join([*header, *body, "…", footer])) > TEXT_LIMIT:
        body.pop()
    if len(body) < len(cells):
        body.append("…")
    return "\n".join([*header, *body, footer])


def stats_text(stats: PlayerStats) -> str:
    """A player's stats in a few aligned lines, for a code block."""
    where = "this server" if stats.guild_id is not None else "all servers"
    scores = "-" if stats.best_score is None else f"best {stats.best_score}, average {stats.average_score or 0:.1f}"
    days = stats.streaks
    return "\n".join([
        f"Stats of {_cell(stats.name, NAME_WIDTH)} ({where})",
        f"Games         {stats.games} finished, {stats.wins} won ({stats.win_rate:.0%})",
        f"Scores        {scores}",
        f"Matches       {stats.matches_played} played, {stats.matches_won} won",
        f"Daily streak  {_days(days.played)} (best {_days(days.best_played)})",
        f"Daily wins    {_days(days.won)} in a row (best {_days(days.best_won)})",
    ])


def _cell(value: object, width: int | None = None) -> str:
    """A value as table text: None as '-', and no backticks or line breaks, which would break
    out of the code block; cut to `width` with an ellipsis."""
    text = "-" if value is None else str(value)
    text = "".join(" " if not char.isprintable() else "'" if char == "`" else char for char in text)
    if width is not None and len(text) > width:
        text = text[:width - 1] + "…"
    return text


def _days(count: int) -> str:
    return f"{count} day" if count == 1 else f"{count} days"


def stats_answer(stats: PlayerStats) -> Answer:
    """A player's stats as a message: the lines in a code block, and what they count."""
    return Answer(f"{code_block(stats_text(stats))}\n{COUNTING}")


def leaderboard_answer(page: LeaderboardPage, ranking: str, period: str, scope: str) -> Answer:
    """A page as a message: the table in a code block, and buttons to turn pages."""
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(ranking, period, scope, page.page, "prev", disabled=page.page == 0))
    view.add_item(PageButton(ranking, period, scope, page.page, "next", disabled=page.page >= page.pages - 1))
    return Answer(code_block(page_text(page)), view=view)


def code_block(text: str) -> str:
    """Text in a Discord code block, so that its columns line up."""
    return f"```\n{text}\n```"


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """◀ or ▶ under a leaderboard page."""

    def __init__(self, ranking: str, period: str, scope: str, page: int, step: str, *, disabled: bool = False) -> None:
        label = "◀ Prev" if step == "prev" else "Next ▶"
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=f"pl:{ranking}:{period}:{scope}:{page}:{step}"))
        self.ranking, self.period, self.scope, self.page, self.step = ranking, period, scope, page, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> PageButton:
        """Rebuild the button from its custom_id."""
        return cls(match["ranking"], match["period"], match["scope"], int(match["page"]), match["step"])

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        """Show the previous or next page in place."""
        bot: PatientExorcismBot = interaction.client  # type: ignore[assignment]
        target = self.page + (1 if self.step == "next" else -1)
        guild_id = interaction.guild_id if self.scope == "server" else None

        async def work() -> Answer:
            page = await bot.leaderboards.page(self.ranking, self.period, guild_id, target)
            return leaderboard_answer(page, self.ranking, self.period, self.scope)

        await answer(interaction, work(), edit=True)
