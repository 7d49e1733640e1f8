"""The terminal front end and `python -m bot`, driven through their real input and output."""

from __future__ import annotations

import io
import subprocess
import sys

from PIL import Image

from bot.play import Player, SoloPlay
from bot.store import NewGame, open_store
from bot.terminal import TERMINAL_PLAYER, play_in_terminal, terminal_session
from tests.samples import won_game


async def test_a_won_game_typed_in_the_terminal_exorcises_the_demon(tmp_path) -> None:
    solved = won_game("canfield")
    store = await open_store(str(tmp_path / "t.sqlite3"))
    stored = await store.create_game(NewGame(
        guild_id=None, channel_id=None, user_id=TERMINAL_PLAYER.id, name="canfield", options=solved.options,
        deal=None, cards="".join(map(str, solved.cards)), snapshot=None, score=-12))
    solo = SoloPlay(store)
    reply = await solo.board(stored.id, TERMINAL_PLAYER)
    typed = "\n".join(str(move) for move in solved.moves) + "\n"
    out = io.StringIO()
    final = await terminal_session(solo, reply, io.StringIO(typed), out)
    assert final.status == "won" and "The demon is exorcised! You won. Score 352." in out.getvalue()
    assert (await store.get_game(stored.id)).status == "won"
    await store.close()


async def test_bad_input_is_answered_and_changes_nothing_and_save_writes_a_png(tmp_path) -> None:
    out = io.StringIO()
    board = tmp_path / "board.png"
    reply = await play_in_terminal("canfield", 1, {}, stdin=io.StringIO(f"xyz\nrt1\n\nh\nsave {board}\nq\n"),
                                   stdout=out)
    text = out.getvalue()
    assert "cannot read 'xyz'" in text
    assert "'rt1' is not legal: QC cannot go on KS" in text
    assert "Hint: " in text and "Stopped. Score -12." in text
    assert reply.game.moves == []
    assert Image.open(board).size[0] == 658


async def test_a_game_in_a_file_resumes(tmp_path) -> None:
    database = str(tmp_path / "t.sqlite3")
    await play_in_terminal("canfield", 1, {}, database, io.StringIO("d\nq\n"), io.StringIO())
    out = io.StringIO()
    reply = await play_in_terminal("canfield", 1, {}, database, io.StringIO("q\n"), out)
    assert [str(m) for m in reply.game.moves] == ["d"] and "already have a game" in out.getvalue()
    assert Player(0, "terminal") == TERMINAL_PLAYER


def test_python_m_bot_without_a_token_says_so_in_one_line(tmp_path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, timeout=60, env=env,
                            cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "DISCORD_TOKEN is not set: put the bot's token in the environment or in .env (see .env.example)."]
    assert "Traceback" not in result.stdout + result.stderr


def test_python_m_bot_play_reads_from_standard_input() -> None:
    result = subprocess.run([sys.executable, "-m", "bot", "play", "storehouse", "--deal", "1"], input="d\nq\n",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "Storehouse · deal 1" in result.stdout and "Played d." in result.stdout
    bad = subprocess.run([sys.executable, "-m", "bot", "play", "--deal", "0"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "deal 0" in bad.stderr


async def test_the_words_work_in_the_terminal_and_resign_ends_a_resumed_game(tmp_path) -> None:
    database = str(tmp_path / "t.sqlite3")
    out = io.StringIO()
    await play_in_terminal("canfield", 1, {}, database, io.StringIO("help\nrules\nraw\ndraw\nboard\nq\n"), out)
    text = out.getvalue()
    assert "cannot read" not in text.replace("cannot read 'raw'", "")
    assert text.count("Words: draw, auto, undo, hint") == 2 and "**Canfield**" in text
    assert "cannot read 'raw': moves look like rt2" in text and "Played d." in text
    resumed = io.StringIO()
    reply = await play_in_terminal("canfield", 1, {}, database, io.StringIO("undo\nresign\n"), resumed)
    assert reply.status == "resigned" and [str(m) for m in reply.game.moves] == []
    assert "You resigned" in resumed.getvalue() and "Game over (resigned)" in resumed.getvalue()


def test_a_deal_number_the_store_cannot_keep_is_one_clear_line() -> None:
    result = subprocess.run([sys.executable, "-m", "bot", "play", "--deal", str(2**63)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"cannot start the game: Deal {2**63} is too large: deals here go up to {2**63 - 1}."]
