"""The store of games and their players' names."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, func, select, update

from bot.store.base import STATUSES, DealUse, NewGame, StoredAnalysis, StoredGame, StoreError, VersionConflict
from bot.store.databases import AnySelect, Database, Row
from bot.store.tables import analyses, daily_attempts, games, matches, players

OPEN_MATCHES = ("lobby", "running")  # a match whose rounds anyone may still be dealt

_GAME_COLUMNS = (games.c.id, games.c.guild_id, games.c.channel_id, games.c.user_id, games.c.name, games.c.options,
                 games.c.deal, games.c.cards, games.c.moves, games.c.snapshot, games.c.version, games.c.status,
                 games.c.score, games.c.created_at, games.c.updated_at, games.c.kind, games.c.match_id,
                 games.c.round, games.c.undo_allowed, games.c.finished_at, games.c.hints, games.c.undos,
                 games.c.foundation_cards)

# The move path's statements are built once, with named parameters: SQLAlchemy then works out their
# cache key once too, where a statement built at every call costs some 0.2 ms more to build and key.
_GET_GAME = select(*_GAME_COLUMNS).where(games.c.id == bindparam("game_id"))
_SAVE_GAME = {  # by whether the game has ended (its finished_at set once), else in play (no finished_at)
    ended: update(games).where(games.c.id == bindparam("game_id"), games.c.version == bindparam("expected_version"))
    .values(moves=bindparam("new_moves"), snapshot=bindparam("new_snapshot"), status=bindparam("new_status"),
            score=bindparam("new_score"), version=games.c.version + 1, updated_at=bindparam("now"),
            foundation_cards=bindparam("new_foundation_cards"), undos=games.c.undos + bindparam("taken_back"),
            finished_at=func.coalesce(games.c.finished_at, bindparam("now")) if ended else None)
    .returning(*_GAME_COLUMNS)
    for ended in (False, True)}


def _running(*columns: Any, in_dm: bool, of_kind: bool) -> AnySelect:
    """The player's game in play in a channel (none in a DM), of one kind or any, that moved last."""
    query = select(*columns).where(
        games.c.user_id == bindparam("user_id"),
        games.c.channel_id.is_(None) if in_dm else games.c.channel_id == bindparam("channel_id"),
        games.c.status == "playing")
    if of_kind:
        query = query.where(games.c.kind == bindparam("kind"))
    return query.order_by(games.c.updated_at.desc(), games.c.id.desc()).limit(1)


_CREATE_GAME = games.insert().values({name: bindparam(name) for name in (
    "guild_id", "channel_id", "user_id", "name", "options", "deal", "cards", "snapshot", "score", "created_at",
    "updated_at", "kind", "match_id", "round", "undo_allowed", "foundation_cards")}).returning(*_GAME_COLUMNS)
# By (in a DM, of one kind): the whole game, or its id and version alone (all a move needs to find it).
_RUNNING_GAME = {(dm, kind): _running(*_GAME_COLUMNS, in_dm=dm, of_kind=kind) for dm in (False, True)
                 for kind in (False, True)}
_RUNNING_VERSION = {(dm, kind): _running(games.c.id, games.c.version, in_dm=dm, of_kind=kind)
                    for dm in (False, True) for kind in (False, True)}


class GameStore:
    """Games (solo, match rounds, dailies) and the display names of the players."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock  # every time this store writes comes from here
        insert = db.upsert(players).values(user_id=bindparam("user_id"), name=bindparam("name"),
                                           updated_at=bindparam("updated_at"))
        self._upsert_player = insert.on_conflict_do_update(  # built once: each /play remembers a name
            index_elements=[players.c.user_id], set_={"name": insert.excluded.name,
                                                      "updated_at": insert.excluded.updated_at})

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game (version 0, status playing) and return it."""
        now = self.clock() if new.created_at is None else new.created_at
        row = await self.db.fetch_one(_CREATE_GAME, {
            "guild_id": new.guild_id, "channel_id": new.channel_id, "user_id": new.user_id, "name": new.name,
            "options": json.dumps(new.options, sort_keys=True), "deal": new.deal, "cards": new.cards,
            "snapshot": new.snapshot, "score": new.score, "created_at": now, "updated_at": now, "kind": new.kind,
            "match_id": new.match_id, "round": new.round, "undo_allowed": int(new.undo_allowed),
            "foundation_cards": new.foundation_cards})
        assert row is not None
        return _game(row)

    async def get_game(self, game_id: int) -> StoredGame | None:
        """The game with this id, or None."""
        row = await self.db.fetch_one(_GET_GAME, {"game_id": game_id})
        return _game(row) if row else None

    async def running_game(self, user_id: int, channel_id: int | None, kind: str | None = None
                           ) -> StoredGame | None:
        """The game in play of this player in this channel that moved last (of one kind, if
        given), or None."""
        row = await self.db.fetch_one(_RUNNING_GAME[channel_id is None, kind is not None],
                                      {"user_id": user_id, "channel_id": channel_id, "kind": kind})
        return _game(row) if row else None

    async def running_version(self, user_id: int, channel_id: int | None, kind: str | None = None
                              ) -> tuple[int, int] | None:
        """The id and version of the game `running_game` gives, or None: one small row."""
        row = await self.db.fetch_one(_RUNNING_VERSION[channel_id is None, kind is not None],
                                      {"user_id": user_id, "channel_id": channel_id, "kind": kind})
        return (row.id, row.version) if row else None

    async def save_game(self, game_id: int, *, expected_version: int, moves: list[str], snapshot: str | None,
                        status: str, score: int, foundation_cards: int | None = None, taken_back: int = 0
                        ) -> StoredGame:
        """Store the game's new moves and state, one version on (and when it ends, the time),
        counting `taken_back` more moves taken back; VersionConflict when the stored version is
        not `expected_version` (nothing is written)."""
        if status not in STATUSES:
            raise StoreError(f"unknown game status {status!r}")
        now = self.clock()
        # One statement checks the version, writes, and gives back the row as written.
        row = await self.db.fetch_one(_SAVE_GAME[status != "playing"], {
            "game_id": game_id, "expected_version": expected_version, "new_moves": " ".join(moves),
            "new_snapshot": snapshot, "new_status": status, "new_score": score, "now": now,
            "new_foundation_cards": foundation_cards, "taken_back": taken_back})
        if row is None:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        return _game(row)

    async def finished_games(self, user_id: int, *, limit: int) -> list[StoredGame]:
        """The player's `limit` games that ended last, the last first (a game's last change is its end)."""
        rows = await self.db.fetch_all(select(*_GAME_COLUMNS).where(
            games.c.user_id == user_id, games.c.status != "playing")
            .order_by(games.c.updated_at.desc(), games.c.id.desc()).limit(limit))
        return [_game(row) for row in rows]

    async def get_analysis(self, game_id: int) -> StoredAnalysis | None:
        """Where the game was lost, if it has been worked out; else None."""
        row = await self.db.fetch_one(select(analyses.c.game_id, analyses.c.verdict, analyses.c.lost_after,
                                             analyses.c.losing_move, analyses.c.better_move)
                                      .where(analyses.c.game_id == game_id))
        if row is None:
            return None
        return StoredAnalysis(game_id=row.game_id, verdict=row.verdict, lost_after=row.lost_after,
                              losing_move=row.losing_move, better_move=row.better_move)

    async def save_analysis(self, analysis: StoredAnalysis) -> None:
        """Keep where a game was lost (the first one worked out stays: it is the same every time)."""
        insert = self.db.upsert(analyses).values(
            game_id=analysis.game_id, verdict=analysis.verdict, lost_after=analysis.lost_after,
            losing_move=analysis.losing_move, better_move=analysis.better_move, created_at=self.clock())
        await self.db.execute(insert.on_conflict_do_nothing(index_elements=[analyses.c.game_id]))

    async def count_hint(self, game_id: int) -> None:
        """Count one hint shown to the player of game `game_id` (its version stays: no move was played)."""
        await self.db.execute(update(games).where(games.c.id == game_id).values(hints=games.c.hints + 1))

    async def round_game(self, match_id: int, round_number: int, user_id: int) -> StoredGame | None:
        """This player's game of round `round_number` of a match, or None."""
        row = await self.db.fetch_one(select(*_GAME_COLUMNS).where(
            games.c.match_id == match_id, games.c.round == round_number, games.c.user_id == user_id,
        ).order_by(games.c.id.desc()).limit(1))
        return _game(row) if row else None

    async def deal_uses(self, deal: int | None, cards: str | None, since_day: str) -> list[DealUse]:
        """The dailies of `since_day` or later and the rounds of open matches that were dealt PySolFC
        game `deal` (or, with `deal` None, the deck `cards`), each once, whatever their game: which
        of them share a deck with a given game is for the caller to tell (bot/play/secrecy.py)."""
        same = games.c.deal == deal if deal is not None else games.c.cards == cards
        dailies = await self.db.fetch_mappings(
            select(daily_attempts.c.day, games.c.name).distinct()
            .select_from(games.join(daily_attempts, daily_attempts.c.game_id == games.c.id))
            .where(same, games.c.kind == "daily", daily_attempts.c.day >= since_day))
        rounds = await self.db.fetch_mappings(
            select(games.c.match_id, games.c.round, games.c.name).distinct()
            .select_from(games.join(matches, matches.c.id == games.c.match_id))
            .where(same, games.c.kind == "match", matches.c.status.in_(OPEN_MATCHES)))
        return sorted([DealUse("daily", row["name"], day=row["day"]) for row in dailies]
                      + [DealUse("match", row["name"], match_id=row["match_id"], round=row["round"]) for row in rounds],
                      key=repr)

    async def count_games(self) -> int:
        """How many games are stored."""
        return int(await self.db.fetch_value(select(func.count()).select_from(games)) or 0)

    async def all_games(self) -> list[StoredGame]:
        """Every stored game, by id (for checks and tools)."""
        return [_game(row) for row in await self.db.fetch_all(select(*_GAME_COLUMNS).order_by(games.c.id))]

    async def upsert_player(self, user_id: int, name: str) -> None:
        """Remember a player's display name."""
        await self.db.execute(self._upsert_player, {"user_id": user_id, "name": name, "updated_at": self.clock()})

    async def player_names(self, user_ids: list[int]) -> dict[int, str]:
        """The known display names of these players."""
        if not user_ids:
            return {}
        rows = await self.db.fetch_mappings(select(players.c.user_id, players.c.name)
                                            .where(players.c.user_id.in_(sorted(set(user_ids)))))
        return {row["user_id"]: row["name"] for row in rows}


def _game(row: Row) -> StoredGame:
    """A game from its row (_GAME_COLUMNS)."""
    game = row._mapping  # by name, and cheaply (Statements.fetch_mappings)
    try:
        options = json.loads(game["options"])
    except (TypeError, ValueError):
        options = None
    return StoredGame(
        id=game["id"], guild_id=game["guild_id"], channel_id=game["channel_id"], user_id=game["user_id"],
        name=game["name"], options=options if isinstance(options, dict) else {"corrupt": game["options"]},
        deal=game["deal"], cards=game["cards"], moves=game["moves"].split() if game["moves"] else [],
        snapshot=game["snapshot"], version=game["version"], status=game["status"], score=game["score"],
        created_at=game["created_at"], updated_at=game["updated_at"], kind=game["kind"], match_id=game["match_id"],
        round=game["round"], undo_allowed=bool(game["undo_allowed"]), finished_at=game["finished_at"],
        hints=game["hints"], undos=game["undos"], foundation_cards=game["foundation_cards"],
    )
