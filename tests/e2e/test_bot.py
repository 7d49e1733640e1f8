"""Our bot, end to end: the real discord.py client in `python -m bot`, against the fake Discord."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from bot.game import GAMES
from bot.views.respond import ANSWER_WITHIN, CROWD, RATE_WINDOW
from render.board import GEOMETRY
from render.layouts import layout_for

from .fakediscord import (
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    StoredMessage,
)
from .harness import BotProcess, BotRunner, said

COMMANDS = {"play", "move", "board", "undo", "hint", "resign", "rules", "help", "prefix"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Answers that wait for the solver (the verdict at a game's end, the day's winnable deal) are
# deferred within the 3 seconds and may take longer to come in full.
SOLVER_WAIT = 30.0


async def start(bots: BotRunner, tmp_path: Path, **env: str) -> BotProcess:
    """Start `python -m bot` with its own database file."""
    return await bots.start_bot("bot", env={"DATABASE_URL": f"sqlite:///{tmp_path / 'pe.sqlite3'}",
                                            "HEALTH_FILE": str(tmp_path / "alive"), **env})


def board_width(game: str) -> int:
    """The width of `game`'s board image (its layout's)."""
    return GEOMETRY.width(layout_for(GAMES[game]))


def board_of(message: StoredMessage) -> Image.Image:
    attachment = message.attachment("board.png")
    assert attachment.data.startswith(PNG_SIGNATURE)
    return Image.open(io.BytesIO(attachment.data))


def button(message: StoredMessage, label_start: str):
    return next(b for b in message.buttons if (b.label or "").startswith(label_start))


def stored_moves(tmp_path: Path) -> list[tuple[int, str, int]]:
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        return db.execute("SELECT user_id, moves, version FROM games ORDER BY id").fetchall()


async def play(fake: FakeDiscord, user="alice", **options) -> StoredMessage:
    reply = await fake.slash_command(user, "play", options)
    message = await reply.wait_response()
    assert reply.latency is not None and reply.latency < 3
    assert message is not None
    return message


async def test_play_gives_a_private_board_with_buttons(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    assert set(fake.command_names()) >= COMMANDS
    message = await play(fake, deal=1)
    assert message.ephemeral and "New game of Canfield, deal #1" in said(message)
    assert board_of(message).size[0] == board_width("canfield")
    labels = {b.label for b in message.buttons}
    assert {"Draw (34)", "Auto ▲", "Undo", "Hint", "Resign", "r · QC", "t2 · 2S"} <= labels
    assert button(message, "Undo").disabled and not button(message, "Draw").disabled
    assert message.selects and message.selects[0].custom_id.endswith(":0:pick")
    assert stored_moves(tmp_path) == [(fake.alice.id, "", 0)]


async def test_draw_and_a_pile_button_update_the_image(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    message = await play(fake, deal=1)
    first = board_of(message).tobytes()
    reply = await fake.click("alice", message, label="Draw (34)")
    updated = await reply.wait_response()
    assert reply.response_type == UPDATE_MESSAGE and reply.latency < 3
    assert updated.id == message.id and said(updated) == "Played d."
    assert board_of(updated).tobytes() != first and button(updated, "Draw").label == "Draw (31)"
    assert not button(updated, "Undo").disabled
    reply = await fake.click("alice", updated, label="r · QC")  # a tap: the reserve's top to its best place
    after_tap = await reply.wait_response()
    assert said(after_tap) == "Played rt4." and button(after_tap, "r · ").label == "r · AD"
    assert stored_moves(tmp_path) == [(fake.alice.id, "d rt4", 2)]


async def test_pick_then_tap_a_target_moves_a_chosen_group(fake: FakeDiscord, bots: BotRunner,
                                                            tmp_path: Path) -> None:
    await start(bots, tmp_path)
    message = await play(fake, deal=1)
    select = message.selects[0]
    reply = await fake.select("alice", message, select.custom_id, ["t2.1"])
    picked = await reply.wait_response()
    assert "Picked 2S from t2" in said(picked)
    assert [b.label for b in picked.buttons if not b.disabled] == ["Cancel pick", "t3 · 3H"]
    reply = await fake.click("alice", picked, label="t3 · 3H")
    moved = await reply.wait_response()
    assert said(moved) == "Played t2t3." and stored_moves(tmp_path)[0][1] == "t2t3"


async def test_a_text_move_by_mention_works_and_a_garbled_one_changes_nothing(fake: FakeDiscord, bots: BotRunner,
                                                                            tmp_path: Path) -> None:
    await start(bots, tmp_path)
    await play(fake, deal=1)
    sent = await fake.message("alice", f"{fake.bot_user.mention} d rt4", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=sent)
    assert said(answer) == "Played d rt4." and board_of(answer).size[0] == board_width("canfield")
    sent = await fake.message("alice", f"{fake.bot_user.mention} zz9", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=sent)
    assert said(answer).startswith("cannot read 'zz9'")
    sent = await fake.message("alice", f"{fake.bot_user.mention} rt1", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=sent)
    assert said(answer).startswith("'rt1' is not legal: AD cannot go on KS")
    reply = await fake.slash_command("alice", "move", {"moves": "t9 t9 t9"})
    answer = await reply.wait_response()
    assert answer.ephemeral and "t9" in said(answer)
    assert stored_moves(tmp_path) == [(fake.alice.id, "d rt4", 1)]
    sent = await fake.message("bob", f"{fake.bot_user.mention} d", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=sent)
    assert "no game in this channel" in said(answer)


async def test_a_message_of_moves_is_read_whole_and_the_words_work_by_mention_and_by_move(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    race = await play(fake, game="demon-race")
    assert race.ephemeral and said(race) == "A demon race is played together: open one with /race open."
    await play(fake, deal=1)
    for text in ("draw raw", "d rt4 dad", "saw"):  # once read as letters: d, then r, a, w...
        sent = await fake.message("alice", f"{fake.bot_user.mention} {text}", mentions_bot=True)
        answer = await fake.wait_for_bot_message(after=sent)
        bad = text.split()[-1]
        assert said(answer).startswith(f"cannot read {bad!r}: moves look like rt2"), said(answer)
    assert stored_moves(tmp_path) == [(fake.alice.id, "", 0)]
    sent = await fake.message("alice", f"{fake.bot_user.mention} draw", mentions_bot=True)
    typed = await fake.wait_for_bot_message(after=sent)  # a reply to the message: a V2 board too
    assert said(typed) == "Played d." and typed.v2 and "Stock: 31 cards." in typed.attachment().description
    reply = await fake.slash_command("alice", "move", {"moves": "rules"})
    assert "**Canfield**" in said(await reply.wait_response())
    reply = await fake.slash_command("alice", "move", {"moves": "help"})
    assert "Words work too" in said(await reply.wait_response())
    reply = await fake.slash_command("alice", "move", {"moves": "board"})
    assert board_of(await reply.wait_response()).size[0] == board_width("canfield")
    reply = await fake.slash_command("alice", "move", {"moves": "undo"})
    assert said(await reply.wait_response()) == "Took back d."
    sent = await fake.message("alice", f"{fake.bot_user.mention} resign", mentions_bot=True)
    assert "You resigned" in said(await fake.wait_for_bot_message(after=sent, timeout=SOLVER_WAIT))
    assert stored_moves(tmp_path) == [(fake.alice.id, "", 3)]


async def test_someone_elses_button_is_refused_privately(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    message = await play(fake, deal=1, public=True)
    assert not message.ephemeral
    reply = await fake.click("bob", message, label="Draw (34)")
    refusal = await reply.wait_response()
    assert refusal.ephemeral and "not your game" in said(refusal) and refusal.id != message.id
    assert message.version == 0 and stored_moves(tmp_path) == [(fake.alice.id, "", 0)]


async def test_old_buttons_work_after_the_bot_is_killed_and_restarted(fake: FakeDiscord, bots: BotRunner,
                                                                      tmp_path: Path) -> None:
    bot = await start(bots, tmp_path)
    message = await play(fake, deal=1)
    message = await (await fake.click("alice", message, label="Draw (34)")).wait_response()
    await bot.kill()
    await bot.restart()
    reply = await fake.click("alice", message, label="Draw (31)")
    after = await reply.wait_response()
    assert said(after) == "Played d." and reply.latency < 3
    assert stored_moves(tmp_path) == [(fake.alice.id, "d d", 2)]


async def test_an_out_of_date_board_is_answered_with_the_current_one(fake: FakeDiscord, bots: BotRunner,
                                                                     tmp_path: Path) -> None:
    await start(bots, tmp_path)
    old = await play(fake, deal=1)
    current = await (await fake.slash_command("alice", "board", {})).wait_response()
    await (await fake.click("alice", current, label="Draw (34)")).wait_response()
    reply = await fake.click("alice", old, label="Draw (34)")
    answer = await reply.wait_response()
    assert "out of date" in said(answer) and button(answer, "Draw").label == "Draw (31)"
    assert stored_moves(tmp_path) == [(fake.alice.id, "d", 1)]


async def test_two_clicks_at_once_apply_exactly_once(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    message = await play(fake, deal=1)
    custom_id = button(message, "Draw").custom_id
    clicks = await asyncio.gather(*(fake.click("alice", message, custom_id) for _ in range(3)))
    await asyncio.gather(*(click.wait_response() for click in clicks))
    assert all(click.latency < 3 for click in clicks)
    texts = [said(click.callbacks[0].data) for click in clicks]  # what each click was answered
    assert sum(text == "Played d." for text in texts) == 1
    assert sum("out of date" in text for text in texts) == 2
    assert stored_moves(tmp_path) == [(fake.alice.id, "d", 1)]


async def test_a_slow_path_still_answers_inside_three_seconds(fake: FakeDiscord, bots: BotRunner,
                                                              tmp_path: Path) -> None:
    await start(bots, tmp_path)
    message = await play(fake, deal=1)
    blocker = sqlite3.connect(tmp_path / "pe.sqlite3", timeout=1)
    blocker.execute("BEGIN EXCLUSIVE")  # the bot's commit must wait for this lock
    reply = await fake.click("alice", message, label="Draw (34)")
    await asyncio.sleep(3.2)
    blocker.rollback()
    blocker.close()
    await reply.wait(timeout=1)
    assert reply.response_type == DEFERRED_UPDATE_MESSAGE and reply.latency < 3 and not reply.failed
    answer = await reply.wait_for(lambda r: r.message is not None and said(r.message) == "Played d.", timeout=5)
    assert answer
    assert stored_moves(tmp_path) == [(fake.alice.id, "d", 1)]


async def test_a_rate_limited_answer_is_retried_and_lands(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    rule = fake.rate_limit("POST", "/interactions/*/*/callback", count=1, retry_after=0.2)
    message = await play(fake, deal=1)
    assert rule.hits == 1 and "New game" in said(message)


async def test_game_names_autocomplete_and_rules_and_help(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    choices = await fake.autocomplete("alice", "play", {"game": "store"}, focused="game")
    assert choices == [{"name": "Storehouse (storehouse)", "value": "storehouse"}]
    rules = await (await fake.slash_command("alice", "rules", {"game": "storehouse"})).wait_response()
    assert rules.ephemeral and "four 2s" in said(rules)
    helped = await (await fake.slash_command("alice", "help", {})).wait_response()
    assert "/play" in said(helped)
    bad = await (await fake.slash_command("alice", "play", {"game": "chess"})).wait_response()
    assert bad.ephemeral and "Unknown game 'chess'" in said(bad)


async def test_undo_a_hint_followed_by_buttons_and_resign(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    from bot.game import DRAW, new_game
    from render import render

    await start(bots, tmp_path)
    message = await play(fake, game="canfield-draw1", deal=1)
    message = await (await fake.click("alice", message, label="Draw (34)")).wait_response()
    message = await (await fake.click("alice", message, label="Undo")).wait_response()
    assert said(message) == "Took back d." and button(message, "Undo").disabled
    message = await (await fake.click("alice", message, label="Hint")).wait_response()
    assert said(message) == "Hint: draw ×2, then wf4 (QD to its foundation)"
    message = await (await fake.click("alice", message, label="Draw (34)")).wait_response()
    message = await (await fake.click("alice", message, label="Hint")).wait_response()
    assert said(message) == "Hint: draw, then wf4 (QD to its foundation)"  # the rest of the same hint
    drawn = new_game("canfield-draw1", deal=1)
    drawn.play("d")  # the board outlines the stock: the hint's next step
    outlined = Image.open(io.BytesIO(render(drawn, highlight=DRAW, player="Alice")))
    assert board_of(message).tobytes() == outlined.tobytes()
    message = await (await fake.click("alice", message, label="Draw (33)")).wait_response()
    message = await (await fake.click("alice", message, label="Hint")).wait_response()
    assert said(message) == "Hint: wf4 (QD to its foundation)"
    message = await (await fake.click("alice", message, label="w · QD")).wait_response()
    assert said(message) == "Played wf4."
    message = await (await fake.click("alice", message, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert "You resigned" in said(message) and all(b.disabled for b in message.buttons)
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:  # one hint counted, the one searched
        assert db.execute("SELECT moves, hints FROM games").fetchall() == [("d d wf4", 1)]


async def test_a_rejected_token_ends_with_one_clear_line(fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    from .harness import BotExited

    with pytest.raises(BotExited) as exited:
        await start(bots, tmp_path, DISCORD_TOKEN="wrong-token")
    log = str(exited.value)
    assert "Discord rejected DISCORD_TOKEN" in log and "Traceback" not in log and "wrong-token" not in log


async def test_typed_moves_with_the_prefix_when_message_content_is_on(fake: FakeDiscord, bots: BotRunner,
                                                                     tmp_path: Path) -> None:
    await start(bots, tmp_path, MESSAGE_CONTENT="true")
    await play(fake, deal=1)
    sent = await fake.message("alice", "!d")
    answer = await fake.wait_for_bot_message(after=sent)
    assert said(answer) == "Played d."
    changed = await (await fake.slash_command("alice", "prefix", {"prefix": "?"})).wait_response()
    assert "Prefix set to `?`" in said(changed)
    sent = await fake.message("alice", "?rt4")
    answer = await fake.wait_for_bot_message(after=sent)
    assert said(answer) == "Played rt4."
    await fake.message("alice", "!d")  # the old prefix no longer moves anything
    await fake.message("alice", "just chatting")
    sent = await fake.message("alice", f"{fake.bot_user.mention} board", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=sent)
    assert answer.attachment("board.png") and stored_moves(tmp_path) == [(fake.alice.id, "d rt4", 2)]


@pytest.mark.parametrize(("game", "title"), [("demons-and-thieves", "Demons and Thieves"),
                                             ("demonthief", "Demonthief")])
async def test_a_two_deck_game_plays_by_buttons_and_ends_by_resigning(fake: FakeDiscord, bots: BotRunner,
                                                                       tmp_path: Path, game: str, title: str) -> None:
    await start(bots, tmp_path)
    message = await play(fake, game=game, deal=1)
    assert f"New game of {title}, deal #1" in said(message)
    assert board_of(message).size[0] == board_width(game)  # eight foundations, nine columns
    labels = [b.label for b in message.buttons]
    assert {"Draw (46)", "r · QH", "t4 · 8C", "t9 · 4S"} <= set(labels) and len(labels) == 16
    message = await (await fake.click("alice", message, label="t4 · 8C")).wait_response()
    assert said(message) == "Played t4f1." and button(message, "t4").label == "t4 · –"
    select = message.selects[0]
    message = await (await fake.select("alice", message, select.custom_id, ["t9.1"])).wait_response()
    assert "Picked 4S from t9" in said(message)
    message = await (await fake.click("alice", message, label="t4 · –")).wait_response()
    assert said(message) == "Played t9t4."
    message = await (await fake.click("alice", message, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert "You resigned" in said(message) and all(b.disabled for b in message.buttons)
    assert stored_moves(tmp_path)[0][1] == "t4f1 t9t4"


async def test_patriarchs_and_picture_patience_play_by_buttons(fake: FakeDiscord, bots: BotRunner,
                                                               tmp_path: Path) -> None:
    await start(bots, tmp_path)
    message = await play(fake, game="picture-patience", deal=1)
    assert "New game of Picture Patience, deal #1" in said(message)
    assert board_of(message).size[0] == board_width("picture-patience")  # aces, reserve, kings
    labels = {b.label for b in message.buttons}
    assert {"Draw (94)", "w · JD", "r1 · 3D", "r4 · KH", "r9 · 8D"} <= labels
    message = await (await fake.click("alice", message, label="r4 · KH")).wait_response()
    assert said(message) == "Played r4f7." and button(message, "r4").label == "r4 · JD"  # refilled from the waste
    message = await (await fake.click("alice", message, label="Draw (94)")).wait_response()
    assert said(message) == "Played d."
    message = await play(fake, user="bob", game="patriarchs", deal=1)
    assert "New game of Patriarchs, deal #1" in said(message) and button(message, "r6").label == "r6 · KC"
    message = await (await fake.click("bob", message, label="Hint")).wait_response()
    assert said(message) == "Hint: draw ×7, then wf5 (QC to its king foundation)"
    message = await (await fake.click("bob", message, label="Resign")).wait_response(timeout=SOLVER_WAIT)
    assert "You resigned" in said(message) and all(b.disabled for b in message.buttons)
    assert [moves for _, moves, _ in stored_moves(tmp_path)] == ["r4f7 d", ""]


async def test_boards_drawn_in_worker_processes_are_the_same_and_survive_a_dead_worker(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    from bot.game import new_game
    from render import render

    bot = await start(bots, tmp_path, RENDER_PROCESSES="1")
    message = await play(fake, deal=1)
    first = board_of(message).tobytes()
    assert first == Image.open(io.BytesIO(render(new_game("canfield", deal=1), player="Alice"))).tobytes()
    children = set(_descendants(bot.pid, depth=1))  # the forkserver (and multiprocessing's resource tracker)
    drawing = [pid for pid in _descendants(bot.pid) if pid not in children]  # the forkserver's children
    assert len(drawing) == 1
    os.kill(drawing[0], signal.SIGKILL)
    reply = await fake.click("alice", message, label="Draw (34)")
    updated = await reply.wait_response()
    assert board_of(updated).tobytes() != first  # drawn all the same
    assert "a drawing process died" in bot.log_text()
    reply = await fake.click("alice", updated, label="Draw (31)")
    assert board_of(await reply.wait_response()) is not None  # and the new workers draw again
    assert [moves for _, moves, _ in stored_moves(tmp_path)] == ["d d"]


def _command_line(pid: int) -> str:
    """A process's command line, its arguments joined by spaces ("" once it has gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _descendants(pid: int | None, depth: int = 99) -> list[int]:
    """The processes below `pid` (children, grandchildren... down to `depth`), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (ValueError, OSError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [(pid, 0)]
    while todo:
        parent, level = todo.pop()
        if level < depth:
            for child in children.get(parent, []):
                found.append(child)
                todo.append((child, level + 1))
    return found


async def test_a_game_damaged_in_storage_is_set_aside_by_resign_and_play_goes_on(fake: FakeDiscord, bots: BotRunner,
                                                                                 tmp_path: Path) -> None:
    bot = await start(bots, tmp_path)
    await play(fake, deal=1)
    await bot.kill()
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        db.execute("UPDATE games SET snapshot = NULL, moves = 'd zz9'")
    await bot.restart()
    for command in ("play", "board"):  # each says what is wrong and how to get out
        told = await (await fake.slash_command("alice", command, {})).wait_response()
        assert "damaged in storage" in said(told) and "/resign sets it aside" in said(told)
    resigned = await (await fake.slash_command("alice", "resign", {})).wait_response()
    assert resigned.ephemeral and "set aside" in said(resigned)
    message = await play(fake, deal=2)
    assert "New game of Canfield, deal #2" in said(message)
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        assert db.execute("SELECT moves, status FROM games ORDER BY id").fetchall() == [
            ("d zz9", "resigned"), ("", "playing")]
    # The word, typed, sets a damaged game aside too.
    await bot.kill()
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        db.execute("UPDATE games SET snapshot = NULL, moves = 'zz9' WHERE status = 'playing'")
    await bot.restart()
    sent = await fake.message("alice", f"{fake.bot_user.mention} resign", mentions_bot=True)
    assert "set aside" in said(await fake.wait_for_bot_message(after=sent))
    with sqlite3.connect(tmp_path / "pe.sqlite3") as db:
        assert db.execute("SELECT status FROM games ORDER BY id").fetchall() == [("resigned",), ("resigned",)]
    assert "Traceback" not in bot.log_text()


@pytest.mark.parametrize(("env", "said"), [
    ({"DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}, "stopped: cannot reach 127.0.0.1:9 (Connect call failed"),
    ({"DISCORD_API_BASE": "http://no-such-host.invalid/api/v10"}, "stopped: cannot reach no-such-host.invalid:80"),
    ({"DATABASE_URL": "sqlite:///."}, "stopped: OperationalError: unable to open database file"),
])
async def test_a_failure_at_the_start_is_one_clear_line(fake: FakeDiscord, bots: BotRunner, tmp_path: Path,
                                                        env: dict[str, str], said: str) -> None:
    from .harness import BotExited

    with pytest.raises(BotExited):
        await bots.start_bot("bot", env={"DATABASE_URL": f"sqlite:///{tmp_path / 'pe.sqlite3'}", **env})
    log = bots.bots[-1].run_log_text()
    assert bots.bots[-1].returncode == 1 and "Traceback" not in log
    # the harness's header, which search the solver runs, the line, maybe a log line
    assert said in log and len(log.strip().splitlines()) <= 4
    assert "PyNaCl" not in log and "davey" not in log  # no voice, no warnings about voice


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
async def test_a_stopped_bot_leaves_no_process_behind_and_shuts_down_cleanly(fake: FakeDiscord, bots: BotRunner,
                                                                             tmp_path: Path, how: str) -> None:
    early = how == "SIGTERM"  # once, every worker process started with the bot (START_PROCESSES)
    bot = await start(bots, tmp_path, RENDER_PROCESSES="2", HEALTH_FILE="", START_PROCESSES="on" if early else "off")
    drawing: set[int] = set()
    if early:  # up before the first game: 2 drawing processes (under the forkserver), 2 search and 1 verdict (spawned)
        for _ in range(100):
            commands = [_command_line(pid) for pid in _descendants(bot.pid)]
            if sum("multiprocessing.spawn" in line for line in commands) == 3 and len(_descendants(bot.pid)) >= 7:
                break
            await asyncio.sleep(0.1)
        assert sum("multiprocessing.spawn" in line for line in commands) == 3, commands
        drawing = set(_descendants(bot.pid)) - set(_descendants(bot.pid, depth=1))  # the forkserver's children
        assert len(drawing) == 2
    await play(fake, deal=1)  # boards drawn in the worker processes
    children = _descendants(bot.pid)
    assert drawing <= set(children)  # the same drawing processes, started with the bot
    # the resource tracker, the forkserver, the drawing processes (and, started early, 2 search and 1 verdict)
    assert len(children) >= (7 if early else 3)
    for _ in range(100):  # the health file is beside the database by default
        if (tmp_path / "patient-exorcism.alive").exists():
            break
        await asyncio.sleep(0.05)
    assert (tmp_path / "patient-exorcism.alive").read_text().strip().isdigit()
    assert bot.process is not None
    bot.process.send_signal(getattr(signal, how))
    code = await bot.wait_exit(timeout=15)
    for _ in range(100):
        left = [pid for pid in children if Path(f"/proc/{pid}").exists()
                and (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z")]
        if not left:
            break
        await asyncio.sleep(0.1)
    assert left == []
    if how != "SIGKILL":
        log = bot.run_log_text()
        assert code == 0 and f"{how}: shutting down" in log and log.rstrip().endswith("stopped")
        assert "Traceback" not in log


async def test_a_board_is_a_v2_layout_updated_in_place_with_its_alt_text(fake: FakeDiscord, bots: BotRunner,
                                                                        tmp_path: Path) -> None:
    await start(bots, tmp_path)
    message = await play(fake, deal=1)
    assert message.v2 and message.content == "" and message.embeds == []
    status, text = message.text_displays()
    assert status == "**Canfield** · deal #1 · score -12 · stock 34 · unlimited redeals"
    assert text.startswith("New game of Canfield, deal #1")
    image = message.attachment("board.png")
    assert message.media_urls() == [image.url]  # the gallery shows the uploaded board
    assert image.description is not None and image.description.startswith("Canfield board, deal #1, score -12")
    assert "Stock: 34 cards." in image.description and "Column t2: 2 of spades." in image.description

    reply = await fake.click("alice", message, label="Draw (34)")
    updated = await reply.wait_response()
    assert reply.response_type == UPDATE_MESSAGE and updated.id == message.id and updated.v2
    assert updated.text_displays() == ["**Canfield** · deal #1 · score -12 · stock 31 · unlimited redeals",
                                       "Played d."]
    new_image = updated.attachment("board.png")
    assert updated.media_urls() == [new_image.url] and new_image.data != image.data
    assert "Stock: 31 cards." in new_image.description and "Waste: " in new_image.description
    assert button(updated, "Draw").label == "Draw (31)" and not button(updated, "Undo").disabled
    assert fake.error_responses == []


async def test_a_board_from_before_v2_becomes_a_v2_board_when_pressed(fake: FakeDiscord, bots: BotRunner,
                                                                     tmp_path: Path) -> None:
    await start(bots, tmp_path)
    board = await play(fake, deal=1, public=True)
    # The board as the bot posted it before V2: content, the image as a plain attachment, its
    # buttons in top-level rows with the same custom_ids.
    rows = [component for component in board.components[0]["components"] if component["type"] == 1]
    old = fake._new_message(fake.channel_id, {"content": "New game of Canfield, deal #1.", "components": rows}, [])
    assert not old.v2 and old.content
    reply = await fake.click("alice", old, label="Draw (34)")
    upgraded = await reply.wait_response()
    assert upgraded.id == old.id and upgraded.v2 and upgraded.content == ""
    assert said(upgraded) == "Played d." and upgraded.attachment("board.png").description
    assert fake.error_responses == []


async def test_a_deferred_board_becomes_a_v2_message_on_its_edit(fake: FakeDiscord, bots: BotRunner,
                                                                 tmp_path: Path) -> None:
    await start(bots, tmp_path)
    await play(fake, deal=1)
    blocker = sqlite3.connect(tmp_path / "pe.sqlite3", timeout=1)
    blocker.execute("BEGIN EXCLUSIVE")  # the new game's commit waits: the answer is deferred
    reply = await fake.slash_command("bob", "play", {"deal": 2})
    await asyncio.sleep(3.2)
    blocker.rollback()
    blocker.close()
    await reply.wait(timeout=1)
    assert reply.response_type == DEFERRED_CHANNEL_MESSAGE and reply.latency < 3 and not reply.failed
    answer = await reply.wait_for(lambda r: r.message is not None and r.message.v2, timeout=5)
    message = answer.message
    assert message is not None and message.ephemeral and not message.loading
    assert "New game of Canfield, deal #2" in said(message)
    assert message.attachment("board.png").description.startswith("Canfield board, deal #2")
    assert fake.error_responses == []


async def test_a_crowd_held_up_gets_deferred_answers_that_become_v2_boards(
        fake: FakeDiscord, bots: BotRunner, tmp_path: Path) -> None:
    await start(bots, tmp_path)
    players = [fake.add_user(f"player{n}") for n in range(12)]
    boards = [await play(fake, user=player, deal=1) for player in players]
    blocker = sqlite3.connect(tmp_path / "pe.sqlite3", timeout=1)
    blocker.execute("BEGIN EXCLUSIVE")  # nothing finishes: the answers pile up past ANSWER_WITHIN
    clicks = await asyncio.gather(*(fake.click(player, board, label="Draw (34)")
                                    for player, board in zip(players, boards, strict=True)))
    await asyncio.sleep(ANSWER_WITHIN + 0.3)
    assert all(click.response_type == DEFERRED_UPDATE_MESSAGE for click in clicks)  # before the 3 s run out
    blocker.rollback()
    blocker.close()
    for click in clicks:
        await click.wait_for(lambda r: r.message is not None and said(r.message) == "Played d.", timeout=10)
    assert all(click.latency < 3 and not click.failed for click in clicks)
    assert all(click.message.v2 and "Stock: 31 cards." in click.message.attachment().description for click in clicks)
    assert fake.error_responses == []


def requests_of(fake: FakeDiscord, interaction) -> list:
    """The REST requests the bot made to answer one interaction (its callback, then its webhook)."""
    return [request for request in fake.requests
            if f"/interactions/{interaction.id}/" in request.path or interaction.token in request.path]


async def test_a_refused_move_is_answered_in_words_without_a_new_board(fake: FakeDiscord, bots: BotRunner,
                                                                       tmp_path: Path) -> None:
    await start(bots, tmp_path)
    board = await play(fake, deal=1)
    reply = await fake.slash_command("alice", "move", {"moves": "rt1"})
    answer = await reply.wait_response()
    assert said(answer).startswith("'rt1' is not legal: QC cannot go on KS") and answer.ephemeral
    assert not answer.attachments and not answer.components
    sent = requests_of(fake, reply)
    assert len(sent) == 1 and not sent[0].files  # one callback, no image drawn or uploaded
    typed = await fake.message("alice", f"{fake.bot_user.mention} rt1", mentions_bot=True)
    answer = await fake.wait_for_bot_message(after=typed)
    assert said(answer).startswith("'rt1' is not legal") and not answer.attachments
    # A text refused after some of its moves were played changed the board: that is shown.
    reply = await fake.slash_command("alice", "move", {"moves": "d rt1"})
    answer = await reply.wait_response()
    assert "'rt1' is not legal" in said(answer) and "Stock: 31 cards." in answer.attachment("board.png").description
    assert stored_moves(tmp_path) == [(fake.alice.id, "d", 1)] and board.version == 0


async def test_a_burst_after_a_busy_spell_is_answered_in_one_request_each(fake: FakeDiscord, bots: BotRunner,
                                                                          tmp_path: Path) -> None:
    await start(bots, tmp_path)
    players = [fake.add_user(f"player{n}") for n in range(CROWD)]
    boards = {player.id: await play(fake, user=player, deal=1) for player in players}

    def draw_button(player) -> str:
        return next(b.custom_id for b in boards[player.id].buttons if (b.custom_id or "").endswith(":draw"))

    async def draw(player) -> None:
        click = await fake.click(player, boards[player.id], draw_button(player))
        boards[player.id] = await click.wait_response()

    async def keep_drawing(player, until: float) -> None:
        while asyncio.get_running_loop().time() < until:
            await draw(player)

    # Busy for a second: the bot learns how many answers it finishes a second while busy.
    until = asyncio.get_running_loop().time() + 1.0
    await asyncio.gather(*(keep_drawing(player, until) for player in players))
    await asyncio.sleep(RATE_WINDOW + 0.5)  # quiet: nothing finished lately
    clicks = await asyncio.gather(*(fake.click(player, boards[player.id], draw_button(player)) for player in players))
    for click in clicks:
        await click.wait_response()
    # A crowd at once (CROWD), but fewer than the bot finishes within ANSWER_WITHIN when busy:
    # each answered straight away, the board edited by the callback, one request each.
    assert [click.response_type for click in clicks] == [UPDATE_MESSAGE] * len(clicks)
    assert all(len(requests_of(fake, click)) == 1 for click in clicks)
    assert fake.error_responses == []
