"""Demon races, independent of Discord: a lobby, the start, each player's moves in the order
received, the end, and the results.

The engine (`bot.game.race`) holds the rules; this layer keeps each race's engine in memory,
rebuilt from the stored moves when needed, changes it only under the race's lock and one move
at a time, and stores every accepted move before the player hears of it. Listeners hear of each
change (the public board) and of each end (the announcement).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from bot.game import Card, IllegalMoveError, NotationError, parse_move
from bot.game.race import MIN_PLAYERS, RACE_LAYOUTS, BeatenError, RaceGame
from bot.play.errors import (
    AlreadyRacing,
    DamagedRace,
    ElsewhereRace,
    MoveCapReached,
    NoRaceHere,
    NoSuchRace,
    NotInRace,
    NotRaceHost,
    RaceChanged,
    RaceFull,
    RaceNotRunning,
    RaceUnderWay,
    TargetOutOfRange,
    TooFewRacers,
    UnknownLayout,
)
from bot.play.events import (
    Beaten,
    Event,
    Moved,
    NothingToDo,
    RaceCancelled,
    RaceEnded,
    RaceJoined,
    RaceOpened,
    RaceStarted,
    Refused,
    SeriesGoesOn,
    SeriesWon,
)
from bot.play.matches import EXPIRE_AFTER
from bot.play.settings import MAX_TARGET
from bot.play.solo import MOVE_CAP, Player, check_deal_number, check_limit
from bot.play.work import RateLimiter, Work
from bot.store import Store, VersionConflict
from bot.store.base import NewRace, Race, RaceError

MOVE_ATTEMPTS = 10  # a move that meets another process's move is tried again on the stored race
log = logging.getLogger(__name__)
DEAL_RANGE = 999_999_999


@dataclass(frozen=True, slots=True)
class RaceReply:
    """What a player sees after an action: the race as stored, its engine, their seat (None for
    someone not in it), what happened (events, in order), and whether the action was done."""

    race: Race
    game: RaceGame | None
    seat: int | None
    events: tuple[Event, ...] = ()
    ok: bool = True
    beaten: bool = False

    @property
    def seen(self) -> int:
        """How many race moves this board shows (the buttons carry it)."""
        return len(self.race.moves)


class RaceStatus(StrEnum):
    """Where a race stands; the store keeps the value."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


# --- what happened: events, for a presenter to word ------------------------------------------


# Every event a RaceReply carries, and a race's summary (RaceEnded, SeriesWon, SeriesGoesOn).


# --- refusals -----------------------------------------------------------------------------------


class RaceListener:
    """Hears of races changing; the Discord layer keeps the public boards up to date."""

    async def race_changed(self, race_id: int) -> None:
        """A race's lobby, board or status changed."""

    async def race_finished(self, race: Race, game: RaceGame, summary: tuple[Event, ...]) -> None:
        """A race (a hand of a series) has just ended; `summary` says how: RaceEnded, then in a
        series SeriesWon or SeriesGoesOn."""


class RacePlay:
    """Everything players do in races."""

    def __init__(self, store: Store, clock: Callable[[], float], rng: random.Random | None = None,
                 decks: Callable[[Race], list[list[str]] | None] | None = None, *, work: Work | None = None,
                 limits: RateLimiter | None = None) -> None:
        self.store = store
        self.clock = clock
        self.work = work or Work()  # where the searches for the end of a race run
        self.limits = limits or RateLimiter()
        self.decks = decks  # tests deal chosen decks; None: every player's deck from the race's number
        self.rng = rng or random.SystemRandom()
        self.listeners: list[RaceListener] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._games: dict[int, RaceGame] = {}

    # --- the lobby ---------------------------------------------------------------------

    async def open(self, host: Player, *, guild_id: int | None, channel_id: int, layout: str = "klondike",
                   deal: int | None = None, target: int | None = None) -> RaceReply:
        """Open a race in a channel, its host seated: one hand, or with `target` a series of
        hands until someone's points reach it. UnknownLayout, TargetOutOfRange, DealTooLarge;
        AlreadyRacing for a race already under way here for the host; RateLimited when the host has opened too many
        lobbies lately."""
        if layout not in RACE_LAYOUTS:
            raise UnknownLayout(layout)
        if target is not None and not 1 <= target <= MAX_TARGET:
            raise TargetOutOfRange(target, MAX_TARGET)
        check_deal_number(deal)
        if await self.store.races.running_race(channel_id, host.id) is not None:
            raise AlreadyRacing()
        check_limit(self.limits, host.id, "lobby")
        await self.store.games.upsert_player(host.id, host.name)
        deal = deal if deal is not None else self.rng.randint(1, DEAL_RANGE)
        race = await self.store.races.create_race(NewRace(guild_id, channel_id, host.id, layout, deal, target))
        return RaceReply(race, None, 0, (RaceOpened(race.id),))

    async def join(self, race_id: int, player: Player) -> RaceReply:
        """Seat a player in a race's lobby; AlreadyRacing when they are in another race (in its
        lobby or running) in that channel already: a player races once at a time in a channel."""
        race = await self._race(race_id)
        current = await self.store.races.running_race(race.channel_id, player.id)
        if current is not None and current.id != race_id:
            raise AlreadyRacing(current.id)
        await self.store.games.upsert_player(player.id, player.name)
        try:
            race = await self.store.races.join_race(race_id, player.id)
        except RaceError as error:
            raise RaceFull(full=error.full, seats=error.seats) from None
        await self._changed(race_id)
        return RaceReply(race, None, race.players.index(player.id), (RaceJoined(race_id),))

    async def start(self, race_id: int, player: Player) -> RaceReply:
        """Deal: the host starts a race with two players or more."""
        race = await self._race(race_id)
        if player.id != race.host_id:
            raise NotRaceHost("start")
        if race.status != RaceStatus.LOBBY:
            raise RaceUnderWay()
        if len(race.players) < MIN_PLAYERS:
            raise TooFewRacers(MIN_PLAYERS)
        await self.store.races.start_race(race_id)
        events: tuple[Event, ...] = (RaceStarted(),)
        game = await self._game(await self._race(race_id))
        # Nobody can move at the deal: nobody is left waiting either.
        if await self.work.engine(player.id, _finished, game):
            await self.store.races.finish_race(race_id, demon_user_id=None, scores=game.scores)
            events += (ending(await self._race(race_id), game),)
        await self._changed(race_id)
        return await self.board(race_id, player, events=events)

    async def cancel(self, race_id: int, player: Player) -> RaceReply:
        """The host cancels a race that has not started."""
        race = await self._race(race_id)
        if player.id != race.host_id:
            raise NotRaceHost("cancel")
        if not await self.store.races.cancel_race(race_id):
            raise RaceUnderWay()
        await self._changed(race_id)
        return RaceReply(await self._race(race_id), None, 0, (RaceCancelled(race_id),))

    async def check_place(self, race_id: int, guild_id: int | None, channel_id: int | None) -> None:
        """ElsewhereRace unless the race is run in this server and channel: its buttons act there
        alone, whoever presses them."""
        race = await self._race(race_id)
        if (race.guild_id, race.channel_id) != (guild_id, channel_id):
            raise ElsewhereRace(race_id)

    # --- playing -----------------------------------------------------------------------

    async def board(self, race_id: int, player: Player, *, events: tuple[Event, ...] = ()) -> RaceReply:
        """A player's view of a race."""
        race = await self._race(race_id)
        seat = race.players.index(player.id) if player.id in race.players else None
        game = None if race.status in (RaceStatus.LOBBY, RaceStatus.CANCELLED) else await self._game(race)
        return RaceReply(race, game, seat, events)

    async def running(self, player: Player, channel_id: int) -> RaceReply:
        """The player's race in this channel; NoRaceHere when there is none."""
        race = await self.store.races.running_race(channel_id, player.id)
        if race is None:
            raise NoRaceHere()
        return await self.board(race.id, player)

    async def move(self, race_id: int, player: Player, text: str, *, seen: int | None = None) -> RaceReply:
        """Play a player's moves, in the order received; stored before the answer. A card that
        another player got to a foundation first is refused with `beaten` set. MoveCapReached,
        and nothing played, when the moves would take the player past MOVE_CAP moves."""
        for attempt in range(MOVE_ATTEMPTS - 1):
            try:
                return await self._move_once(race_id, player, text, seen)
            except VersionConflict:
                # Another process stored a move of this race first: replay the stored race and
                # try again on it (after a short random pause, so that the two drift apart).
                self._games.pop(race_id, None)
                await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))
        try:
            return await self._move_once(race_id, player, text, seen)
        except VersionConflict:
            raise RaceChanged() from None

    async def _move_once(self, race_id: int, player: Player, text: str, seen: int | None) -> RaceReply:
        async with self._lock(race_id):
            race = await self._race(race_id)
            if player.id not in race.players:
                raise NotInRace()
            if race.status != RaceStatus.RUNNING:
                raise RaceNotRunning(race.status)
            seat = race.players.index(player.id)
            game = await self._game(race)
            if _moves_of(game, seat) >= MOVE_CAP:
                raise MoveCapReached(MOVE_CAP)
            before = len(game.history)
            events: list[Event] = []
            refusal: Event | None = None
            try:
                played = game.play(seat, text, seen=seen)
            except (IllegalMoveError, NotationError) as error:
                played = getattr(error, "played", [])
                refusal = Refused(error)
                if isinstance(error, BeatenError) and error.card is not None:
                    refusal = Beaten(error.card, (await self.names(race))[error.owner])
            ok, beaten = refusal is None, isinstance(refusal, Beaten)
            if _moves_of(game, seat) > MOVE_CAP:
                self._games.pop(race_id, None)  # our copy holds moves that are refused: replay the stored race
                raise MoveCapReached(MOVE_CAP)
            if len(game.history) > before:
                moves = race.moves + [f"{seat}:{move}" for _, move in game.history[before:]]
                try:
                    await self.store.races.save_race_moves(race_id, expected_version=race.version, moves=moves)
                except VersionConflict:
                    self._games.pop(race_id, None)  # our copy holds a move that was never stored
                    raise
                if await self.work.engine(player.id, _finished, game):
                    await self.store.races.finish_race(race_id, demon_user_id=None if game.demon is None
                                                       else race.players[game.demon], scores=game.scores)
                race = await self._race(race_id)
                if ok:
                    events.append(Moved(played=tuple(played)))
            elif ok:
                events.append(NothingToDo())
            if refusal is not None:
                events.append(refusal)
            changed = len(game.history) > before
            just_ended = race.status == RaceStatus.FINISHED and changed
            summary, shown = await self._series(race, game) if just_ended else ((), race_id)
            if race.status == RaceStatus.FINISHED:
                events += summary or (ending(race, game),)
        if changed:  # a refused or unreadable move leaves the public board as it is: no redraw
            await self._changed(shown)  # the public message shows the next hand once there is one
        if just_ended:
            await self._finished(race, game, summary)
        return RaceReply(race, game, seat, tuple(events), ok=ok, beaten=beaten)

    async def _series(self, race: Race, game: RaceGame) -> tuple[tuple[Event, ...], int]:
        """The end of a hand: the hand's result, and in a series the totals, then the next hand
        (dealt at once, shown in the same public message) or the series' winner; with the race
        the public message should show now."""
        said = ending(race, game)
        if race.target is None:
            return (said,), race.id
        totals = await self.store.races.series_totals(race.series_id)
        standings = tuple((user, totals.get(user, 0)) for user in race.players)
        best = max(race.players, key=lambda user: (totals.get(user, 0), user == race.demon_user_id))
        if totals.get(best, 0) >= race.target:
            return (said, SeriesWon(best, totals[best], race.target, standings)), race.id
        following = await self.store.races.next_hand(race, self.rng.randint(1, DEAL_RANGE))
        return (said, SeriesGoesOn(race.hand, standings, race.target, following.hand)), following.id

    async def expire_idle(self) -> list[Race]:
        """End the races with no change for 24 hours (`EXPIRE_AFTER`, as for matches), so that
        their players can open new ones: a lobby is cancelled; a running race (a series too)
        ends with the scores as they stand, nobody having gone out. Each end is one statement
        conditional on the version found idle, so a move meanwhile, in any process, keeps the
        race going. The races ended, as stored."""
        ended = []
        for idle in await self.store.races.idle_races(self.clock() - EXPIRE_AFTER):
            try:  # one race that cannot be ended must not keep the others going
                race = await self._expire(idle)
            except Exception:
                log.exception("could not end idle race %s", idle.id)
                continue
            if race is not None:
                ended.append(race)
        return ended

    async def _expire(self, idle: Race) -> Race | None:
        """End one idle race (see `expire_idle`); the race as stored, or None when it moved meanwhile.
        A damaged race ends with no scores counted, so that its players are free again."""
        game = None
        async with self._lock(idle.id):
            if idle.status == RaceStatus.LOBBY:
                done = await self.store.races.cancel_race(idle.id, version=idle.version)
            else:
                try:
                    game = await self._game(idle)
                    points = game.scores
                except DamagedRace as error:
                    log.warning("ending idle race %s without scores: move %r: %s", idle.id, error.entry,
                                error.problem)
                    points = [0] * len(idle.players)
                done = await self.store.races.finish_race(idle.id, demon_user_id=None, scores=points,
                                                          version=idle.version)
        if not done:
            return None
        race = await self._race(idle.id)
        await self._changed(race.id)
        if game is not None:
            await self._finished(race, game, (RaceEnded(None, _scores(race, game), expired=True),))
        return race

    async def names(self, race: Race) -> list[str]:
        """The players' names by seat."""
        known = await self.store.games.player_names(race.players)
        return [known.get(user, f"player {seat + 1}") for seat, user in enumerate(race.players)]

    async def attach_message(self, race_id: int, message_id: int) -> None:
        """Remember the race's public board message."""
        await self.store.races.set_race_message(race_id, message_id)

    # --- inside ------------------------------------------------------------------------

    async def _race(self, race_id: int) -> Race:
        race = await self.store.races.get_race(race_id)
        if race is None:
            raise NoSuchRace(race_id)
        return race

    async def _game(self, race: Race) -> RaceGame:
        """The race's engine, replayed from its stored moves when this process has not got it.
        DamagedRace when the stored moves cannot be replayed."""
        game = self._games.get(race.id)
        if game is None or len(game.history) != len(race.moves):
            chosen = self.decks(race) if self.decks else None
            decks = None if chosen is None else [[Card.parse(card) for card in deck] for deck in chosen]
            game = RaceGame(race.deal, len(race.players), race.layout, decks)
            for entry in race.moves:
                seat, _, text = entry.partition(":")
                try:
                    game.play(int(seat), parse_move(text))
                except (ValueError, IndexError) as error:
                    raise DamagedRace(race.id, entry, str(error)) from None
            self._games[race.id] = game
        return game

    async def _finished(self, race: Race, game: RaceGame, summary: tuple[Event, ...]) -> None:
        for listener in self.listeners:
            try:
                await listener.race_finished(race, game, summary)
            except Exception:
                log.exception("a race listener failed")

    def _lock(self, race_id: int) -> asyncio.Lock:
        return self._locks.setdefault(race_id, asyncio.Lock())

    async def _changed(self, race_id: int) -> None:
        for listener in self.listeners:
            try:
                await listener.race_changed(race_id)
            except Exception:
                log.exception("a race listener failed")


def _finished(game: RaceGame) -> bool:
    """Whether the race is over (a search of every player's moves: in an engine thread)."""
    return game.finished


def _moves_of(game: RaceGame, seat: int) -> int:
    """How many moves the player in `seat` has made in the race."""
    return sum(1 for player, _ in game.history if player == seat)


def ending(race: Race, game: RaceGame) -> RaceEnded:
    """The end of a race: who went out (if anyone), and the scores by seat."""
    demon = race.players[game.demon] if game.demon is not None else None
    return RaceEnded(demon, _scores(race, game))


def _scores(race: Race, game: RaceGame) -> tuple[tuple[int, int], ...]:
    """Every player's (user id, score), by seat."""
    return tuple(zip(race.players, game.scores, strict=True))
