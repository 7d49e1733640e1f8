"""Solo games: what a player does, whatever the front end (Discord, the terminal).

Every change goes the same way: under the game's lock, apply it to the game, store the new
moves and state (one version on), and only then answer. A game is rebuilt from the store on
demand and kept in a small cache; the store is the truth.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.game import (
    GAMES,
    Game,
    Hint,
    IllegalMoveError,
    Move,
    NotationError,
    Outcome,
    SnapshotError,
    from_record,
    from_snapshot,
    new_game,
    to_snapshot,
)
from bot.game.games import RACE
from bot.game.notation import Action, ActionCommand
from bot.game.solver import NATIVE, GaveUp, covers, solve
from bot.play.days import utc_day
from bot.play.errors import (
    BadOptions,
    ChangedElsewhere,
    DamagedGame,
    DealTooLarge,
    ElsewhereGame,
    GameOver,
    MoveCapReached,
    NoGameHere,
    NotASoloGame,
    NotYourGame,
    RateLimited,
    UndoOff,
    UnknownGame,
)
from bot.play.events import (
    AlreadyPlaying,
    Ended,
    Event,
    Hinted,
    HintNotAlone,
    Moved,
    NothingToDo,
    NoVerdict,
    Refused,
    Started,
    Verdict,
)
from bot.play.replies import DealLabel, GameStatus, Reply
from bot.play.secrecy import Secrecy
from bot.play.work import Busy, RateLimiter, Work
from bot.store import NewGame, Store, StoredGame, VersionConflict

# Games kept in memory, most recently used first. It must hold every game in play at once: a
# miss costs a store read and a rebuild (about 1 ms of CPU, and a database round trip) on the move's
# path. A game takes some tens of KB; 2048 fit in well under 100 MB.
DEFAULT_CACHE = 2048
# Positions the solver may look at for the end-of-game verdict: about 2 s either way (the C
# search looks at some 800,000 positions a second, the Python one some 45,000).
VERDICT_LIMIT = 1_500_000 if NATIVE else 60_000
# The store keeps a deal number in a 64-bit integer, though PySolFC numbers deals up to 10**20.
MAX_STORED_DEAL = 2**63 - 1
# Positions a move's outcome search may look at in the engine thread (some 10 ms, holding the
# GIL); one that needs more goes on in a search process (see bot.play.work).
QUICK_SEARCH = 500
VERDICTS_KEPT = 1024  # deals whose verdict is kept, so that the same deal is not searched again
# The most moves a game may hold: each one keeps the position before it (about 1 KB, 1.7 KB
# with two decks), and a game is rebuilt by replaying them.
MOVE_CAP = 2_000
# What the cache may hold, in bytes as estimated from the moves: a game without moves is some
# 10 KB in memory, and each move adds up to MOVE_BYTES.
CACHE_BYTES = 128 * 1024 * 1024
GAME_BYTES = 16 * 1024
MOVE_BYTES = 2 * 1024
NOTHING_TO_DO = NothingToDo()  # what a text that changed nothing did, unless told otherwise


def check_deal_number(deal: int | None) -> None:
    """DealTooLarge when a deal number is larger than the store can keep (MAX_STORED_DEAL); the
    engine itself says which numbers PySolFC deals."""
    if deal is not None and deal > MAX_STORED_DEAL:
        raise DealTooLarge(deal, MAX_STORED_DEAL)


def check_limit(limits: RateLimiter, member_id: int, action: str, place: int | None = None, *,
                now: float | None = None) -> None:
    """Count one `action` of the member (in `place`, at `now`: RateLimiter.check); RateLimited
    when they have had their share."""
    retry_after = limits.check(member_id, action, place, now=now)
    if retry_after:
        raise RateLimited(action, retry_after)


@dataclass(frozen=True, slots=True)
class Player:
    """Who is playing: a Discord user, or the terminal's player."""

    id: int
    name: str


def label_of(game: StoredGame) -> DealLabel:
    """The label of a stored game's deal (a daily's day is the UTC date it began)."""
    return _label(game.kind, game.deal, game.created_at, game.match_id, game.round)


def _label(kind: str, deal: int | None, created_at: float, match_id: int | None, round: int | None) -> DealLabel:
    if kind == "daily":
        return DealLabel(day=utc_day(created_at))
    if kind == "match" and match_id is not None and round is not None:
        return DealLabel(match_id=match_id, round=round)
    return DealLabel(number=deal)


@dataclass(slots=True)
class Table:
    """A game in play with what the store knows of it."""

    id: int
    user_id: int
    guild_id: int | None
    channel_id: int | None
    version: int
    status: GameStatus
    game: Game
    kind: str = "solo"
    match_id: int | None = None
    round: int | None = None
    undo_allowed: bool = True
    hint: Hint | None = None  # the last hint worked out, while the player may be following it
    label: DealLabel = field(default_factory=DealLabel)


class SoloPlay:
    """Start, play, undo, hint and resign solo games, every change stored before it is told."""

    def __init__(self, store: Store, *, cache_size: int = DEFAULT_CACHE, cache_bytes: int = CACHE_BYTES,
                 work: Work | None = None, limits: RateLimiter | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.secrecy: Secrecy = Secrecy(store, clock)
        self.cache_size = cache_size
        self.cache_bytes = cache_bytes
        self.work = work or Work()
        self.limits = limits or RateLimiter()
        # Called once when a game ends (won, blocked or resigned), after it is stored; each
        # returns events to add to the player's answer (matches use it to score rounds, reviews
        # to start the analysis of a lost game).
        self.finish_hooks: list[Callable[[Table], Awaitable[tuple[Event, ...]]]] = []
        self._tables: OrderedDict[int, Table] = OrderedDict()
        self._sizes: dict[int, int] = {}  # estimated bytes of each cached game
        self._cached_bytes = 0
        self._locks: dict[int, asyncio.Lock] = {}
        self._verdicts: OrderedDict[tuple[str, str, str], str] = OrderedDict()  # deal -> solver status
        # Changes stored, by kind: "move" (a move, or several typed at once) and "undo" (the bot's metrics read it).
        self.changes: Counter[str] = Counter()

    def playing(self) -> int:
        """How many of the games in the cache are still being played: the unfinished games played
        lately (the cache keeps the most recently used)."""
        return sum(1 for table in self._tables.values() if table.status is GameStatus.PLAYING)

    # --- starting and finding games ----------------------------------------------------

    async def start(self, player: Player, *, guild_id: int | None, channel_id: int | None,
                    name: str = "canfield", deal: int | None = None, **options: object) -> Reply:
        """A new solo game for the player in this channel, or the one already running there.
        UnknownGame for an unknown game, BadOptions for options its rules refuse."""
        running = await self.store.games.running_version(player.id, channel_id, kind="solo")
        if running is not None:
            table = await self._table(*running)
            return self._reply(table, AlreadyPlaying())
        return await self.create(player, guild_id=guild_id, channel_id=channel_id, name=name, deal=deal,
                                 options=options)

    async def create(self, player: Player, *, guild_id: int | None, channel_id: int | None, name: str,
                     deal: int | None, options: dict[str, object], kind: str = "solo", match_id: int | None = None,
                     round: int | None = None, undo_allowed: bool = True, events: tuple[Event, ...] = (Started(),),
                     cards: list[str] | None = None, created_at: float | None = None) -> Reply:
        """Store a new game (a PySolFC deal, or an explicit deck) and return its first board:
        for solo games, matches' rounds and dailies, with `events` to tell (`created_at`: its
        time, by default the store's now). RateLimited when the player has started too many
        games lately; DealIsLive (bot/play/secrecy.py) for a solo game on a live deal's cards."""
        if name == RACE:
            raise NotASoloGame(name)
        if name not in GAMES:
            raise UnknownGame(name)
        check_deal_number(deal)
        check_limit(self.limits, player.id, "new-game")
        try:
            game = new_game(name, deal=deal, cards=cards, **options)
        except ValueError as error:  # an option or deck the game's rules refuse
            raise BadOptions.of(error) from None
        if kind == "solo":
            await self.secrecy.check_copy(game.name, game.deal)
        await self.store.games.upsert_player(player.id, player.name)
        stored = await self.store.games.create_game(NewGame(
            guild_id=guild_id, channel_id=channel_id, user_id=player.id, name=game.name, options=game.options,
            deal=game.deal, cards=None if game.deal is not None else "".join(map(str, game.cards)),
            snapshot=to_snapshot(game), score=game.score, kind=kind, match_id=match_id, round=round,
            undo_allowed=undo_allowed, foundation_cards=game.foundation_cards, created_at=created_at,
        ))
        table = self._remember(_table_from(stored, game))
        return self._reply(table, *events, started=True)

    async def running(self, player: Player, channel_id: int | None) -> Reply:
        """The player's game in this channel; NoGameHere when there is none."""
        return await self.board(await self.running_id(player, channel_id), player)

    async def running_id(self, player: Player, channel_id: int | None) -> int:
        """The id of the player's game in this channel (its copy here up to date with the store's,
        so that a move made on it is not refused as stale); NoGameHere when there is none."""
        running = await self.store.games.running_version(player.id, channel_id)
        if running is None:
            raise NoGameHere()
        return (await self._table(*running)).id

    async def board(self, game_id: int, player: Player) -> Reply:
        """The game as it stands, for its owner."""
        table = await self._table(game_id)
        self._check_owner(table, player)
        return self._reply(table)

    async def look(self, game_id: int, *events: Event) -> Reply:
        """The game as it stands, for anyone (a watcher, bot.play.watch, decides who may look)."""
        return self._reply(await self._table(game_id), *events)

    async def check_here(self, game_id: int, channel_id: int | None) -> None:
        """ElsewhereGame when game `game_id` is played in another channel than `channel_id`: a
        button that shows a game acts only where the game is played."""
        if (await self._table(game_id)).channel_id != channel_id:
            raise ElsewhereGame(game_id)

    # --- changing games ----------------------------------------------------------------

    async def move(self, game_id: int, player: Player, text: str, *, version: int | None = None) -> Reply:
        """Play moves given as text (any notation of docs/notation.md, several at once).

        With `version` (a button's), a board that is out of date is not played on: the reply
        is the current board, marked stale.
        """
        table = await self._table(game_id)
        try:
            commands = table.game.read(text)
        except NotationError as error:
            self._check_owner(table, player)
            return self._reply(table, Refused(error), ok=False)
        undoes = any(isinstance(c, ActionCommand) and c.action is Action.UNDO for c in commands)
        if undoes and not table.undo_allowed:
            self._check_owner(table, player)
            raise UndoOff(in_text=True)
        if len(commands) == 1 and undoes:
            return await self.undo(game_id, player, version=version)
        if any(isinstance(c, ActionCommand) and c.action is Action.HINT for c in commands):
            if len(commands) > 1:
                return self._reply(table, HintNotAlone(), ok=False)
            return await self.hint(game_id, player)
        await self._check_room(game_id, player, commands)
        nothing = NothingToDo(auto=text.strip().lower() in ("a", "auto"))
        return await self._change(game_id, player, version, lambda game: game.play(text), nothing=nothing)

    async def play(self, game_id: int, player: Player, move: Move, *, version: int | None = None) -> Reply:
        """Play one Move (a button's two-tap)."""
        return await self._change(game_id, player, version, lambda game: game.play(move))

    async def undo(self, game_id: int, player: Player, *, version: int | None = None) -> Reply:
        """Take back the last move."""
        def take_back(game: Game) -> list[Move]:
            game.undo()
            return []
        table = await self._table(game_id)
        if not table.undo_allowed and table.user_id == player.id:
            raise UndoOff()
        return await self._change(game_id, player, version, take_back, undoing=True)

    async def resign(self, game_id: int, player: Player, *, version: int | None = None) -> Reply:
        """End the game now; its score stands."""
        async with self._lock(game_id):
            table, stale = await self._ready(game_id, player, version)
            if stale:
                return stale
            table = await self._save(table, GameStatus.RESIGNED)
            return self._reply(table, Ended(GameStatus.RESIGNED, table.game.score), *await self._finished(table))

    async def abandon_damaged(self, player: Player, channel_id: int | None) -> int | None:
        """Set aside the player's game in this channel when it is damaged in storage (stored as
        resigned, its record kept as it is), so that they can start another; its id. None, and
        nothing changes, when they have no game here or it can be rebuilt."""
        stored = await self.store.games.running_game(player.id, channel_id)
        if stored is None:
            return None
        async with self._lock(stored.id):
            try:
                await self._table(stored.id)
                return None
            except DamagedGame:
                pass
            try:
                await self.store.games.save_game(stored.id, expected_version=stored.version, moves=stored.moves,
                                                 snapshot=stored.snapshot, status=GameStatus.RESIGNED,
                                                 score=stored.score, foundation_cards=stored.foundation_cards)
            except VersionConflict:
                raise ChangedElsewhere(setting_aside=True) from None
        return stored.id

    async def hint(self, game_id: int, player: Player) -> Reply:
        """The next move besides draws, with the draws before it; the board outlines its next
        step (the stock while draws are left); nothing changes. A hint is searched for in a
        search process, counted against the player's "hint" limit (RateLimited when they have
        had their share lately) and counted in the store (the share card and clean wins tell
        that hints were used). Asked again on the same board, or after some of its draws, it
        is the rest of the same hint: no search, no count, nothing stored. After any other
        move (or when no move was left to suggest) it is a new hint."""
        async with self._lock(game_id):
            table = await self._table(game_id)
            self._check_owner(table, player)
            self._check_playing(table)
            if table.kind == "solo":  # a copy of a live deal gets no hint: it is the solver's
                await self.secrecy.check_solver(table)
            hint = table.hint.rest(table.game.position) if table.hint else None
            if hint is None:
                check_limit(self.limits, player.id, "hint")
                hint = table.hint = await self.work.search(player.id, _hint, table.game)
                await self.store.games.count_hint(game_id)  # the share card and clean wins tell if hints were used
        return self._reply(table, Hinted(hint), highlight=None if hint is None else hint.next_move)

    # --- the one path every change takes ------------------------------------------------

    async def _change(self, game_id: int, player: Player, version: int | None, action,
                      undoing: bool = False, nothing: NothingToDo = NOTHING_TO_DO) -> Reply:
        async with self._lock(game_id):
            table, stale = await self._ready(game_id, player, version)
            if stale:
                return stale
            before = list(table.game.moves)
            # Carried out on a copy in an engine thread: the cached game stays as it was for
            # boards shown meanwhile, and when the change is refused.
            game = table.game.copy()
            try:
                played, error, settled = await self.work.engine(player.id, _carry_out, game, action)
            except NotationError as problem:
                return self._reply(table, Refused(problem), ok=False)
            if game.moves == before:
                return self._reply(table, Refused(error) if error else nothing, ok=False)
            if len(game.moves) > max(MOVE_CAP, len(before)):
                raise MoveCapReached(MOVE_CAP)
            if not settled:
                game = await self.work.search(player.id, _with_outcome, game)
            status = {Outcome.WON: GameStatus.WON, Outcome.BLOCKED: GameStatus.BLOCKED,
                      None: GameStatus.PLAYING}[game.outcome]
            table.game = game
            try:
                table = await self._save(table, status, taken_back=len(_changes(before, game.moves).took_back))
            except BaseException:
                self._forget(game_id)  # the in-memory game is ahead of the store: rebuild it
                raise
            self._remember(table)  # its size has changed
            self.changes["undo" if undoing else "move"] += 1
            if error:  # some of the text was carried out before the error: say what stands
                events: list[Event] = [_changes(before, game.moves), Refused(error)]
            elif undoing:
                events = [Moved(took_back=(before[-1],))]
            else:
                events = [Moved(played=tuple(played))]
            if status != GameStatus.PLAYING:
                events += [Ended(status, game.score), *await self._finished(table)]
            return self._reply(table, *events, ok=error is None, played=played)

    async def _finished(self, table: Table) -> list[Event]:
        """What to add when a game has just ended: whether its deal could be won with every card
        known (unless it was won), and the finish hooks' events."""
        verdict = None
        if table.status != GameStatus.WON and not (table.kind == "solo" and await self.secrecy.live(table)):
            verdict = await self._verdict(table.game, table.user_id)  # never of a copy of a live deal
        events: list[Event] = [] if verdict is None else [verdict]
        for hook in self.finish_hooks:
            events += await hook(table)
        return events

    async def _verdict(self, game: Game, member_id: int) -> Verdict | NoVerdict | None:
        """Whether the game's deal could be won with every card known (the solver, in the
        verdict thread, within VERDICT_LIMIT positions; kept for VERDICTS_KEPT deals); None
        for games the solver does not cover, when the verdict thread is busy, or when it gave up.
        A member who has had their share of verdicts lately gets NoVerdict."""
        if not covers(game):
            return None
        deal = (game.name, repr(sorted(game.options.items())), "".join(map(str, game.cards)))
        status = self._verdicts.get(deal)
        if status is None:
            if self.limits.check(member_id, "verdict"):
                return NoVerdict()
            fresh = game.restarted()
            try:
                status = (await self.work.verdict(member_id, solve, fresh, limit=VERDICT_LIMIT)).status
            except Busy:
                return None
            self._verdicts[deal] = status
            while len(self._verdicts) > VERDICTS_KEPT:
                self._verdicts.popitem(last=False)
        self._verdicts.move_to_end(deal)
        if status in ("winnable", "unwinnable"):
            return Verdict(winnable=status == "winnable")
        return None

    async def _ready(self, game_id: int, player: Player, version: int | None) -> tuple[Table, Reply | None]:
        """The game, checked for a change (its owner, in play); with the current board as a
        stale reply instead when the player's board is out of date."""
        table = await self._table(game_id)
        if version is not None and version != table.version:
            # A button from a board this process did not draw (another process played the game,
            # or ours is behind): read the stored game before calling the button out of date.
            self._forget(game_id)
            table = await self._table(game_id)
        self._check_owner(table, player)
        stale = self._stale(table, version)
        if stale is None:
            self._check_playing(table)
        return table, stale

    async def _save(self, table: Table, status: GameStatus, taken_back: int = 0) -> Table:
        """Store the table's game as it stands, with `status`, counting `taken_back` more moves
        taken back."""
        game = table.game
        try:
            stored = await self.store.games.save_game(
                table.id, expected_version=table.version, moves=[str(m) for m in game.moves],
                snapshot=to_snapshot(game), status=status, score=game.score, foundation_cards=game.foundation_cards,
                taken_back=taken_back)
        except VersionConflict:
            # Another process moved first: drop our copy; the player sees the stored game.
            self._forget(table.id)
            raise ChangedElsewhere() from None
        table.version, table.status = stored.version, GameStatus(stored.status)
        return table

    # --- helpers -----------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _table(self, game_id: int, version: int | None = None) -> Table:
        """The game, from the cache when it holds it (at `version`, the stored one, when that is
        known), else read from the store and rebuilt."""
        table = self._tables.get(game_id)
        if table is not None and (version is None or table.version == version):
            self._tables.move_to_end(game_id)
            return table
        stored = await self.store.games.get_game(game_id)
        if stored is None:
            raise NoGameHere(game_id)
        return self._remember(_table_from(stored, rebuild(stored)))

    def _remember(self, table: Table) -> Table:
        """Keep the table in the cache, most recently used; the least recently used go while the
        cache holds more than `cache_size` games or `cache_bytes` (the newest always stays)."""
        self._forget(table.id)
        self._tables[table.id] = table
        self._sizes[table.id] = size = GAME_BYTES + MOVE_BYTES * len(table.game.history)
        self._cached_bytes += size
        while len(self._tables) > 1 and (len(self._tables) > self.cache_size
                                          or self._cached_bytes > self.cache_bytes):
            old_id = next(iter(self._tables))
            self._forget(old_id)
            lock = self._locks.get(old_id)
            if lock is not None and not lock.locked():
                del self._locks[old_id]
        return table

    def forget(self, game_id: int) -> None:
        """Drop this process's copy of a game changed in the store by someone else (a match that
        ended closes its rounds): the next action reads the stored game."""
        self._forget(game_id)

    def _forget(self, game_id: int) -> None:
        self._tables.pop(game_id, None)
        self._cached_bytes -= self._sizes.pop(game_id, 0)

    async def _check_room(self, game_id: int, player: Player, commands: list) -> None:
        """MoveCapReached before anything is played when the commands ask for more moves than
        the game may still take (each command but an undo plays one move at least), so that a
        text of thousands of moves costs no more than reading it."""
        table = await self._table(game_id)
        self._check_owner(table, player)
        undos = sum(1 for c in commands if isinstance(c, ActionCommand) and c.action is Action.UNDO)
        if len(commands) - 2 * undos > MOVE_CAP - len(table.game.moves):
            raise MoveCapReached(MOVE_CAP)

    @staticmethod
    def _check_owner(table: Table, player: Player) -> None:
        if table.user_id != player.id:
            raise NotYourGame()

    @staticmethod
    def _check_playing(table: Table) -> None:
        if table.status != GameStatus.PLAYING:
            raise GameOver(table.status, table.game.score)

    def _stale(self, table: Table, version: int | None) -> Reply | None:
        if version is None or version == table.version:
            return None
        return self._reply(table, ok=False, stale=True)

    @staticmethod
    def _reply(table: Table, *events: Event, ok: bool = True, played: list[Move] | None = None,
               highlight: Move | None = None, stale: bool = False, started: bool = False) -> Reply:
        return Reply(game_id=table.id, version=table.version, status=table.status, game=table.game.copy(),
                     events=events, ok=ok, played=played or [], highlight=highlight, stale=stale, started=started,
                     kind=table.kind, match_id=table.match_id, round=table.round, undo_allowed=table.undo_allowed,
                     user_id=table.user_id, channel_id=table.channel_id, label=table.label)


def rebuild(stored: StoredGame) -> Game:
    """The game a stored row describes: from its snapshot, else by replaying its moves.
    DamagedGame when neither works."""
    if stored.snapshot:
        try:
            game = from_snapshot(stored.snapshot)
            if [str(m) for m in game.moves] == stored.moves:
                return game
        except SnapshotError:
            pass
    try:
        return from_record(record_of(stored))
    except SnapshotError as error:
        raise DamagedGame(stored.id, str(error)) from None


def record_of(stored: StoredGame) -> dict[str, Any]:
    """The stored game's deal and moves as `bot.game.from_record` takes them (`to_record`'s fields)."""
    return {"game": stored.name, "options": stored.options, "deal": stored.deal, "cards": _cards(stored.cards),
            "moves": list(stored.moves)}


def _carry_out(game: Game, action: Callable[[Game], list[Move]]) -> tuple[list[Move], IllegalMoveError | None, bool]:
    """Do `action` to the game (in an engine thread): the moves played, the error that stopped
    it (what was played before it stands), and whether a search of QUICK_SEARCH positions
    settled the game's outcome then. NotationError when the text cannot be read (nothing
    played)."""
    try:
        played, error = action(game), None
    except IllegalMoveError as problem:
        played, error = problem.played, problem
    try:
        game.outcome_within(QUICK_SEARCH)
    except GaveUp:
        return played, error, False
    return played, error, True


def _with_outcome(game: Game) -> Game:
    """The game with its outcome worked out (a search, in a search process): it comes back
    knowing it, so that asking again, to store it or to draw it, costs nothing."""
    _ = game.outcome
    return game


def _hint(game: Game) -> Hint | None:
    """The game's hint (a search, in a search process)."""
    return game.hint()


def _cards(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def _table_from(stored: StoredGame, game: Game) -> Table:
    return Table(id=stored.id, user_id=stored.user_id, guild_id=stored.guild_id, channel_id=stored.channel_id,
                 version=stored.version, status=GameStatus(stored.status), game=game, kind=stored.kind,
                 match_id=stored.match_id, round=stored.round, undo_allowed=stored.undo_allowed,
                 label=label_of(stored))


def _changes(before: list[Move], after: list[Move]) -> Moved:
    """What a text did to the moves: those taken back (the last first), then those played."""
    kept = min(len(before), len(after))
    if before[:kept] != after[:kept]:  # some were taken back (else, the usual case, a quick comparison)
        kept = next(index for index, (old, new) in enumerate(zip(before, after, strict=False)) if old != new)
    return Moved(took_back=tuple(reversed(before[kept:])), played=tuple(after[kept:]))
