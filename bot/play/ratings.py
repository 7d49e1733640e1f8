"""Players' ratings from matches and races: OpenSkill's Plackett–Luce model (the `openskill`
package, with its defaults: a new player has mu 25 and sigma 25/3), one rating per player across
every server.

What is rated, in the order it finished (then matches before races, then by id):
- a match won (status finished): in a free-for-all its players rank by their final points; in a
  team match its teams rank by their points (those of their members who played in it, together,
  as its scoreboard counts them: bot.play.matches.by_team), and every member is rated through
  their team's standing;
- a race hand that finished: its seats rank by score.
Higher is better, and ties share a rank. A player of a match is one dealt a round of it. Matches
cancelled or expired, races cancelled, and any event of fewer than two players (or teams) are not
rated.

`Ratings.catch_up` rates every finished event not yet rated, in that order, exactly once across
processes (bot.store.ratings): when a match is won, when a race hand ends, and when the bot starts
(so a database from before ratings gets them from its stored matches and races). A race that ends
at its deal tells no listener: the next catch-up rates it.

A rating is shown as one number, `shown_rating`: OpenSkill's ordinal (mu − 3 sigma) scaled, so
that a new player shows 1000; it is provisional until PROVISIONAL_GAMES rated games.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.game.race import RaceGame
from bot.play.events import Event
from bot.play.matches import MatchListener, Scoreboard, by_team
from bot.play.race import RaceListener
from bot.store import Store
from bot.store.base import Contest, Entrant, Race, RatingChange, Skill

PROVISIONAL_GAMES = 5  # rated games before a rating is no longer provisional
MODEL = PlackettLuce()
NEW_PLAYER = Skill(MODEL.mu, MODEL.sigma, 0)
log = logging.getLogger(__name__)


def shown_rating(skill: Skill) -> int:
    """A rating as players see it: 1000 + 40 × the ordinal (mu − 3 sigma), rounded (a new player: 1000)."""
    return round(1000 + 40 * (skill.mu - 3 * skill.sigma))


def ranks(points: Sequence[int]) -> list[int]:
    """Each side's rank by its points, higher first, from 1; ties share a rank (standard
    competition ranking: 1, 2, 2, 4)."""
    return [1 + sum(other > mine for other in points) for mine in points]


def rate_contest(contest: Contest, skills: Mapping[int, Skill]) -> list[RatingChange]:
    """The changes a finished match or race hand makes to its players' ratings (`skills`: theirs
    so far; a player absent from it is new), none when it has fewer than two sides."""
    sides: list[list[Entrant]] = (list(by_team(contest.entrants).values()) if contest.teams
                                  else [[entrant] for entrant in contest.entrants])
    if len(sides) < 2:
        return []
    before = [[skills.get(entrant.user_id, NEW_PLAYER) for entrant in side] for side in sides]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma) for skill in side] for side in before]
    places = ranks([sum(entrant.points for entrant in side) for side in sides])
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [RatingChange(kind=contest.kind, event_id=contest.event_id, user_id=entrant.user_id,
                         guild_id=contest.guild_id, rated_at=contest.finished_at, before=old,
                         after=Skill(new.mu, new.sigma, old.games + 1))
            for side, olds, news in zip(sides, before, rated, strict=True)
            for entrant, old, new in zip(side, olds, news, strict=True)]


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating as shown (`rating`), their rated games, and how much their last rated
    game changed it (as shown)."""

    rating: int
    games: int
    change: int

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional: fewer than PROVISIONAL_GAMES rated games."""
        return self.games < PROVISIONAL_GAMES


async def player_rating(store: Store, user_id: int) -> PlayerRating | None:
    """A player's rating now, or None before their first rated game."""
    last = await store.ratings.last_change(user_id)
    if last is None:
        return None
    now = shown_rating(last.after)
    return PlayerRating(rating=now, games=last.after.games, change=now - shown_rating(last.before))


class Ratings(MatchListener, RaceListener):
    """Rates finished matches and races, each once; it listens to both (bot.play.services)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def catch_up(self) -> list[RatingChange]:
        """Rate every finished match and race hand not rated yet, in the order they finished,
        exactly once across processes; the changes made, in order."""
        return await self.store.ratings.rate_pending(rate_contest)

    async def match_won(self, scoreboard: Scoreboard) -> None:
        """A match was won: rate it (and anything before it not rated yet)."""
        await self._catch_up_safely()

    async def race_finished(self, race: Race, game: RaceGame, summary: tuple[Event, ...]) -> None:
        """A race hand ended: rate it (and anything before it not rated yet)."""
        await self._catch_up_safely()

    async def _catch_up_safely(self) -> None:
        # A failure here must not spoil the end of the match or race: the next catch-up rates it.
        try:
            await self.catch_up()
        except Exception:
            log.exception("could not rate the finished matches and races")
