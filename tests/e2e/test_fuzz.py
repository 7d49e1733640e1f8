"""Fuzz: 10,000 random inputs, and the bot must not crash, must change nothing when the input is
invalid, and must answer every one clearly.

The inputs are text typed to slash-command options and to the bot by mention (moves, garbled
notation, unicode junk, huge and empty strings, near-valid moves like `t9f`, `rt0`, `d d`,
`undo 99`), and button/menu custom_ids: random strings, and the bot's own formats
(`pe:game:version:action[:picked]`, `pe:game:version:pick`, `pm:match:action`, `pm:match:team`,
`pl:board:period:scope:page:step`, `pr:race:action`, `prb:race:seen:action`, `sol:game:page:step`) with other players'
ids, stale versions, ids that do not exist, and one thing wrong in some: negative, huge and
malformed numbers, unknown actions, wrong field counts; and mutations of ids the bot really made.

The split (one fixed seed, `SEED`, printed with every failure; FUZZ_SEED=n runs another):

* 9,400 inputs in-process (`test_fuzz_in_process`, some 15 s), on a real SQLite file with the
  real play objects, cogs and DynamicItems, one input at a time, the stored state read before
  and after each:
  - 4,000 moves typed to a solo game (five games of the family, through `SoloPlay.move` as /move
    and a mention use it) and 600 to a demon race (`RacePlay.move`, as /race move);
  - 600 names typed to the other text options, through the cogs' own callbacks: /play game,
    /daily game, /match open game, /rules game, /team create and /team join name, and the game
    and team autocompletes;
  - 4,200 custom_ids (and menu values) dispatched as discord.py does: to the DynamicItem whose
    template takes the id, rebuilt by `from_custom_id`, its `callback`; and to the cogs'
    `on_interaction` listener (the fallback for ids no template takes).
  Discord's Interaction is stood in for by a small recorder of what the bot answers.
* 600 inputs through the real bot (`test_fuzz_through_the_real_bot`, some 6 s): `python -m bot`
  against the fake Discord, eight at a time: /move, /race move, /play, /rules, /daily,
  /match open, /team, /prefix, autocompletes, mentions, clicks and menu picks (each on a message
  made for it, as a bot's message carrying that custom_id, the clicker often the owner of what it
  names). First 450 inputs that cannot change anything whatever order they run in, after which
  the stored state must be as it was; then 150 that may change it. Plus, first of all, the 15
  inputs that showed the bugs this fuzz found (`test_regressions_in_process` pins each).

Checks: nothing escapes a handler and nothing is logged as an error (the bot's log has no
"Traceback", "Ignoring exception" or ERROR line, and the process is alive); every interaction is
answered, once, within the fake's 3 seconds; an error is a new private message of at most 300
characters; no answer is over Discord's 2,000 characters or shows internals ("Traceback",
"Exception", "None", braces, reprs) that the input (or a name a player gave) did not contain;
every custom_id the bot puts on its own buttons is taken by exactly one of its templates; an
input that cannot be carried out changes no row of games, matches, match_players, races,
race_players, teams or team_members; and a player's click never changes another player's game.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from random import Random
from typing import Any

import discord
import pytest

import bot.app as app_module
from bot.app import PatientExorcismBot
from bot.cogs.checks import game_choices
from bot.cogs.competition import CompetitionCog
from bot.cogs.matches import MatchesCog
from bot.cogs.solo import START_WORDS, SoloCog
from bot.config import Config
from bot.game import GAMES, NotationError
from bot.game.notation import ACTION_WORDS, WORDS, Action, ActionCommand, Word, parse, read_word
from bot.play import Player, PlayError, Reply
from bot.play.services import build_play
from bot.play.work import LIMITS, Limit, RateLimiter
from bot.store import Store, open_store
from bot.views import dynamic_items, respond
from bot.views.board import BoardButton, PickSelect, board_view
from bot.views.leaderboards import PageButton
from bot.views.matches import MatchButton, TeamSelect
from bot.views.race import LobbyButton, RaceBoardButton
from bot.views.respond import fit_to_show
from bot.views.ritual import PlayDailyButton
from bot.views.share import ShareButton
from bot.views.solution import SolutionPageButton
from bot.views.watch import RefreshButton
from bot.words import DISCORD, reply_text
from bot.words.race import race_text

from .fakediscord import FLAG_EPHEMERAL, FakeDiscord, FakeInteraction, FakeUser, StoredMessage
from .harness import BotProcess, BotRunner

SEED = int(os.environ.get("FUZZ_SEED", "20250611"))
IN_PROCESS = {"solo": 4_000, "race": 600, "options": 600, "components": 4_200}
THROUGH_BOT = {"inert": 450, "any": 150}
CONCURRENCY = 8
ERROR_LIMIT = 300  # characters of an error answer
DISCORD_LIMIT = 2_000  # characters of a message's content
ITEMS = (BoardButton, PickSelect, MatchButton, TeamSelect, PageButton, LobbyButton, RaceBoardButton, RefreshButton,
         ShareButton, SolutionPageButton, PlayDailyButton)
TABLES = ("games", "matches", "match_players", "races", "race_players", "teams", "team_members")
MARKERS = ("Traceback", "Exception", "Error(", "NoneType", "object at 0x", "<bot.", "<discord.", "{", "}")
NONE_WORD = re.compile(r"\bNone\b")
GUILD, CHANNEL = 7_000, 70  # the in-process server and main channel


def test_the_split_is_ten_thousand_inputs() -> None:
    """The two layers together send at least 10,000 fuzzed inputs."""
    assert sum(IN_PROCESS.values()) + sum(THROUGH_BOT.values()) >= 10_000


def test_the_fallback_knows_every_button_the_bot_registers() -> None:
    """The app registers `dynamic_items()`, the list the fallback for unknown custom_ids reads,
    and this fuzz sends ids to every one of them."""
    assert "self.add_dynamic_items(*dynamic_items())" in Path(app_module.__file__).read_text()
    assert set(dynamic_items()) == set(ITEMS)


# --- generating inputs ---------------------------------------------------------------------------

READABLE = set("swrftajqkcshdu0123456789:,;♣♠♥♦♧♤♡♢")
JUNK = "bxyzegilmnopv!?{}[]()<>@#$%^&*=+'\"`~|\\/.-_éüß日本語🂡😀\u200b\u202e\x00\x7f\u0130"
NOTATION = "dauhswrft123456789:,; cjqk0♠♥"
TOKENS = ("d", "a", "u", "h", "s", "w", "r", "f", "t1", "t2", "t3", "t4", "t7", "t9", "t0", "t10", "r1", "r4",
          "r9", "f1", "f4", "f8", "f9", "7h", "10s", "as", "kd", "qc", "jh", "2♠", "t1t3:2", ":2", ":0",
          ":99999999999999999999", ",", ";", "wf", "rt2", "wt1", "ww", "sw", "st1")
NEAR_VALID = ("t9f", "rt0", "d d", "undo 99", "t1t3:0", "t1t3:99", "t0t1", "f1t2", "wf9", "t10", "st1", "sw", "ww",
              "r1t1", "r9", "f", "h d", "u u u", "a a", "10h", "1h", "kd t1", "as f", "t1t2:", ":3", "t1 t2 t3",
              "d" * 40, "D", "RT2", "w f", "t1-t3", "t1→t3", "t1t3:٣", "t1t3 : 2", "draw", "auto", "undo", "hint",
              "resign", "board", "help", "play", "new", "u", "h", "a", "d", "t1t1", "f1f2", "ff", "rr", "r", "w")
GAME_NAMES = (*GAMES, "Canfield", " canfield", "canfield ", "canfield-draw0", "demon", "klondike", "chess", "",
              "patriarchs2", "picture_patience", "ДЕМОН", "None", "{game}", "'; DROP TABLE games; --")


def surely_unreadable(text: str) -> bool:
    """Whether no move notation can read `text` (so a move with it must be refused, changing nothing):
    it is blank, or has a word, not one of the notation's words (draw, undo, board...), with a
    character that no token of the notation takes."""
    words = [word for word in re.split(r"[\s,;]+", text.lower()) if word]
    if not words:
        return True
    return any(word not in ACTION_WORDS and word not in WORDS
               and any(not (low in READABLE or low.isdigit()) for ch in word for low in ch.lower())
               for word in words)


def answered_in_words(text: str) -> bool:
    """Whether the bot answers a mention with this text in words of its own (help, rules) rather
    than with a board or a refusal."""
    words = text.split()
    if not words or read_word(text) is Word.HELP:
        return True
    return words[0].lower() == "rules" and (len(words) == 1 or words[1].lower() in GAMES)


def starts_a_game(text: str) -> bool:
    """Whether a typed text (by mention or in /move) starts a game: `play` or `new`, with a game's
    name or not (an unknown one is refused)."""
    words = text.split()
    return bool(words) and words[0].lower() in START_WORDS and len(words) <= 2


def junk(rng: Random, low: int, high: int) -> str:
    """Random characters, at least one of them unreadable as notation."""
    length = rng.randint(max(low, 1), max(high, 1))
    chars = [rng.choice(JUNK + NOTATION) for _ in range(length)]
    chars[rng.randrange(length)] = rng.choice(JUNK)
    return "".join(chars)


def undoes(text: str) -> bool:
    """Whether the text reads as moves with an undo among them."""
    try:
        return any(isinstance(c, ActionCommand) and c.action is Action.UNDO for c in parse(text))
    except NotationError:
        return False


def random_text(rng: Random, *, longest: int = 6_000, legal: Callable[[], list[str]] = list) -> str:
    """A move typed by a player: junk, blanks, huge strings, near-valid moves, notation soup, and
    legal moves (from `legal()`) as they are or with a typo."""
    kind = rng.random()
    if kind < 0.22:
        return junk(rng, 1, 30)
    if kind < 0.27:
        return rng.choice(("", " ", "\n\t ", "\u3000", ",", ";;", ":"))
    if kind < 0.33:
        size = rng.randint(min(2_000, longest), longest)
        if rng.random() < 0.5:
            return junk(rng, size, size)
        return ("d " * (size // 2 - 2) + rng.choice(JUNK))[:longest]
    if kind < 0.50:
        return rng.choice(NEAR_VALID)
    if kind < 0.70:
        return rng.choice(("", " ")).join(rng.choice(TOKENS) for _ in range(rng.randint(1, 4)))
    moves = legal() if kind < 0.92 else []
    if moves:
        move = rng.choice(moves)
        return move if rng.random() < 0.5 else mutate(rng, move, "tfrwsd0123456789:")
    return rng.choice(("d", "a", "d d", "h", "u"))


def random_name(rng: Random) -> str:
    """A game or team name typed to an option: mostly junk and near-misses, sometimes right."""
    kind = rng.random()
    if kind < 0.35:
        return rng.choice(GAME_NAMES)
    if kind < 0.45:
        return junk(rng, 2_000, 6_000)
    if kind < 0.55:
        return rng.choice(("Red", "red", " RED ", "Blue", "Red Team", "x" * 32, "x" * 33, " " * 5, "a\u200bb"))
    return junk(rng, 1, 40)


def fit(text: str, low: int | None, high: int | None) -> str:
    """`text` within an option's declared lengths, as Discord's client keeps it (6,000 at most)."""
    text = text[:high or 6_000]
    return text + "x" * ((low or 0) - len(text))


def mutate(rng: Random, text: str, alphabet: str) -> str:
    """`text` with one character changed, dropped, doubled or added."""
    if not text:
        return rng.choice(alphabet)
    at = rng.randrange(len(text))
    how = rng.randrange(4)
    if how == 0:
        return text[:at] + rng.choice(alphabet) + text[at + 1:]
    if how == 1:
        return text[:at] + text[at + 1:]
    if how == 2:
        return text[:at] + text[at] + text[at:]
    return text[:at] + rng.choice(alphabet) + text[at:]


# --- the stored state ------------------------------------------------------------------------------

Snapshot = dict[str, list[tuple[Any, ...]]]


Row = dict[str, Any]


@dataclass
class World:
    """Who owns what, read from the stored rows: what the generator aims at and the classifier reads."""

    games: dict[int, Row]
    matches: dict[int, Row]
    match_players: dict[tuple[int, int], Row]
    races: dict[int, Row]
    seats: dict[int, list[int]]
    teams: list[str]

    @classmethod
    def read(cls, db: sqlite3.Connection) -> World:
        """The world as the database has it now."""
        return cls.of(snapshot(db), db)

    @classmethod
    def of(cls, state: Snapshot, db: sqlite3.Connection) -> World:
        """The world a snapshot of `db` shows."""
        rows = {table: [dict(zip(columns(db, table), row, strict=True)) for row in state[table]] for table in TABLES}
        seats: dict[int, list[int]] = {}
        for row in rows["race_players"]:
            seats.setdefault(row["race_id"], []).append(row["user_id"])
        return cls(games={row["id"]: row for row in rows["games"]},
                   matches={row["id"]: row for row in rows["matches"]},
                   match_players={(row["match_id"], row["user_id"]): row for row in rows["match_players"]},
                   races={row["id"]: row for row in rows["races"]}, seats=seats,
                   teams=[row["name"] for row in rows["teams"]])

    def ids(self, kind: str) -> list[int]:
        """The known ids of games, matches or races."""
        return sorted({"game": self.games, "match": self.matches, "race": self.races}[kind])


def open_db(path: Path) -> sqlite3.Connection:
    """A reading connection to the bot's database file."""
    return sqlite3.connect(path, timeout=10, isolation_level=None)


@functools.cache
def columns(db: sqlite3.Connection, table: str) -> tuple[str, ...]:
    """The column names of a table, in order."""
    return tuple(column[0] for column in db.execute(f"SELECT * FROM {table} LIMIT 0").description)


def world_names(db: sqlite3.Connection) -> list[str]:
    """Names players gave (teams'): answers may show them, whatever they hold."""
    return [row[0] for row in db.execute("SELECT name FROM teams")]


def snapshot(db: sqlite3.Connection) -> Snapshot:
    """Every row of the tables an invalid input must leave alone."""
    return {table: [tuple(row) for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid")] for table in TABLES}


def differences(before: Snapshot, after: Snapshot) -> list[str]:
    """What changed between two snapshots, row by row (empty when nothing did)."""
    said = []
    for table in TABLES:
        old, new = set(before[table]), set(after[table])
        said += [f"{table} lost {row}" for row in sorted(old - new, key=str)[:2]]
        said += [f"{table} got {row}" for row in sorted(new - old, key=str)[:2]]
    return said


def changed_games(before: Snapshot, after: Snapshot) -> dict[int, int]:
    """Games that existed before and changed: game id to owner."""
    old = {row[0]: row for row in before["games"]}
    return {row[0]: old[row[0]][3] for row in after["games"] if row[0] in old and old[row[0]] != row}


# --- custom_ids ------------------------------------------------------------------------------------

ACTIONS = ("draw", "auto", "undo", "hint", "resign", "cancel", "w", "r", "r1", "r5", "r9", "t1", "t3", "t5", "t9", "f")
BAD_ACTIONS = ("DRAW", "t0", "t10", "r0", "r10", "f1", "x", "", "pick", "team", "join", "drawx", "t 1", "tt1")
PICKS = ("t1.1", "t3.2", "t9.13", "w.1", "r.1", "r4.1", "f1.1", "t3.0", "t3.99", "f9.1", "t3", "t3.", ".1", "t0.1",
         "x.1", "t3.1.1", "none", "")
MATCH_ACTIONS = ("join", "leave", "start", "cancel", "board", "next")
RACE_ACTIONS = ("join", "start", "cancel", "board")
RACE_BOARD_ACTIONS = ("draw", "auto", "refresh", "w", "r", "t1", "t4", "t7")
BOARDS, PERIODS, SCOPES, STEPS = ("players", "teams", "daily", "streaks"), ("all", "week", "today"), \
    ("server", "all"), ("prev", "next")
HUGE = ("9223372036854775807", "9223372036854775808", "9999999999999999999", "18446744073709551616",
        "99999999999999999999999", "100000000000000000", "999999999", "1000000000", "4294967296")
ODD_NUMBERS = ("0", "-1", "-0", "007", "", " 1", "1 ", "1a", "0x1", "1e3", "٣", "１", "+1", "1.0", "¹")
ID_CHARS = "pemlrb:0123456789 .-_xtwfdraucnsjoiqkv\x00é日🂡"


@dataclass(frozen=True, slots=True)
class Click:
    """A button click or a menu pick, by custom_id (and the picked values)."""

    custom_id: str
    values: tuple[str, ...] = ()

    @property
    def is_select(self) -> bool:
        """Whether the custom_id is that of one of the bot's menus (so it comes from a select)."""
        return any(item.__discord_ui_compiled_template__.fullmatch(self.custom_id) is not None
                   for item in (PickSelect, TeamSelect))


def an_id(rng: Random, known: list[int]) -> str:
    """An id field: a known one (another player's as often as one's own), or one that does not exist."""
    if known and rng.random() < 0.75:
        return str(rng.choice(known))
    return str((max(known) if known else 0) + rng.randint(1, 1_000))


def a_version(rng: Random, current: int | None) -> str:
    """A version (or race moves seen) field: the current one, or stale, or from the future."""
    if current is None:
        return str(rng.randint(0, 50))
    return str(max(0, current + rng.choice((0, 0, 0, -1, -1, -5, 1, 2))))


def well_formed(rng: Random, world: World) -> list[str]:
    """The fields of a custom_id in one of the bot's formats, each field valid for its template."""
    kind = rng.random()
    if kind < 0.45:
        game = an_id(rng, world.ids("game"))
        current = world.games[int(game)]["version"] if int(game) in world.games else None
        if rng.random() < 0.15:
            return ["pe", game, a_version(rng, current), "pick"]
        if rng.random() < 0.1:  # a watched board's Refresh, a finished daily's Share
            return ["pe", rng.choice(("watch", "share")), game]
        fields = ["pe", game, a_version(rng, current), rng.choice(ACTIONS)]
        return [*fields, rng.choice(PICKS[:6])] if rng.random() < 0.25 else fields
    if kind < 0.65:
        return ["pm", an_id(rng, world.ids("match")), rng.choice((*MATCH_ACTIONS, "team"))]
    if kind < 0.72:
        return ["pl", rng.choice(BOARDS), rng.choice(PERIODS), rng.choice(SCOPES),
                rng.choice(("0", "1", "2", "3", "9999")), rng.choice(STEPS)]
    if kind < 0.75:
        return ["sol", an_id(rng, world.ids("game")), rng.choice(("0", "1", "3", "9999")), rng.choice(STEPS)]
    if kind < 0.765:  # a daily post's Play
        return ["pd", "play", rng.choice(("canfield", "patriarchs", "chess", "canfield_", "x" * 40))]
    race = an_id(rng, world.ids("race"))
    if rng.random() < 0.4:
        return ["pr", race, rng.choice(RACE_ACTIONS)]
    seen = len(world.races[int(race)]["moves"].split()) if int(race) in world.races else None
    return ["prb", race, a_version(rng, seen), rng.choice(RACE_BOARD_ACTIONS)]


def corrupt(rng: Random, fields: list[str]) -> list[str]:
    """The fields with one thing wrong: an odd or huge number, an unknown action or pick, a field
    too few or too many, a stray separator or the wrong case."""
    fields = list(fields)
    numeric = [i for i, field in enumerate(fields) if field.isdigit()]
    how = rng.randrange(7)
    if how == 0 and numeric:
        fields[rng.choice(numeric)] = rng.choice(ODD_NUMBERS)
    elif how == 1 and numeric:
        fields[rng.choice(numeric)] = rng.choice(HUGE)
    elif how == 2:
        fields[-1] = rng.choice(BAD_ACTIONS + PICKS[6:])
    elif how == 3 and len(fields) > 1:
        del fields[rng.randrange(1, len(fields))]
    elif how == 4:
        fields.insert(rng.randrange(1, len(fields) + 1), rng.choice(("", "1", "x", "pe", "draw", "t3.1")))
    elif how == 5:
        index = rng.randrange(len(fields))
        fields[index] = fields[index].upper() if rng.random() < 0.5 else f" {fields[index]}"
    else:
        return [*fields, ""]
    return fields


def random_click(rng: Random, world: World, real_ids: list[str], real_share: float = 0.12) -> Click:
    """A custom_id as a client could send one: the bot's formats with ids of any player's games,
    matches and races, stale versions, ids that do not exist, and some one thing wrong; mutations of
    ids the bot really made (`real_share` of them); random text. With menu values for menus."""
    kind = rng.random()
    if kind < 0.06:
        text = "".join(rng.choice(ID_CHARS) for _ in range(rng.randint(1, 100)))
    elif kind < 0.06 + real_share and real_ids:
        text = rng.choice(real_ids)
        text = mutate(rng, text, ID_CHARS) if rng.random() < 0.5 else text
    else:
        fields = well_formed(rng, world)
        text = ":".join(corrupt(rng, fields) if rng.random() < 0.4 else fields)
    text = text[:100] or "x"
    click = Click(text)
    if click.is_select:
        values = rng.choice((PICKS, ("Red", "red", "Blue", "", "x" * 100, "{}", "None")))
        click = Click(text, (rng.choice(values) or "·",))
    return click


def takers(custom_id: str) -> list[tuple[type, re.Match[str]]]:
    """The DynamicItem classes (and their matches) whose templates take this custom_id."""
    found = ((item, item.__discord_ui_compiled_template__.fullmatch(custom_id)) for item in ITEMS)
    return [(item, match) for item, match in found if match is not None]


def template_of(custom_id: str) -> tuple[type, re.Match[str]] | None:
    """The DynamicItem class (and match) that takes this custom_id, as discord.py finds it."""
    return next(iter(takers(custom_id)), None)


def owners_of(click: Click, world: World) -> list[int]:
    """The players whose game, match or race a custom_id names (empty if none)."""
    taken = template_of(click.custom_id)
    if taken is None or taken[0] in (PageButton, PlayDailyButton):
        return []
    item, found = taken
    if item in (BoardButton, PickSelect, RefreshButton, ShareButton, SolutionPageButton):
        game = world.games.get(int(found["game"]))
        return [game["user_id"]] if game else []
    if item in (MatchButton, TeamSelect):
        match_id = int(found["match"])
        return [user for (match, user) in world.match_players if match == match_id]
    return world.seats.get(int(found["race"]), [])


def inert_click(click: Click, world: World, user: int, manage: bool) -> bool:
    """Whether the click cannot change anything, whatever else happens meanwhile: the bot must
    refuse it (or only show something), leaving the stored state as it is."""
    taken = template_of(click.custom_id)
    if taken is None:
        return True
    item, found = taken
    # Share marks only the daily shared; a solution's page shows a line and stores nothing.
    if item in (PickSelect, PageButton, RefreshButton, ShareButton, SolutionPageButton):
        return True
    if item is PlayDailyButton:  # starts the presser's daily of a game there is
        return found["game"] not in GAMES
    if item is BoardButton:
        game = world.games.get(int(found["game"]))
        # A hint changes no game, but may count one more hint in its player's (the share card, clean wins tell).
        stale = int(found["version"]) != game["version"] if game is not None else True
        return (game is None or game["user_id"] != user or game["status"] != "playing"
                or found["action"] == "cancel" or (found["action"] != "hint" and stale))
    if item in (MatchButton, TeamSelect):
        match_id = int(found["match"])
        match = world.matches.get(match_id)
        if match is None:
            return True
        action = "team" if item is TeamSelect else found["action"]
        mine = world.match_players.get((match_id, user))
        playing = mine is not None and mine["left_at"] is None
        open_ = match["status"] in ("lobby", "running")
        boss = manage or match["host_id"] == user
        return {"board": not playing, "next": not playing, "join": not open_, "team": not open_,
                "leave": not playing, "start": match["status"] != "lobby" or not boss,
                "cancel": not open_ or not boss}[action]
    race = world.races.get(int(found["race"]))
    if race is None:
        return True
    seats = world.seats.get(race["id"], [])
    if item is LobbyButton:
        action = found["action"]
        if action == "join":
            return race["status"] != "lobby" or user in seats
        if action in ("start", "cancel"):
            return race["host_id"] != user or race["status"] != "lobby" or (action == "start" and len(seats) < 2)
        return True
    return user not in seats or race["status"] != "running" or found["action"] == "refresh"


# --- what a player sees ----------------------------------------------------------------------------

@dataclass
class Seen:
    """An answer as a player sees it: a new message or an edit of the clicked one."""

    how: str  # "message" or "edit"
    content: str
    ephemeral: bool
    has_file: bool = False
    components: list[dict[str, Any]] = field(default_factory=list)


def unclear(text: str, sent: str) -> str | None:
    """Why an answer's text is not clear to a player (internals it shows that the input did not
    contain), or None."""
    echo = sent + repr(sent)
    for marker in MARKERS:
        if marker in text and marker not in echo:
            return f"shows {marker!r}"
    if NONE_WORD.search(text) and "None" not in echo:
        return "says None"
    return None


def custom_ids(components: list[dict[str, Any]]) -> Iterator[str]:
    """Every custom_id in a message's components."""
    for component in components:
        if component.get("custom_id"):
            yield component["custom_id"]
        yield from custom_ids(component.get("components") or [])


def judge(seen: list[Seen], sent: str, *, error: bool | None = None) -> list[str]:
    """What is wrong with the answers to one input (empty when they are fine). `error`: whether
    the input was refused, when known; otherwise a text-only answer counts as a refusal."""
    if len(seen) != 1:
        return [f"{len(seen)} answers, not one: {[s.content[:80] for s in seen]}"]
    answer = seen[0]
    problems = []
    text_only = not answer.has_file and not answer.components
    refused = text_only if error is None else error
    if len(answer.content) > DISCORD_LIMIT:
        problems.append(f"answer of {len(answer.content)} characters, over Discord's {DISCORD_LIMIT}")
    if refused and len(answer.content) > ERROR_LIMIT:
        problems.append(f"error of {len(answer.content)} characters: {answer.content[:120]!r}…")
    if refused and text_only and not (answer.how == "message" and answer.ephemeral):
        problems.append(f"error not in a new private message ({answer.how}, ephemeral={answer.ephemeral}): "
                        f"{answer.content[:120]!r}")
    if not answer.content and text_only:
        problems.append("an empty answer")
    why = unclear(answer.content, sent)
    if why:
        problems.append(f"unclear answer, {why}: {answer.content[:160]!r}")
    for custom_id in custom_ids(answer.components):
        if len(custom_id) > 100 or len(takers(custom_id)) != 1:
            problems.append(f"the bot made a button that {len(takers(custom_id))} templates take: {custom_id!r}")
    return problems


class Problems:
    """Problems found, with the input that showed each; the assertion message names the seed."""

    def __init__(self, layer: str) -> None:
        self.layer = layer
        self.found: list[str] = []

    def add(self, what: str, problems: list[str]) -> None:
        """Note the problems of one input."""
        self.found += [f"{what[:300]}: {problem}" for problem in problems]

    def check(self, sent: int) -> None:
        """Fail, listing the first problems, if there are any (all of them go to stdout)."""
        print(f"{self.layer}: seed {SEED}, {sent} inputs, {len(self.found)} problems", *self.found, sep="\n")
        shown = "\n  ".join(self.found[:25])
        assert not self.found, (f"{self.layer}, seed {SEED} (FUZZ_SEED={SEED} reproduces it): {len(self.found)} "
                                f"problems in {sent} inputs; the first:\n  {shown}")


# --- in-process: the real play objects, cogs and DynamicItems, with a stand-in Interaction ---------

class StandInResponse:
    """Records what the bot answers, like discord.InteractionResponse; refuses a second answer."""

    def __init__(self, said: list[Seen], component: bool) -> None:
        self.said, self.component = said, component
        self.deferred: bool | None = None  # once deferred: whether the answer will be private
        self.thinking = False  # a deferral that shows "thinking…" in a new message (the answer's)

    def is_done(self) -> bool:
        """Whether the interaction has been answered (or deferred)."""
        return self.deferred is not None or bool(self.said)

    def _first(self) -> None:
        assert not self.is_done(), "the bot answered an interaction twice"

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        """Acknowledge now, answer later."""
        self._first()
        self.deferred, self.thinking = ephemeral or (self.component and not thinking), thinking

    async def send_message(self, content: Any = None, *, files: Any = discord.utils.MISSING,
                           view: Any = discord.utils.MISSING, ephemeral: bool = False, **_: Any) -> None:
        """Answer with a new message."""
        self._first()
        self.said.append(seen("message", content, ephemeral, files, view))

    async def edit_message(self, *, content: Any = None, attachments: Any = discord.utils.MISSING,
                           view: Any = discord.utils.MISSING, **_: Any) -> None:
        """Answer by editing the clicked message."""
        self._first()
        self.said.append(seen("edit", content, True, attachments, view))


def seen(how: str, content: Any, ephemeral: bool, files: Any, view: Any) -> Seen:
    """A Seen from the arguments discord.py's answer methods take."""
    components = view.to_components() if isinstance(view, discord.ui.View | discord.ui.LayoutView) else []
    if isinstance(view, discord.ui.LayoutView):  # a V2 message: its words are in its text displays
        assert content is None, "content beside a V2 layout (Discord rejects it)"
        content = "\n".join(item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay))
    has_file = isinstance(files, list) and bool(files)
    return Seen(how, "" if content is None else str(content), ephemeral, has_file, components)


@dataclass(frozen=True, slots=True)
class Someone:
    """A Discord user as the handlers read one."""

    id: int
    name: str
    display_name: str
    bot: bool = False


class StandInInteraction:
    """What the bot's handlers read of a discord.Interaction, and a recorder of their answers."""

    _ids = itertools.count(1)

    def __init__(self, client: PatientExorcismBot, user: Player, *, channel_id: int, manage: bool,
                 data: dict[str, Any] | None = None) -> None:
        # A snowflake made now, as Discord's are: the bot reads the time left to answer from it.
        self.id = discord.utils.time_snowflake(discord.utils.utcnow()) + next(self._ids) % (1 << 22)
        self.client = client
        self.user = Someone(user.id, user.name, user.name)
        self.guild_id, self.channel_id = GUILD, channel_id
        self.locale = discord.Locale.american_english
        self.permissions = discord.Permissions(manage_guild=manage)
        self.data = data or {}
        component = "custom_id" in self.data
        self.type = discord.InteractionType.component if component else discord.InteractionType.application_command
        self.said: list[Seen] = []
        self.response = StandInResponse(self.said, component)
        self.followup = self
        self.message = None  # the clicked message, which the stand-in does not keep

    def is_guild_integration(self) -> bool:
        """The in-process server has added the app."""
        return True

    async def send(self, content: Any = None, *, ephemeral: bool = False, **_: Any) -> None:
        """A followup message (after the interaction's answer or its deferral, as Discord allows)."""
        assert self.response.is_done(), "a followup before the interaction was acknowledged"
        self.said.append(seen("message", content, ephemeral, [], None))

    async def edit_original_response(self, *, content: Any = None, attachments: Any = discord.utils.MISSING,
                                     view: Any = discord.utils.MISSING, **_: Any) -> None:
        """Edit the deferred answer (or the clicked message)."""
        assert self.response.deferred is not None, "an edit before the interaction was acknowledged"
        # After "thinking…" (or any deferred command) the original is the new message; after a
        # click's silent deferral it is the clicked message.
        new = self.response.thinking or not self.response.component
        how, ephemeral = ("message", bool(self.response.deferred)) if new else ("edit", True)
        self.said.append(seen(how, content, ephemeral, attachments, view))


class ErrorLog(logging.Handler):
    """Keeps every record of ERROR or above, and every one with a traceback: each is a bug."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record if it tells of an error."""
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(record)


PEOPLE = {name: Player(9_000 + i, name) for i, name in enumerate(("alice", "bob", "carol", "dave", "erin", "zed"))}
SOLO_GAMES = {CHANNEL: "canfield", 71: "patriarchs", 72: "picture-patience", 73: "demons-and-thieves",
              74: "storehouse"}


class Bench:
    """The in-process bot: a real store on a SQLite file, the real play objects and cogs."""

    def __init__(self, store: Store, path: Path) -> None:
        client = PatientExorcismBot(Config(token="fuzz"))
        client.store = store
        # The fuzz plays far faster than a member may: no rate limits here (tests/play/test_fair.py tests them).
        unlimited = RateLimiter({action: Limit(10**9, 1.0) for action in LIMITS})
        self.later = 0.0  # seconds the matches' clock is ahead (for a match that expired)
        # A small search limit: the fuzz checks the answers, tests/game/test_lines.py the lines.
        play = build_play(store, limits=unlimited, solution_limit=5_000, rng=Random(SEED),
                          match_clock=lambda: time.time() + self.later)
        client.use_play(play)
        self.client = client
        self.solo_cog, self.matches_cog, self.competition_cog = SoloCog(client), MatchesCog(client), \
            CompetitionCog(client)
        client.matches.listeners.clear()  # the scoreboard messages would need Discord
        self.db = open_db(path)
        self.race_channel = 100
        self.named: dict[str, int] = {}  # ids of things in some state, by what they are
        self.boards: dict[tuple[int, int], Reply] = {}  # (player, channel): the board last shown
        self.last: Snapshot | None = None  # the state after the last input, if nothing wrote since

    def before(self) -> Snapshot:
        """The stored state before an input: the one after the last input, if nothing changed it since."""
        return self.last if self.last is not None else snapshot(self.db)

    def after(self) -> Snapshot:
        """The stored state after an input."""
        self.last = snapshot(self.db)
        return self.last

    def shared_dailies(self) -> set[int]:
        """The games of the dailies whose result card was posted."""
        return {row[0] for row in self.db.execute("SELECT game_id FROM daily_attempts WHERE shared = 1")}

    async def build(self) -> None:
        """Games, matches, teams and races in every state, owned by different players."""
        solo, matches, races, teams = self.client.solo, self.client.matches, self.client.races, self.client.teams
        alice, bob, carol, dave = PEOPLE["alice"], PEOPLE["bob"], PEOPLE["carol"], PEOPLE["dave"]
        self.named["expired match"] = (await matches.open(dave, guild_id=GUILD, channel_id=CHANNEL)).match.id
        self.later = 25 * 3600.0
        await matches.expire_idle()
        for channel, name in SOLO_GAMES.items():
            await solo.start(alice, guild_id=GUILD, channel_id=channel, name=name, deal=channel)
        await solo.start(bob, guild_id=GUILD, channel_id=CHANNEL, deal=2)
        over = await solo.start(carol, guild_id=GUILD, channel_id=CHANNEL, deal=3)
        await solo.resign(over.game_id, carol)
        await teams.create(GUILD, bob, "Red")
        running = await matches.open(bob, guild_id=GUILD, channel_id=CHANNEL)
        await matches.join(running.match.id, alice)
        await matches.start(running.match.id, bob)
        await matches.open(bob, guild_id=GUILD, channel_id=CHANNEL)  # a lobby (a host has one per channel)
        cancelled = await matches.open(carol, guild_id=GUILD, channel_id=CHANNEL)
        await matches.cancel(cancelled.match.id, carol)
        self.named["cancelled match"] = cancelled.match.id
        await matches.open(bob, guild_id=GUILD, channel_id=CHANNEL + 5, teams=True)
        played = await matches.open(dave, guild_id=GUILD, channel_id=CHANNEL)
        await matches.start(played.match.id, dave)
        round_ = await matches.my_board(played.match.id, dave)
        await solo.resign(round_.game_id, dave)  # a round over, the next one dealt
        self.named["race lobby"] = (await races.open(bob, guild_id=GUILD, channel_id=90)).race.id
        cancelled_race = await races.open(carol, guild_id=GUILD, channel_id=91)
        await races.cancel(cancelled_race.race.id, carol)
        await self.new_race()

    async def new_race(self) -> None:
        """A running race of alice and bob in a new channel (the one race text goes to)."""
        self.race_channel += 1
        races, alice, bob = self.client.races, PEOPLE["alice"], PEOPLE["bob"]
        race = await races.open(bob, guild_id=GUILD, channel_id=self.race_channel, deal=self.race_channel)
        await races.join(race.race.id, alice)
        await races.start(race.race.id, bob)
        self.named["running race"] = race.race.id
        self.last = None

    def interaction(self, user: Player, *, channel_id: int = CHANNEL, manage: bool = False,
                    data: dict[str, Any] | None = None) -> StandInInteraction:
        """A stand-in interaction of `user`."""
        return StandInInteraction(self.client, user, channel_id=channel_id, manage=manage, data=data)

    async def real_ids(self) -> list[str]:
        """Custom_ids the bot really puts on alice's boards now (mutated by the generator)."""
        found: list[str] = []
        for channel in SOLO_GAMES:
            try:
                reply = await self.client.solo.running(PEOPLE["alice"], channel)
            except PlayError:
                continue
            found += [item.custom_id for item in board_view(reply, DISCORD).children
                      if getattr(item, "custom_id", None)]
        return found

    # --- one input of each kind -------------------------------------------------------------------

    async def solo_move(self, rng: Random, problems: Problems) -> None:
        """A move typed to one of alice's games (or someone's with none), checked against the store."""
        solo = self.client.solo
        who = PEOPLE["alice"] if rng.random() < 0.95 else PEOPLE["zed"]
        channel = rng.choice(list(SOLO_GAMES))
        current = self.boards.get((who.id, channel))  # the board the last answer showed
        if current is None:
            with contextlib.suppress(PlayError):
                current = self.boards[who.id, channel] = await solo.running(who, channel)
        shown_game = current.game if current is not None else None
        text = random_text(rng, legal=lambda: [str(m) for m in shown_game.legal_moves()] if shown_game else [])
        what = f"/move moves={text!r} by {who.name} in {SOLO_GAMES[channel]}"
        before = self.before()
        refused, raised, played, message = False, False, False, ""
        try:
            if current is None:
                current = await solo.running(who, channel)
            reply = await solo.move(current.game_id, who, text)
            refused, played, message = not reply.ok, bool(reply.played), reply_text(reply, DISCORD)
            self.boards[who.id, channel] = reply
        except PlayError as error:
            refused, raised, message = True, True, respond.error_text(error, DISCORD)
            self.boards.pop((who.id, channel), None)
        after = self.after()
        unreadable = surely_unreadable(text)
        # A `u` in the text takes a move back, and that stands even when a later move is refused.
        found = self.state_problems(before, after, who, (refused and not played and not undoes(text)) or unreadable,
                                    unreadable, refused)
        found += self.message_problems(message, text, refused, raised)
        problems.add(what, found)
        board = self.boards.get((who.id, channel))
        if board is not None and board.finished:
            self.boards[who.id, channel] = await solo.start(who, guild_id=GUILD, channel_id=channel,
                                                            name=SOLO_GAMES[channel])
            self.last = None

    async def race_move(self, rng: Random, problems: Problems) -> None:
        """A move typed to /race move by alice (in the running race) or someone not in it."""
        races = self.client.races
        who = rng.choice((PEOPLE["alice"], PEOPLE["alice"], PEOPLE["bob"], PEOPLE["zed"]))
        current = self.boards.get((who.id, self.race_channel))
        if current is None:
            with contextlib.suppress(PlayError):
                current = self.boards[who.id, self.race_channel] = await races.running(who, self.race_channel)
        game, seat = (current.game, current.seat) if current is not None else (None, None)
        text = random_text(rng, legal=lambda: [str(m) for m in game.legal_moves(seat)] if game and seat is not None
                           else [])
        what = f"/race move moves={text!r} by {who.name}"
        before = self.before()
        refused, raised, message = False, False, ""
        try:
            if current is None:
                current = await races.running(who, self.race_channel)
            reply = await races.move(current.race.id, who, text, seen=current.seen)
            refused, message = not reply.ok, race_text(reply.events, DISCORD)
            self.boards[who.id, self.race_channel] = reply
        except PlayError as error:
            refused, raised, message = True, True, respond.error_text(error, DISCORD)
            self.boards.pop((who.id, self.race_channel), None)
        after = self.after()
        unreadable = surely_unreadable(text)
        # A refused race move may follow moves of the same text that stand: only an unreadable one,
        # or one refused before it was tried, must leave everything as it was.
        found = self.state_problems(before, after, who, unreadable or raised, unreadable, refused)
        found += self.message_problems(message, text, refused, raised)
        problems.add(what, found)
        if raised or self.boards[who.id, self.race_channel].race.status != "running":
            status = dict(self.db.execute("SELECT channel_id, status FROM races").fetchall())
            if status.get(self.race_channel) != "running":
                await self.new_race()

    async def option(self, rng: Random, problems: Problems) -> None:
        """A name typed to a text option of /play, /daily, /match open, /rules, /team, or an autocomplete."""
        who = rng.choice(list(PEOPLE.values()))
        name = random_name(rng)
        command = rng.choice(("play", "daily", "match open", "rules", "team create", "team join", "autocomplete"))
        if command in ("daily", "match open") and name in GAMES:
            name += "!"  # a real daily waits for the solver; a real match open posts to Discord
        what = f"/{command} {name!r} by {who.name}"
        inter = self.interaction(who, channel_id=rng.choice((CHANNEL, 80, 81)), manage=rng.random() < 0.5)
        if command != "autocomplete":
            cog = self.matches_cog if command.startswith(("team", "match")) else self.competition_cog \
                if command == "daily" else self.solo_cog
            option = next(c for c in cog.get_app_commands() for c in getattr(c, "commands", [c])
                          if c.qualified_name == command).get_parameter("name" if "team" in command else "game")
            assert option is not None
            name = fit(name, option.min_value, option.max_value)
        before = self.before()
        solo, competition, matches = self.solo_cog, self.competition_cog, self.matches_cog
        calls: dict[str, Callable[[], Awaitable[Any]]] = {
            "play": lambda: solo.play.callback(solo, inter, game=name),
            "daily": lambda: competition.daily.callback(competition, inter, game=name),
            "match open": lambda: matches.open.callback(matches, inter, game=name),
            "rules": lambda: solo.rules.callback(solo, inter, game=name),
            "team create": lambda: matches.team_create.callback(matches, inter, name=name),
            "team join": lambda: matches.team_join.callback(matches, inter, name=name),
        }
        found: list[str] = []
        try:
            if command == "autocomplete":
                for complete in (game_choices, matches.team_names):
                    choices = await complete(inter, name)
                    if len(choices) > 25 or any(not 1 <= len(c.name) <= 100 or len(str(c.value)) > 100
                                                for c in choices):
                        found.append(f"autocomplete choices Discord refuses: {choices[:3]}")
            else:
                await calls[command]()
                found += judge(inter.said, name + "".join(world_names(self.db)),
                               error=None if command != "rules" or name not in GAMES else False)
        except Exception as error:  # nothing may escape a command
            found.append(f"raised {error!r}")
        after = self.after()
        inert = command in ("rules", "autocomplete", "daily", "match open") or (
            command == "play" and name not in GAMES) or (command == "team create" and not 1 <= len(
                " ".join(name.split())) <= 32)
        if inert and before != after:
            found.append(f"changed the stored state: {differences(before, after)}")
        problems.add(what, found)

    async def press(self, who: Player, click: Click, *, manage: bool = False) -> list[Seen]:
        """Click a button (or pick in a menu) with this custom_id as discord.py would dispatch it: to
        the DynamicItem whose template takes it, rebuilt by `from_custom_id`, and to the cogs'
        interaction listeners; what the bot answered."""
        data: dict[str, Any] = {"custom_id": click.custom_id, "component_type": 3 if click.is_select else 2}
        if click.is_select:
            data["values"] = list(click.values)
        inter = self.interaction(who, manage=manage, data=data)
        await self.solo_cog.on_interaction(inter)  # type: ignore[arg-type]
        taken = template_of(click.custom_id)
        if taken is not None:
            item_class, matched = taken
            base: discord.ui.Item[Any]
            if click.is_select:
                base = discord.ui.Select(custom_id=click.custom_id, options=[
                    discord.SelectOption(label=value[:100], value=value[:100]) for value in click.values])
            else:
                base = discord.ui.Button(label="·", custom_id=click.custom_id)
            item = await item_class.from_custom_id(inter, base, matched)
            item._refresh_state(inter, data)  # as discord.py's dispatch does: a menu's values are set
            await item.callback(inter)
        return inter.said

    async def component(self, rng: Random, problems: Problems, real_ids: list[str]) -> None:
        """A click or menu pick with a fuzzed custom_id, through the real DynamicItem (or the fallback)."""
        before = self.before()
        world = World.of(before, self.db)
        who = rng.choice((PEOPLE["alice"],) * 2 + tuple(PEOPLE.values()))  # the owner of most boards
        manage = rng.random() < 0.3
        click = random_click(rng, world, real_ids, real_share=0.05)  # fewer boards to draw here
        what = f"{'pick' if click.is_select else 'click'} {click.custom_id!r} {list(click.values)} by {who.name}"
        found: list[str] = []
        shared = self.shared_dailies()
        try:
            said = await self.press(who, click, manage=manage)
            # A daily started by a post's Play and then ended may be shared: its card is a public answer.
            posted = self.shared_dailies() > shared
            found += judge(said, click.custom_id + "".join(click.values) + "".join(world_names(self.db)),
                           error=False if posted else None)
        except Exception as error:  # nothing may escape a handler
            found.append(f"raised {error!r}")
        after = self.after()
        if inert_click(click, world, who.id, manage) and before != after:
            found.append(f"changed the stored state: {differences(before, after)}")
        strangers = {game: owner for game, owner in changed_games(before, after).items() if owner != who.id}
        taken = template_of(click.custom_id)
        if strangers and taken is not None and taken[0] is BoardButton:
            found.append(f"changed another player's game {strangers}")
        problems.add(what, found)

    @staticmethod
    def message_problems(message: str, text: str, refused: bool, raised: bool) -> list[str]:
        """What is wrong with the sentence a player sees for a move: as the views show it (an error
        as a private message, else above the board), it must be short and clear."""
        shown = fit_to_show(message, respond.ERROR_LIMIT if raised else respond.DISCORD_LIMIT)
        found = []
        if refused and (not shown or len(shown) > ERROR_LIMIT):
            found.append(f"error of {len(shown)} characters: {shown[:120]!r}")
        if len(shown) > DISCORD_LIMIT or (why := unclear(shown, text)):
            found.append(f"unclear answer {shown[:160]!r} ({why or 'too long'})")
        return found

    @staticmethod
    def state_problems(before: Snapshot, after: Snapshot, who: Player, unchanged: bool, must_refuse: bool,
                       refused: bool) -> list[str]:
        """What is wrong with a move's effect on the store: a change where there must be none, an
        unreadable move not refused, or a change to someone else's game."""
        found = []
        if unchanged and before != after:
            found.append(f"refused, yet changed the stored state: {differences(before, after)}")
        if must_refuse and not refused:
            found.append("unreadable, yet not refused")
        strangers = {game: owner for game, owner in changed_games(before, after).items() if owner != who.id}
        if strangers:
            found.append(f"changed another player's game {strangers}")
        return found


async def test_fuzz_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """9,400 inputs through the play layer, the cogs' callbacks and the DynamicItems, in-process.
    A member's answers are not paced here (tests/views/test_turns.py tests the pace): the fuzz
    plays far faster than any member may, as it does without rate limits."""
    monkeypatch.setattr(respond, "MEMBER_PACE", 0.0)
    rng = Random(SEED)
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    store = await open_store(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}")
    bench = Bench(store, tmp_path / "fuzz.sqlite3")
    problems = Problems("in-process fuzz")
    try:
        await bench.build()
        for _ in range(IN_PROCESS["solo"]):
            await bench.solo_move(rng, problems)
        for _ in range(IN_PROCESS["race"]):
            await bench.race_move(rng, problems)
        for _ in range(IN_PROCESS["options"]):
            await bench.option(rng, problems)
        real_ids: list[str] = []
        for count in range(IN_PROCESS["components"]):
            if count % 200 == 0:
                real_ids = await bench.real_ids()
            await bench.component(rng, problems, real_ids)
    finally:
        logging.getLogger().removeHandler(errors)
        bench.db.close()
        await store.close()
    problems.add("the log", [f"{r.levelname} {r.name}: {r.getMessage()[:200]}" for r in errors.records])
    problems.check(sum(IN_PROCESS.values()))


async def test_regressions_in_process(tmp_path: Path) -> None:
    """The bugs the fuzz found, one input each, with what was wrong."""
    store = await open_store(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}")
    bench = Bench(store, tmp_path / "fuzz.sqlite3")
    try:
        await bench.build()
        alice, bob, carol, zed = PEOPLE["alice"], PEOPLE["bob"], PEOPLE["carol"], PEOPLE["zed"]
        game = (await bench.client.solo.running(alice, CHANNEL)).game_id

        # A custom_id that no template takes (an older version's button, say) got no answer at all.
        for custom_id in ("zz", f"pe:{game}:0:zap", "pl:players", "pe:9223372036854775808:0:draw"):
            said = await bench.press(zed, Click(custom_id))
            assert judge(said, custom_id) == [] and "no longer in use" in said[0].content, (custom_id, said)
        # An id of 19 digits or more passed the templates and overflowed SQLite's integers: "Something
        # went wrong" and a traceback in the log.
        for custom_id in ("pe:9999999999999999999:0:draw", "pe:10000000000000000000:0:pick",
                          "pm:9223372036854775808:join", "pm:99999999999999999999:team", "pr:9999999999999999999:join",
                          "prb:9999999999999999999:0:draw"):
            assert template_of(custom_id) is None, custom_id
        assert template_of(f"pe:{game}:0:draw") is not None  # the ids the bot makes still match
        said = await bench.press(zed, Click(f"pe:{game}:0:hint"))  # one answer, the item's, not the fallback's
        assert len(said) == 1 and "not your game" in said[0].content

        # An error quoting a long input went over Discord's 2,000 characters: Discord refused the
        # answer, the player saw "This interaction failed" and the log a traceback.
        solo, competition, matches = bench.solo_cog, bench.competition_cog, bench.matches_cog
        commands: list[Callable[[StandInInteraction, str], Awaitable[None]]] = [
            lambda inter, name: solo.rules.callback(solo, inter, game=name),
            lambda inter, name: solo.play.callback(solo, inter, game=name),
            lambda inter, name: competition.daily.callback(competition, inter, game=name),
            lambda inter, name: matches.open.callback(matches, inter, game=name),
            lambda inter, name: matches.team_join.callback(matches, inter, name=name)]
        for name in ("q" * 5_000, "qq " * 2_000):
            for command in commands:
                inter = bench.interaction(zed, channel_id=80)
                await command(inter, name)
                assert judge(inter.said, name) == [], inter.said
        inter = bench.interaction(alice)
        await bench.solo_cog.move.callback(bench.solo_cog, inter, moves="t1" + "q" * 5_000)
        assert judge(inter.said, "", error=True) == [] and not inter.said[0].has_file, inter.said  # in words

        # Cancel on a match that was over stored "cancelled" before it refused: a finished (or
        # expired) match became a cancelled one, a cancelled one got a new end time.
        for what in ("cancelled match", "expired match"):
            match = bench.named[what]
            before = snapshot(bench.db)
            said = await bench.press(carol, Click(f"pm:{match}:cancel"), manage=True)
            assert "nothing to cancel" in said[0].content and judge(said, "") == [], said
            assert snapshot(bench.db) == before, differences(before, snapshot(bench.db))

        # A race board's refusal replaced the board it was clicked on (text, no image); it is a
        # private message now.
        for who, race in ((zed, bench.named["running race"]), (bob, bench.named["race lobby"])):
            said = await bench.press(who, Click(f"prb:{race}:0:refresh"))
            assert said[0].how == "message" and judge(said, "") == [], said

        # /play deal went up to 10**22: Discord takes integers up to 2**53 - 1 and SQLite's end at
        # 2**63 - 1 (OverflowError, "Something went wrong").
        deal = bench.solo_cog.play.get_parameter("deal")
        assert deal is not None and deal.max_value == 2**53 - 1
        inter = bench.interaction(zed, channel_id=82)
        await bench.solo_cog.play.callback(bench.solo_cog, inter, deal=deal.max_value)
        assert inter.said[0].has_file and f"deal #{deal.max_value}" in inter.said[0].content, inter.said
    finally:
        bench.db.close()
        await store.close()


# --- through the real bot and the fake Discord -------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Sent:
    """One input for the real bot: a slash command, a mention, an autocomplete, a click or a pick."""

    kind: str  # "slash", "mention", "autocomplete", "click"
    user: str
    command: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    text: str = ""
    click: Click | None = None

    def __str__(self) -> str:
        if self.kind == "click" and self.click is not None:
            return f"{self.user} clicks {self.click.custom_id!r} {list(self.click.values)}"
        if self.kind == "mention":
            return f"{self.user} says @bot {self.text!r}"
        return f"{self.user} {self.kind} /{self.command} {dict(self.options)!r}"[:400]

    @property
    def typed(self) -> str:
        """Everything the player typed or sent (answers may quote it)."""
        values = "".join(str(value) for _, value in self.options)
        return self.text + values + (self.click.custom_id + "".join(self.click.values) if self.click else "")


USERS = ("alice", "bob", "carol", "dave", "erin", "zed")


def declared(fake: FakeDiscord, command: str, option: str) -> dict[str, Any]:
    """An option of a synced command as declared to Discord (its limits are what Discord lets be sent)."""
    words = command.split()
    specs = fake.find_command(words[0]).get("options", [])
    for word in words[1:]:
        specs = next(o for o in specs if o["name"] == word).get("options", [])
    return next(o for o in specs if o["name"] == option)


def random_sent(rng: Random, world: World, real_ids: list[str], fake: FakeDiscord,
                ids: dict[str, int]) -> tuple[Sent, bool]:
    """A random input for the real bot, and whether it is inert (cannot change the stored state)."""
    user = rng.choice(("alice", "alice", *USERS))  # alice has a game, a round and a race seat
    uid = ids[user]
    kind = rng.random()
    if kind < 0.40:
        click = random_click(rng, world, real_ids)
        owners = owners_of(click, world)
        if owners and rng.random() < 0.5:  # as often the player whose board, match or race it is
            uid = rng.choice(owners)
            user = next((name for name, number in ids.items() if number == uid), user)
        return Sent("click", user, click=click), inert_click(click, world, ids[user], manage=True)
    if kind < 0.55:
        text = random_text(rng, longest=1_900)
        return Sent("mention", user, text=text), (surely_unreadable(text) and not answered_in_words(text)
                                                   and not starts_a_game(text))
    if kind < 0.80:
        command = "move" if rng.random() < 0.7 else "race move"
        spec = declared(fake, command, "moves")
        text = fit(random_text(rng), spec.get("min_length"), spec.get("max_length"))
        return Sent("slash", user, command, (("moves", text),)), surely_unreadable(text) and not starts_a_game(text)
    name = random_name(rng)
    command = rng.choice(("play", "rules", "daily", "match open", "team create", "team join", "prefix", "play deal",
                          "autocomplete"))
    if command == "play deal":
        spec = declared(fake, "play", "deal")
        low, high = int(spec.get("min_value", 1)), int(spec.get("max_value", 2**53 - 1))
        deal = rng.choice((low, high, rng.randint(low, high), 2**31, 2**53 - 1, 2**63 - 1, 2**63, 10**20))
        deal = min(max(deal, low), high)
        has_game = any(g["user_id"] == uid and g["status"] == "playing" and g["kind"] == "solo"
                       for g in world.games.values())
        return Sent("slash", user, "play", (("deal", deal),)), has_game
    if command == "prefix":
        return Sent("slash", user, "prefix", (("prefix", (name or "!")[:5]),)), True
    if command == "autocomplete":
        which = rng.choice((("play", "game"), ("rules", "game"), ("daily", "game"), ("team join", "name")))
        return Sent("autocomplete", user, which[0], ((which[1], name[:100]),)), True
    option = "name" if command.startswith("team") else "game"
    spec = declared(fake, command, option)
    name = fit(name, spec.get("min_length"), spec.get("max_length"))
    if command in ("daily", "match open") and name in GAMES:
        name += "!"  # a real daily waits for the solver: keep the fuzz quick
    inert = command in ("rules", "daily", "match open") or (command == "play" and name not in GAMES) or (
        command == "team join" and name.lower().strip() not in {t.lower() for t in world.teams}
        and " ".join(name.split()).lower() not in {t.lower() for t in world.teams}) or (
        command == "team create" and not 1 <= len(" ".join(name.split())) <= 32)
    return Sent("slash", user, command, ((option, name),)), inert


def message_for(fake: FakeDiscord, user: FakeUser, click: Click) -> StoredMessage:
    """A private message of the bot's carrying one component with the click's custom_id (as a board,
    a lobby or a leaderboard page would), for the user to click."""
    if click.is_select:
        options = [{"label": value[:100] or "·", "value": value} for value in click.values]
        component = {"type": 3, "custom_id": click.custom_id, "options": options, "min_values": 1, "max_values": 1}
    else:
        component = {"type": 2, "style": 2, "label": "·", "custom_id": click.custom_id}
    message = StoredMessage(id=fake.snowflake(), channel_id=fake.channel_id, guild_id=fake.guild_id,
                            author=fake.bot_user, created_at=datetime.now(UTC), content="·",
                            components=[{"type": 1, "components": [component]}], flags=FLAG_EPHEMERAL,
                            owner_id=user.id)
    fake.messages[message.id] = message
    return message


async def answer_to(fake: FakeDiscord, interaction: FakeInteraction, source: StoredMessage | None) -> list[Seen]:
    """What the user saw in answer to an interaction; a failure is raised as a problem string."""
    crafted = source.components if source is not None else None
    await interaction.wait(timeout=fake.ack_deadline + 1, check=False)
    if interaction.failed:
        raise AssertionError(f"no answer: {interaction.failure}")
    message = await interaction.wait_response(timeout=15)
    assert message is not None
    how = "edit" if source is not None and message.id == source.id else "message"
    components = [] if message.components is crafted else message.components  # an edit may keep them
    return [Seen(how, message.content, message.ephemeral, bool(message.attachments), components)]


async def send(fake: FakeDiscord, sent: Sent, db: sqlite3.Connection) -> list[str]:
    """Send one input through the fake and judge the answer; the problems found."""
    user = fake.user(sent.user)
    typed = sent.typed + "".join(world_names(db))
    try:
        if sent.kind == "click":
            assert sent.click is not None
            source = message_for(fake, user, sent.click)
            if sent.click.is_select:
                interaction = await fake.select(user, source, sent.click.custom_id, list(sent.click.values))
            else:
                interaction = await fake.click(user, source, sent.click.custom_id)
            return judge(await answer_to(fake, interaction, source), typed)
        if sent.kind == "autocomplete":
            await fake.autocomplete(user, sent.command, dict(sent.options), timeout=fake.ack_deadline + 1)
            return []
        if sent.kind == "mention":
            said = await fake.message(user, f"{fake.bot_user.mention} {sent.text}")
            reply = await fake.wait_for_bot_message(
                predicate=lambda m: (m.message_reference or {}).get("message_id") == str(said.id), timeout=15)
            refused = not reply.attachments and not answered_in_words(sent.text)
            return judge([Seen("message", reply.content, True, bool(reply.attachments), reply.components)],
                         typed, error=refused)
        interaction = await fake.slash_command(user, sent.command, dict(sent.options))
        return judge(await answer_to(fake, interaction, None), typed,
                     error=None if sent.command != "rules" else dict(sent.options).get("game") not in GAMES)
    except (AssertionError, TimeoutError) as problem:
        return [str(problem)[:300]]


async def start_bot(bots: BotRunner, tmp_path: Path) -> BotProcess:
    """`python -m bot` with its own database file."""
    return await bots.start_bot("bot", env={"DATABASE_URL": f"sqlite:///{tmp_path / 'pe.sqlite3'}",
                                            "HEALTH_FILE": str(tmp_path / "alive")})


async def build_world(fake: FakeDiscord) -> list[str]:
    """Games, matches, a team and races in every state through the real bot; the custom_ids of
    the messages it sent."""
    async def do(user: str, command: str, **options: Any) -> StoredMessage:
        message = await (await fake.slash_command(user, command, options)).wait_response(timeout=30)
        assert message is not None, f"/{command} by {user} got no answer"
        return message

    async def press(user: str, message: StoredMessage, label: str) -> None:
        await (await fake.click(user, message, label=label)).wait_response(timeout=30)

    for name in USERS[2:]:
        fake.add_user(name)
    await do("alice", "play", deal=1)
    await do("bob", "play", deal=2, public=True)
    await do("carol", "play", deal=3)
    await do("carol", "resign")
    await do("bob", "team create", name="Red")
    await do("bob", "match open")
    lobbies = [m for m in fake.bot_messages() if m.buttons and m.buttons[0].label == "Join"]
    await press("alice", lobbies[0], "Join")
    await press("bob", lobbies[0], "Start")
    for host in ("bob", "carol"):  # a host has one lobby per channel: bob's first match has started
        await do(host, "match open")
    lobbies = [m for m in fake.bot_messages() if m.buttons and m.buttons[0].label == "Join"]
    await press("carol", lobbies[-1], "Cancel match")
    await do("dave", "race open")
    race_lobbies = [m for m in fake.bot_messages() if any(b.label == "Cancel race" for b in m.buttons)]
    await press("dave", race_lobbies[0], "Cancel race")
    await do("erin", "race open")
    race_lobbies = [m for m in fake.bot_messages() if any(b.label == "Cancel race" for b in m.buttons)]
    await press("alice", race_lobbies[-1], "Join")
    await press("erin", race_lobbies[-1], "Start")
    await do("bob", "race open")
    return sorted({custom_id for m in fake.messages.values() for custom_id in custom_ids(m.components)})


def regression_inputs(world: World, fake: FakeDiscord) -> tuple[list[Sent], list[Sent]]:
    """The inputs that showed the bugs the fuzz found (see test_regressions_in_process), sent
    first: those that must change nothing, and the others."""
    cancelled = next(m["id"] for m in world.matches.values() if m["status"] == "cancelled")
    race = next(r["id"] for r in world.races.values() if r["status"] == "running")
    game = next(g["id"] for g in world.games.values() if g["status"] == "playing")
    deal = int(declared(fake, "play", "deal")["max_value"])
    inert = [Sent("click", "zed", click=Click(custom_id)) for custom_id in (
        "zz", f"pe:{game}:0:zap", "pe:9999999999999999999:0:draw", "pm:9223372036854775808:join",
        f"pm:{cancelled}:cancel", f"prb:{race}:0:refresh")]
    inert += [Sent("slash", "zed", command, ((option, "q" * 5_000),)) for command, option in (
        ("rules", "game"), ("play", "game"), ("daily", "game"), ("match open", "game"), ("team join", "name"))]
    inert += [Sent("slash", "alice", "move", (("moves", "t1" + "q" * 5_000),)),
              Sent("mention", "bob", text="q" * 1_900)]
    return inert, [Sent("slash", "zed", "play", (("deal", deal),))]


async def run_batch(fake: FakeDiscord, batch: list[Sent], problems: Problems, db: sqlite3.Connection) -> None:
    """Send a batch, CONCURRENCY at a time, and note the problems of each input."""
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(sent: Sent) -> None:
        async with gate:
            problems.add(str(sent), await send(fake, sent, db))

    await asyncio.gather(*(one(sent) for sent in batch))


async def test_fuzz_through_the_real_bot(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    """600 inputs through `python -m bot` and the fake Discord, eight at a time."""
    rng = Random(SEED + 1)
    bot = await start_bot(bots, tmp_path)
    real_ids = await build_world(fake)
    db = open_db(tmp_path / "pe.sqlite3")
    ids = {name: fake.user(name).id for name in USERS}
    problems = Problems("real-bot fuzz")
    try:
        world = World.read(db)
        inert, other = regression_inputs(world, fake)
        wanted = {True: len(inert) + THROUGH_BOT["inert"], False: len(other) + THROUGH_BOT["any"]}
        while len(inert) < wanted[True] or len(other) < wanted[False]:
            sent, quiet = random_sent(rng, world, real_ids, fake, ids)
            bucket = inert if quiet else other
            if len(bucket) < wanted[quiet]:
                bucket.append(sent)
        before = snapshot(db)
        await run_batch(fake, inert, problems, db)
        after = snapshot(db)
        if before != after:
            problems.add("the inert inputs together", [f"changed the stored state: {differences(before, after)}"])
        await run_batch(fake, other, problems, db)
        await asyncio.sleep(1.5)  # the coalesced edits of public boards and scoreboards
    finally:
        db.close()
    log = bot.log_text()
    problems.add("the bot", [f"died with {bot.returncode}"] if not bot.running else [])
    problems.add("the bot's log", [line[:300] for line in log.splitlines()
                                   if any(w in line for w in ("Traceback", "Ignoring exception", " ERROR "))][:5])
    problems.add("the fake", [f"{r.method} {r.path}: {r.status} {str(r.payload)[:200]}" for r in fake.error_responses])
    problems.add("the fake", [f"failed: {i!r} {i.failure}" for i in fake.failed_interactions])
    problems.check(len(inert) + len(other))
