"""Nobody is pinged who should not be: every message the bot sends, of every kind, carries
allowed mentions that can ping only the users it means to, whatever members type into team
names and messages (@everyone, a role's mention)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.views.respond import ANSWER_WITHIN
from bot.words import DISCORD
from tests.samples import won_game
from tests.test_words import left_raw

from .fakediscord import FakeDiscord, RecordedRequest
from .harness import BotRunner, said
from .test_bot import SOLVER_WAIT, start
from .test_matches import _eventually, give_round_a_known_winning_deck

WON = won_game("canfield")
ROLE = "<@&150000000000>"
TEAM = f"@everyone {ROLE}"

KINDS = [  # (method, path pattern, kind of message)
    ("POST", re.compile(r"/channels/\d+/messages"), "channel message"),
    ("PATCH", re.compile(r"/channels/\d+/messages/\d+"), "message edit"),
    ("POST", re.compile(r"/interactions/\d+/[^/]+/callback"), "interaction response"),
    ("POST", re.compile(r"/webhooks/\d+/[^/]+"), "followup"),
    ("PATCH", re.compile(r"/webhooks/\d+/[^/]+/messages/[^/]+"), "response edit"),
]


def kind_of(request: RecordedRequest) -> tuple[str, dict[str, Any]] | None:
    """The kind of message a request sends and its message fields, or None for other requests
    (and for callbacks without a message: deferrals)."""
    for method, pattern, kind in KINDS:
        if request.method == method and pattern.fullmatch(request.path):
            payload = request.payload or {}
            if kind == "interaction response":
                if payload.get("type") not in (4, 7):
                    return None
                return ("update" if payload["type"] == 7 else kind), payload.get("data") or {}
            if kind == "channel message" and payload.get("message_reference"):
                return "reply", payload
            return kind, payload
    return None


@asynccontextmanager
async def database_held(path: Path, *, changing_game: int | None = None) -> AsyncIterator[None]:
    """Hold the bot's SQLite database for writing, as another process would, until half a second
    past ANSWER_WITHIN after the block (so that what the block set going waits for it, past the
    bot's deferral); with
    `changing_game`, that game's version moves on meanwhile, as if it were played elsewhere."""
    db = sqlite3.connect(path, isolation_level=None, timeout=10)
    try:
        db.execute("BEGIN IMMEDIATE")
        if changing_game is not None:
            db.execute("UPDATE games SET version = version + 1 WHERE id = ?", (changing_game,))
        yield
        await asyncio.sleep(ANSWER_WITHIN + 0.5)
        db.execute("COMMIT")
    finally:
        db.close()


def pings(fields: dict[str, Any]) -> tuple[set[str], set[int]]:
    """What a message's allowed mentions let ping: the kinds it parses, and the users it names."""
    allowed = fields["allowed_mentions"]
    assert not allowed.get("roles") and not allowed.get("replied_user"), allowed
    return set(allowed.get("parse", [])), {int(user) for user in allowed.get("users", [])}


async def test_every_message_the_bot_sends_pings_only_whom_it_means(fake: FakeDiscord, bots: BotRunner,
                                                                    tmp_path: Path) -> None:
    bot = await start(bots, tmp_path)
    carol = fake.add_user("carol", permissions=0)
    made = await (await fake.slash_command("alice", "team create", {"name": TEAM})).wait_response()
    assert DISCORD.name(TEAM) in said(made)  # quoted, and inert besides
    await (await fake.slash_command("bob", "team create", {"name": "@here"})).wait_response()
    await (await fake.slash_command(carol, "team join", {"name": "@here"})).wait_response()
    await (await fake.slash_command("alice", "match open", {"teams": True, "target": 300})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: "team match #1" in said(m))
    assert DISCORD.name(TEAM) in said(lobby)
    await (await fake.select(carol, lobby, lobby.selects[0].custom_id, ["@here"])).wait_response()
    await (await fake.click("alice", lobby, label="Start")).wait_response()
    assert await _eventually(fake, lambda: "Playing" in said(lobby))
    carol_board = await (await fake.click(carol, lobby, label="My board")).wait_response()
    drawn = await (await fake.click(carol, carol_board, label="Draw (34)")).wait_response()  # an update
    # A round's random deal can be one no move helps after a draw (1.7% of deals): that round ends,
    # the next is dealt; play on with the first that a draw leaves in play.
    for _ in range(5):
        if not next(b for b in drawn.buttons if (b.label or "").startswith("Draw")).disabled:
            break
        carol_board = await (await fake.click(carol, drawn, label="Next round ▶")).wait_response(timeout=30)
        drawn = await (await fake.click(carol, carol_board, label="Draw (34)")).wait_response()

    # Answers that wait on the database (held by this test) are deferred, and come later: a
    # board as an edit of the deferred response, a refusal as a followup.
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        (carols_round,) = db.execute("SELECT id FROM games WHERE user_id = ? AND status = 'playing'",
                                     (carol.id,)).fetchone()
    assert not next(b for b in drawn.buttons if b.label == "Draw (31)").disabled, said(drawn)
    async with database_held(tmp_path / "pe.sqlite3"):
        waited = await fake.click(carol, drawn, label="Draw (31)")
    drawn = await waited.wait_response()
    assert waited.deferred and drawn.id == carol_board.id and said(drawn) == "Played d.", waited
    async with database_held(tmp_path / "pe.sqlite3", changing_game=carols_round):
        refused = await fake.click(carol, drawn, label="Draw (28)")
    refusal = await refused.wait_response()
    assert refused.deferred and refused.followups and "changed elsewhere" in said(refusal), refused

    current = await (await fake.click(carol, lobby, label="My board")).wait_response()
    resigned = await (await fake.click(carol, current, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert [b.label for b in resigned.buttons][-1] == "Next round ▶"
    left = await (await fake.click(carol, lobby, label="Leave")).wait_response()
    assert "You left" in said(left)

    # Alice wins for team "@everyone <@&…>"; her winning /move is public.
    await bot.kill()
    give_round_a_known_winning_deck(tmp_path / "pe.sqlite3", fake.alice.id)
    await bot.restart()
    line = " ".join(str(move) for move in WON.moves)
    won = await (await fake.slash_command("alice", "move", {"moves": line, "public": True})).wait_response()
    assert not won.ephemeral and "The demon is exorcised!" in said(won)
    announcement = await fake.wait_for_bot_message(
        predicate=lambda m: said(m).startswith("**The demon is exorcised!**"), timeout=5)
    assert f"Team **{DISCORD.name(TEAM)}** (" in said(announcement)
    # A member makes the bot quote @everyone and a role, publicly.
    sent = await fake.message("bob", f"{fake.bot_user.mention} @everyone {ROLE}", mentions_bot=True)
    await fake.wait_for_bot_message(after=sent)

    assert await _eventually(fake, lambda: "Finished." in said(lobby))
    seen: dict[str, int] = {}
    for request in fake.requests:
        found = kind_of(request)
        if found is None:
            continue
        kind, fields = found
        seen[kind] = seen.get(kind, 0) + 1
        parse, users = pings(fields)
        assert parse == set(), (kind, fields)  # never @everyone, roles, or whoever a text names
        assert users == set(), (kind, fields)  # a team's win pings nobody: its name is words
    assert set(seen) == {"channel message", "message edit", "interaction response", "update", "followup",
                         "response edit", "reply"}, seen


async def test_a_players_win_pings_that_player_alone(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    bot = await start(bots, tmp_path)
    await (await fake.slash_command("alice", "match open", {"target": 300})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: "match #1" in said(m))
    await (await fake.click("bob", lobby, label="Join")).wait_response()
    await (await fake.click("alice", lobby, label="Start")).wait_response()
    await bot.kill()
    give_round_a_known_winning_deck(tmp_path / "pe.sqlite3", fake.alice.id)
    await bot.restart()
    line = " ".join(str(move) for move in WON.moves)
    await (await fake.slash_command("alice", "move", {"moves": line})).wait_response()
    announcement = await fake.wait_for_bot_message(
        predicate=lambda m: said(m).startswith("**The demon is exorcised!**"), timeout=5)
    request = next(r for r in fake.requests if r.method == "POST" and (r.payload or {}).get("content")
                   == said(announcement))
    assert pings(request.payload) == (set(), {fake.alice.id})


async def test_names_members_chose_are_shown_as_typed_and_do_nothing(fake: FakeDiscord, bots: BotRunner,
                                                                       tmp_path: Path) -> None:
    """A replay's caption in French names its player, a team's name is quoted in answers, lists
    and a lobby: their markdown, mentions and links escaped, so that Discord shows them as typed."""
    name, team = "**b** ||s||", "[link](https://x) <@123> __x__"
    # As Discord shows them as typed, doing nothing: each sign escaped, the link's colon too.
    assert DISCORD.name(name) == r"\*\*b\*\* \|\|s\|\|"
    assert DISCORD.name(team) == r"\[link](https\://x) \<@123> \_\_x\_\_"
    zoe = fake.add_user("zoe", global_name=name)
    fake.set_locale(zoe, "fr")
    french = DISCORD.speaking("fr")
    await start(bots, tmp_path)
    await (await fake.slash_command(zoe, "play", {"deal": 1})).wait_response()
    await (await fake.slash_command(zoe, "resign", {})).wait_response(timeout=SOLVER_WAIT)
    replay = await (await fake.slash_command(zoe, "replay", {"public": True})).wait_response(timeout=SOLVER_WAIT)
    caption = said(replay)
    assert not replay.ephemeral and caption.startswith("Rediffusion")
    assert french.bold(french.name(name)) in caption and not left_raw(caption, name, french), caption
    assert name in replay.attachment().description  # the GIF's alt text is not markdown: the name as it is

    made = await (await fake.slash_command(zoe, "team create", {"name": team})).wait_response()
    listed = await (await fake.slash_command(zoe, "team list", {})).wait_response()
    for answer in (made, listed):
        assert french.name(team) in said(answer) and not left_raw(said(answer), team, french), said(answer)
    assert said(listed) == f"**{french.name(team)}**: {french.name(name)}"
    await (await fake.slash_command(zoe, "match open", {"teams": True})).wait_response()
    lobby = await fake.wait_for_bot_message(predicate=lambda m: "team match #1" in said(m))
    for chosen in (name, team):  # the channel's words, in English: the name is the same
        assert DISCORD.name(chosen) in said(lobby) and not left_raw(said(lobby), chosen, DISCORD), said(lobby)
