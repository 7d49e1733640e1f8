"""Matches to a target score, alone or in teams (docs/design.md).

A host opens a match; players join (late joiners too); once started, each plays round after
round at their own pace, round k dealing the same cards to everyone. A round's score counts the
moment it ends (won, blocked or resigned: SoloPlay's finish hook calls us), and the next round
is dealt. The first player (or team) to reach the target wins: the match's status moves from
running to finished in one conditional write, so the win is announced exactly once.

An ended match (won, cancelled or expired) is final: its rounds still in play end with it,
resigned and closed, their scores added nowhere; leaving, joining, starting and picking a team
are refused.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Protocol, TypeVar

from bot.game import GAMES, game_rules, option_names
from bot.play.errors import (
    AlreadyHosting,
    BadOptions,
    BadTeamName,
    ElsewhereMatch,
    MatchChanged,
    MatchClosed,
    NobodyJoined,
    NoSuchMatch,
    NotATeamMatch,
    NoTeamChosen,
    NotInATeam,
    NotInMatch,
    NotStarted,
    NotTheHost,
    TargetOutOfRange,
    TeamMatchOffServer,
    TeamRefused,
    UnknownGame,
)
from bot.play.events import Event, MatchEnded, MatchWon, RoundDealt, RoundScored
from bot.play.replies import Reply
from bot.play.settings import MAX_TARGET, load_settings
from bot.play.solo import Player, SoloPlay, Table, check_limit
from bot.store import Store
from bot.store.base import Match, MatchPlayer, NewMatch, Team, TeamError

EXPIRE_AFTER = 24 * 3600
TEAM_NAME_LENGTH = 32  # the most characters of a team's name


class MatchStatus(StrEnum):
    """Where a match stands; the store keeps the value."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class MatchAction(StrEnum):
    """What a member tried to do to a match, for a refusal to say."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    PLAY = "play"  # ask for their round


@dataclass(frozen=True, slots=True)
class TeamRoster:
    """A team and its members' names."""

    name: str
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a scoreboard: a player, or a team with its members."""

    key: int  # user id, or team id in a team match
    name: str
    points: int
    rounds: int
    members: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """A match and where everyone stands, leader first."""

    match: Match
    players: list[MatchPlayer]
    standings: list[Standing]
    winner: Standing | None = None
    server_teams: list[Team] = field(default_factory=list)  # for a team match's lobby menu

    @property
    def leader(self) -> Standing | None:
        """Whoever has the most points (None before anyone has scored)."""
        return self.standings[0] if self.standings and self.standings[0].rounds else None


class InTeam(Protocol):
    """A match's player who may be in a team."""

    @property
    def team_id(self) -> int | None:
        """Their team's id in a team match (None: in none)."""
        ...


Member = TypeVar("Member", bound=InTeam)


def by_team(players: Iterable[Member]) -> dict[int, list[Member]]:
    """A team match's players by team, each team's in the order given (a player in no team left
    out): a team stands by the points of its members together."""
    teams: dict[int, list[Member]] = {}
    for player in players:
        if player.team_id is not None:
            teams.setdefault(player.team_id, []).append(player)
    return teams


class MatchListener:
    """What the Discord side hears from matches (all no-ops here)."""

    async def scoreboard_changed(self, match_id: int) -> None:
        """A match's standings or status changed: its scoreboard message needs an edit."""

    async def match_won(self, scoreboard: Scoreboard) -> None:
        """Someone reached the target: announce it (called exactly once per match)."""


class MatchPlay:
    """Open, join, start, play and finish matches."""

    def __init__(self, store: Store, solo: SoloPlay, clock: Callable[[], float] = time.time,
                 decks: Callable[[Match, int], list[str] | None] | None = None,
                 rng: random.Random | None = None) -> None:
        self.store = store
        self.solo = solo
        self.clock = clock
        self.rng = rng or random.SystemRandom()  # draws each match's seed, and so its deals
        # Fixed decks for some rounds (a tournament's, or a test's); other rounds use deal numbers.
        self.decks = decks
        self.listeners: list[MatchListener] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._opening: set[tuple[int, int]] = set()  # (channel, host) of lobbies being opened now
        solo.finish_hooks.append(self._round_finished)

    # --- the lobby -----------------------------------------------------------------------

    async def open(self, host: Player, *, guild_id: int | None, channel_id: int, game: str = "canfield",
                   target: int | None = None, teams: bool = False, die: str | None = None,
                   undo: bool | None = None) -> Scoreboard:
        """Open a match in the lobby; the server's settings fill in what is not given. The host
        joins at once (in a team match, when they are in a team). AlreadyHosting when the host
        has a match in its lobby in this channel; RateLimited when they have opened too many
        lobbies lately."""
        settings = await load_settings(self.store, guild_id)
        if game not in GAMES:
            raise UnknownGame(game)
        if teams and guild_id is None:
            raise TeamMatchOffServer()
        target = target if target is not None else (settings.team_target_or_default if teams else settings.target)
        if not 1 <= target <= MAX_TARGET:
            raise TargetOutOfRange(target, MAX_TARGET)
        die = die or settings.die
        try:
            options = game_rules(game, **({"die": die} if "die" in option_names(game) else {})).options()
        except ValueError as error:
            raise BadOptions.of(error) from None
        opening = (channel_id, host.id)
        if opening in self._opening:
            raise AlreadyHosting(None)
        self._opening.add(opening)  # until this lobby is stored: a second opening meanwhile is refused
        try:
            lobby = await self.store.matches.lobby_of(channel_id, host.id)
            if lobby is not None:
                raise AlreadyHosting(lobby.id)
            check_limit(self.solo.limits, host.id, "lobby")
            now = self.clock()
            await self.store.games.upsert_player(host.id, host.name)
            match = await self.store.matches.create_match(NewMatch(
                guild_id=guild_id, channel_id=channel_id, host_id=host.id, game=game, options=options, target=target,
                teams=teams, undo=settings.match_undo if undo is None else undo,
                seed=self.rng.randint(1, 2**62)), now)
            team = await self.store.matches.team_of(guild_id, host.id) if teams and guild_id is not None else None
            if not teams or team is not None:
                await self.store.matches.add_match_player(match.id, host.id, team.id if team else None, now)
        finally:
            self._opening.discard(opening)
        return await self.scoreboard(match.id)

    async def join(self, match_id: int, player: Player, team_name: str | None = None) -> Scoreboard:
        """Join a match in the lobby or already running (then the first round is dealt at once).
        In a team match the player plays for their team: the one they are in, or `team_name`."""
        async with self._lock(match_id):
            match = await self._match(match_id)
            if match.status not in (MatchStatus.LOBBY, MatchStatus.RUNNING):
                raise MatchClosed(match_id, match.status, MatchAction.JOIN)
            team = await self._team_for(match, player, team_name)
            await self.store.games.upsert_player(player.id, player.name)
            await self.store.matches.add_match_player(match_id, player.id, team.id if team else None, self.clock())
            if match.status == MatchStatus.RUNNING:
                await self._deal_next_round(match, player)
        await self._changed(match_id)
        return await self.scoreboard(match_id)

    async def leave(self, match_id: int, player: Player) -> Scoreboard:
        """Leave a match; a round in play is resigned (its score counts)."""
        async with self._lock(match_id):
            match = await self._match(match_id)
            mine = self._player(await self.store.matches.match_players(match_id), player)
            if mine is None or mine.left:
                raise NotInMatch(match_id, MatchAction.LEAVE)
            if match.status not in (MatchStatus.LOBBY, MatchStatus.RUNNING):
                raise MatchClosed(match_id, match.status, MatchAction.LEAVE)
            await self.store.matches.leave_match(match_id, player.id, self.clock())
        if mine.game_id is not None and match.status == MatchStatus.RUNNING:
            await self.solo.resign(mine.game_id, player)
        await self._changed(match_id)
        return await self.scoreboard(match_id)

    async def start(self, match_id: int, actor: Player, *, can_manage: bool = False) -> Scoreboard:
        """Start the match (the host, or a member who can manage the server): everyone's first
        round is dealt."""
        async with self._lock(match_id):
            match = await self._match(match_id)
            if actor.id != match.host_id and not can_manage:
                raise NotTheHost(MatchAction.START)
            players = [p for p in await self.store.matches.match_players(match_id) if not p.left]
            if match.status != MatchStatus.LOBBY:
                raise MatchClosed(match_id, match.status, MatchAction.START)
            if not players:
                raise NobodyJoined()
            if not await self.store.matches.change_match_status(match_id, MatchStatus.LOBBY, MatchStatus.RUNNING,
                                                                self.clock()):
                raise MatchChanged()
            match = await self._match(match_id)
            for player in players:
                await self._deal_next_round(match, Player(player.user_id, player.name))
        await self._changed(match_id)
        return await self.scoreboard(match_id)

    async def cancel(self, match_id: int, actor: Player, *, can_manage: bool = False) -> Scoreboard:
        """Call the match off (the host, or a member who can manage the server)."""
        async with self._lock(match_id):
            match = await self._match(match_id)
            if actor.id != match.host_id and not can_manage:
                raise NotTheHost(MatchAction.CANCEL)
            if match.status not in (MatchStatus.LOBBY, MatchStatus.RUNNING) or \
                    not await self.store.matches.change_match_status(match_id, match.status, MatchStatus.CANCELLED,
                                                                     self.clock()):
                raise MatchClosed(match_id, match.status, MatchAction.CANCEL)
            await self._close_rounds(match_id)
        await self._changed(match_id)
        return await self.scoreboard(match_id)

    async def check_place(self, match_id: int, guild_id: int | None, channel_id: int | None) -> None:
        """ElsewhereMatch unless the match is played in this server and channel: its buttons act
        there alone, whoever presses them."""
        match = await self._match(match_id)
        if (match.guild_id, match.channel_id) != (guild_id, channel_id):
            raise ElsewhereMatch(match_id)

    # --- playing ---------------------------------------------------------------------------

    async def my_board(self, match_id: int, player: Player) -> Reply:
        """The player's round in play (dealt now if they have none and the match runs)."""
        match = await self._match(match_id)
        mine = self._player(await self.store.matches.match_players(match_id), player)
        if mine is None or mine.left:
            raise NotInMatch(match_id, MatchAction.PLAY)
        if mine.game_id is not None:
            reply = await self.solo.board(mine.game_id, player)
            resumed = RoundDealt(match_id, reply.round or 0, reply.game.deal, resumed=True)
            return replace(reply, events=(resumed,))
        if match.status == MatchStatus.LOBBY:
            raise NotStarted()
        if match.status != MatchStatus.RUNNING:
            raise MatchClosed(match_id, match.status, MatchAction.PLAY)
        async with self._lock(match_id):
            return await self._deal_next_round(match, player)

    def deal_for_round(self, match: Match, round_number: int) -> int:
        """Round k's PySolFC game number: the same for every player of the match."""
        return random.Random(f"match {match.seed} round {round_number}").randint(1, 999_999_999)

    async def scoreboard(self, match_id: int) -> Scoreboard:
        """Where everyone stands, leader first."""
        match = await self._match(match_id)
        players = await self.store.matches.match_players(match_id)
        standings = await self._standings(match, players)
        winner = None
        if match.status == MatchStatus.FINISHED:
            key = match.winner_team_id if match.teams else match.winner_user_id
            winner = next((s for s in standings if s.key == key), None)
        teams = (await self.store.matches.list_teams(match.guild_id)
                 if match.teams and match.guild_id is not None else [])
        return Scoreboard(match, players, standings, winner, teams)

    async def attach_message(self, match_id: int, message_id: int) -> None:
        """Remember the channel message that shows the match's lobby and scoreboard."""
        await self.store.matches.set_match_message(match_id, message_id)

    async def expire_idle(self) -> list[Scoreboard]:
        """Expire matches with no move for 24 hours."""
        expired = []
        before = self.clock() - EXPIRE_AFTER
        for match in await self.store.matches.idle_matches(before):
            if await self.store.matches.expire_match(match.id, before, self.clock()):
                async with self._lock(match.id):
                    await self._close_rounds(match.id)
                expired.append(await self.scoreboard(match.id))
                await self._changed(match.id)
        return expired

    # --- the round's end: SoloPlay's finish hook ---------------------------------------------

    async def _round_finished(self, table: Table) -> tuple[Event, ...]:
        if table.kind != "match" or table.match_id is None:
            return ()
        match_id, player = table.match_id, Player(table.user_id, "")
        won_by: Scoreboard | None = None
        async with self._lock(match_id):
            await self.store.matches.touch_match(match_id, self.clock())
            board = await self.scoreboard(match_id)
            match = board.match
            mine = self._player(board.players, player)
            if match.status != MatchStatus.RUNNING or mine is None:
                return (MatchEnded(match_id, match.status),) if match.status != MatchStatus.RUNNING else ()
            ahead = next((s for s in board.standings if s.key == (mine.team_id if match.teams else mine.user_id)), None)
            team = ahead if match.teams and ahead is not None else None
            events: list[Event] = []
            next_round = None
            if ahead is not None and ahead.points >= match.target and not mine.left:
                winner_user = None if match.teams else mine.user_id
                winner_team = mine.team_id if match.teams else None
                if await self.store.matches.change_match_status(
                        match_id, MatchStatus.RUNNING, MatchStatus.FINISHED, self.clock(),
                        winner_user_id=winner_user, winner_team_id=winner_team):
                    await self._close_rounds(match_id)
                    won_by = await self.scoreboard(match_id)
                    events.append(MatchWon(teams=match.teams))
            elif not mine.left:
                await self._deal_next_round(match, Player(mine.user_id, mine.name))
                next_round = (table.round or 0) + 1
            events.insert(0, RoundScored(
                round=table.round or 0, score=table.game.score, total=mine.points,
                team=team.name if team else None, team_points=team.points if team else 0, target=match.target,
                next_round=next_round))
        if won_by is not None:
            for listener in self.listeners:
                await listener.match_won(won_by)
        await self._changed(match_id)
        return tuple(events)

    # --- helpers -----------------------------------------------------------------------------

    async def _deal_next_round(self, match: Match, player: Player) -> Reply:
        mine = self._player(await self.store.matches.match_players(match.id), player)
        if mine is not None and mine.game_id is not None:
            return await self.solo.board(mine.game_id, player)
        round_number = (mine.rounds if mine else 0) + 1
        cards = self.decks(match, round_number) if self.decks else None
        deal = None if cards else self.deal_for_round(match, round_number)
        return await self.solo.create(
            player, guild_id=match.guild_id, channel_id=match.channel_id, name=match.game, deal=deal, cards=cards,
            options=dict(match.options), kind="match", match_id=match.id, round=round_number,
            undo_allowed=match.undo, events=(RoundDealt(match.id, round_number, deal or None),))

    async def _close_rounds(self, match_id: int) -> None:
        """A match that ends takes its rounds in play with it: they end resigned, unscored (the
        final scoreboard is the one at the end), so that nobody plays on in a match that is over."""
        for game_id in await self.store.matches.close_match_rounds(match_id, self.clock()):
            self.solo.forget(game_id)

    async def _standings(self, match: Match, players: list[MatchPlayer]) -> list[Standing]:
        if not match.teams:
            lines = [Standing(p.user_id, p.name + (" (left)" if p.left else ""), p.points, p.rounds)
                     for p in players]
        else:
            lines = []
            for team_id, members in by_team(players).items():
                team = await self.store.matches.get_team(team_id)
                lines.append(Standing(team_id, team.name if team else f"team {team_id}",
                                      sum(m.points for m in members), sum(m.rounds for m in members),
                                      tuple(m.name for m in members)))
        return sorted(lines, key=lambda s: (-s.points, -s.rounds, s.name.lower()))

    async def _team_for(self, match: Match, player: Player, team_name: str | None) -> Team | None:
        if team_name is not None and not match.teams:
            raise NotATeamMatch(match.id)
        if not match.teams or match.guild_id is None:
            return None
        current = await self.store.matches.team_of(match.guild_id, player.id)
        if team_name is None:
            if current is None:
                raise NoTeamChosen()
            return current
        try:
            return await self.store.matches.join_team(match.guild_id, team_name, player.id)
        except TeamError as error:
            raise TeamRefused(error.problem, error.name) from None

    async def _match(self, match_id: int) -> Match:
        match = await self.store.matches.get_match(match_id)
        if match is None:
            raise NoSuchMatch(match_id)
        return match

    @staticmethod
    def _player(players: list[MatchPlayer], player: Player) -> MatchPlayer | None:
        return next((p for p in players if p.user_id == player.id), None)

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    async def _changed(self, match_id: int) -> None:
        for listener in self.listeners:
            await listener.scoreboard_changed(match_id)


class TeamPlay:
    """A server's teams: create, join, leave, and the list of them."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, guild_id: int, player: Player, name: str) -> Team:
        """A new team with its creator in it."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= TEAM_NAME_LENGTH:
            raise BadTeamName(1, TEAM_NAME_LENGTH)
        await self.store.games.upsert_player(player.id, player.name)
        return await self._refusing(self.store.matches.create_team(guild_id, name, player.id))

    async def join(self, guild_id: int, player: Player, name: str) -> Team:
        """Join a team (a member is in at most one team per server)."""
        await self.store.games.upsert_player(player.id, player.name)
        return await self._refusing(self.store.matches.join_team(guild_id, " ".join(name.split()), player.id))

    async def leave(self, guild_id: int, player: Player) -> Team:
        """Leave your team."""
        team = await self.store.matches.leave_team(guild_id, player.id)
        if team is None:
            raise NotInATeam()
        return team

    async def teams(self, guild_id: int) -> list[Team]:
        """The server's teams."""
        return await self.store.matches.list_teams(guild_id)

    async def rosters(self, guild_id: int) -> list[TeamRoster]:
        """The server's teams with their members' names."""
        teams = await self.store.matches.list_teams(guild_id)
        names = await self.store.games.player_names([member for team in teams for member in team.members])
        return [TeamRoster(team.name, tuple(names.get(m, str(m)) for m in team.members)) for team in teams]

    @staticmethod
    async def _refusing(action: Awaitable[Team]) -> Team:
        """The team `action` gives; the store's team error as the player's refusal."""
        try:
            return await action
        except TeamError as error:
            raise TeamRefused(error.problem, error.name) from None
