"""The terminal front end and `python -m bot`, driven through their real input and output."""

from __future__ import annotations

import io
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from bot.game import DRAW, GAMES, new_game
from bot.play import Player
from bot.play.services import build_play
from bot.store import NewGame, open_store
from bot.terminal import TERMINAL_PLAYER, play_in_terminal, terminal_session
from bot.words import TERMINAL
from render.board import GEOMETRY
from render.layouts import layout_for
from tests.samples import won_game

CANFIELD_WIDTH = GEOMETRY.width(layout_for(GAMES["canfield"]))  # a Canfield board image's


async def test_a_won_game_typed_in_the_terminal_exorcises_the_demon(tmp_path) -> None:
    solved = won_game("canfield")
    store = await open_store(str(tmp_path / "t.sqlite3"))
    stored = await store.games.create_game(NewGame(
        guild_id=None, channel_id=None, user_id=TERMINAL_PLAYER.id, name="canfield", options=solved.options,
        deal=None, cards="".join(map(str, solved.cards)), snapshot=None, score=-12))
    play = build_play(store)
    reply = await play.solo.board(stored.id, TERMINAL_PLAYER)
    typed = "\n".join(str(move) for move in solved.moves) + "\n"
    out = io.StringIO()
    final = await terminal_session(play, reply, io.StringIO(typed), out)
    assert final.status == "won" and "The demon is exorcised! You won. Score 352." in out.getvalue()
    assert (await store.games.get_game(stored.id)).status == "won"
    await store.close()


async def test_a_lost_game_is_told_where_it_was_lost_and_analyse_tells_it_again(tmp_path) -> None:
    from tests.game.test_analysis import LOSING, PREFIX, WINNABLE, reference_game, winning_line

    database = str(tmp_path / "t.sqlite3")
    deal = reference_game(WINNABLE)
    store = await open_store(database)
    stored = await store.games.create_game(NewGame(
        guild_id=None, channel_id=None, user_id=TERMINAL_PLAYER.id, name="canfield", options=deal.options,
        deal=None, cards="".join(map(str, deal.cards)), snapshot=None, score=-12))
    play = build_play(store)
    reply = await play.solo.board(stored.id, TERMINAL_PLAYER)
    typed = " ".join(map(str, [*winning_line()[:PREFIX], LOSING, "d"])) + "\nresign\n"
    out = io.StringIO()
    await terminal_session(play, reply, io.StringIO(typed), out, boards=tmp_path)
    await store.close()
    told = "after move 11 (wf2) the deal could no longer be won; d instead still wins."
    assert told in out.getvalue()
    board = Image.open(tmp_path / f"analysis-{stored.id}.png")
    assert board.size[0] == CANFIELD_WIDTH
    # Later, in a new game: `analyse` tells the last finished game's again (from the store).
    again = io.StringIO()
    await play_in_terminal("canfield", 1, {}, database, io.StringIO("analyse\nq\n"), again, boards=tmp_path)
    assert told in again.getvalue()


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
    assert Image.open(board).size[0] == CANFIELD_WIDTH


async def test_a_hint_names_its_draws_and_following_them_shows_the_rest_of_it_counted_once(tmp_path) -> None:
    from render import render

    database, board = tmp_path / "t.sqlite3", tmp_path / "hint.png"
    typed = f"h\nd\nhint\nsave {board}\nd\nh\nwf4\nh\nq\n"
    out = io.StringIO()
    reply = await play_in_terminal("canfield-draw1", 1, {}, str(database), io.StringIO(typed), out)
    hints = [line.removeprefix("> ") for line in out.getvalue().splitlines() if "Hint: " in line]
    assert hints[:3] == ["Hint: draw ×2, then wf4 (QD to its foundation)",
                         "Hint: draw, then wf4 (QD to its foundation)",  # after one of its draws: the rest
                         "Hint: wf4 (QD to its foundation)"]
    assert len(hints) == 4 and [str(m) for m in reply.game.moves] == ["d", "d", "wf4"]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT hints FROM games").fetchall() == [(2,)]  # the first one, then after wf4
    # `save` after the rest of the hint: the board outlines the stock, its next step.
    drawn = new_game("canfield-draw1", deal=1)
    drawn.play("d")
    assert Image.open(board).tobytes() == Image.open(io.BytesIO(render(
        drawn, highlight=DRAW, player=TERMINAL_PLAYER.name))).tobytes()


async def test_the_terminal_speaks_the_language_asked_for(tmp_path) -> None:
    out = io.StringIO()
    await play_in_terminal("canfield", 1, {}, stdin=io.StringIO("d\nq\n"), stdout=out,
                           voice=TERMINAL.speaking("pt_BR"))
    text = out.getvalue()
    assert text.startswith("Digite jogadas e aperte Enter;")
    assert "Nova partida de Canfield, distribuição #1. Boa sorte!" in text
    assert "Jogado: d." in text and "Parado. Pontuação: -12." in text
    assert "Canfield · distribuição 1 · base J · passagem 1, redistribuições ilimitadas · comprar 3 · pontuação -12" \
        in text  # the text board's header


async def test_save_draws_the_board_with_the_words_of_the_terminals_language(tmp_path) -> None:
    from render import render

    board = tmp_path / "board.png"
    reply = await play_in_terminal("canfield", 1, {}, stdin=io.StringIO(f"save {board}\nq\n"), stdout=io.StringIO(),
                                   voice=TERMINAL.speaking("de"))
    german, english = (Image.open(board).convert("RGB"),
                       Image.open(io.BytesIO(render(reply.game, player=TERMINAL_PLAYER.name))).convert("RGB"))
    assert german.size == english.size
    header = (0, 0, german.width, 70)
    assert german.crop(header).tobytes() != english.crop(header).tobytes()
    below = (0, 70, german.width, german.height)
    assert german.crop(below).tobytes() == english.crop(below).tobytes()


async def test_a_game_in_a_file_resumes(tmp_path) -> None:
    database = str(tmp_path / "t.sqlite3")
    await play_in_terminal("canfield", 1, {}, database, io.StringIO("d\nq\n"), io.StringIO())
    out = io.StringIO()
    reply = await play_in_terminal("canfield", 1, {}, database, io.StringIO("q\n"), out)
    assert [str(m) for m in reply.game.moves] == ["d"] and "already have a game" in out.getvalue()
    assert "here it is. resign ends it." in out.getvalue() and "/resign" not in out.getvalue()  # no Discord syntax
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
    assert text.count("Words: draw, auto, undo, hint") == 2 and "Canfield: build the four foundations" in text
    assert "**" not in text
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


async def test_save_to_a_missing_folder_is_answered_and_save_alone_writes_into_the_boards_folder(tmp_path) -> None:
    out = io.StringIO()
    boards = tmp_path / "boards"
    missing = tmp_path / "nowhere" / "b.png"
    reply = await play_in_terminal("canfield", 1, {}, stdin=io.StringIO(f"save {missing}\nd\nsave\nd\nq\n"),
                                   stdout=out, boards=boards)
    text = out.getvalue()
    assert f"cannot save to {missing}: there is no folder {missing.parent}" in text
    saved = boards / f"board-{reply.game_id}-1.png"
    assert f"wrote {saved} (" in text and Image.open(saved).size[0] == CANFIELD_WIDTH
    assert [str(m) for m in reply.game.moves] == ["d", "d"]  # the session went on after both
    assert not missing.parent.exists()


async def test_asking_for_another_game_than_the_one_in_the_file_offers_the_choice(tmp_path) -> None:
    database = str(tmp_path / "same.sqlite3")
    await play_in_terminal("canfield", 1, {}, database, io.StringIO("d\nq\n"), io.StringIO())
    out = io.StringIO()
    kept = await play_in_terminal("storehouse", None, {}, database, io.StringIO("n\nq\n"), out)
    assert "holds an unfinished game of Canfield, deal #1. Set it aside (resign it) and start Storehouse" in (
        out.getvalue())
    assert kept.game.name == "canfield" and [str(m) for m in kept.game.moves] == ["d"]
    resumed = await play_in_terminal(None, None, {}, database, io.StringIO("q\n"), io.StringIO())
    assert resumed.game_id == kept.game_id  # no game asked for: the unfinished one, without a question
    out = io.StringIO()
    fresh = await play_in_terminal("storehouse", None, {}, database, io.StringIO("y\nq\n"), out)
    assert fresh.game.name == "storehouse" and fresh.game_id != kept.game_id and fresh.game.moves == []
    assert f"Game #{kept.game_id} set aside." in out.getvalue() and "Storehouse" in out.getvalue()
    store = await open_store(database)
    assert (await store.games.get_game(kept.game_id)).status == "resigned"
    await store.close()


def ctrl_c_once_the_board_is_shown(command: list[str], cwd: Path) -> tuple[int, str]:
    """Start the terminal game with `command`, press Ctrl-C (SIGINT) while it waits for a move,
    without an Enter after it; its exit status and all it wrote. TimeoutExpired when it has not
    ended 10 s after."""
    game = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, cwd=cwd)
    assert game.stdout is not None and game.stdin is not None
    for line in game.stdout:  # until the board is shown: then it waits for a line
        if line.startswith("Canfield · deal 1"):
            break
    time.sleep(0.3)
    game.send_signal(signal.SIGINT)
    try:
        # Standard input stays open until the game ends: closed, as communicate() would at once,
        # its end of file could reach the game before the signal, and the game would end on that.
        game.wait(timeout=10)
        return game.returncode, game.stdout.read()
    finally:
        game.kill()
        game.stdin.close()
        game.stdout.close()


def test_ctrl_c_stops_the_terminal_at_once_without_a_traceback(tmp_path) -> None:
    status, output = ctrl_c_once_the_board_is_shown([sys.executable, "-m", "bot", "play", "--deal", "1"], tmp_path)
    assert status == 130 and output.strip().endswith("Stopped.") and "Traceback" not in output


def test_ctrl_c_stops_the_terminal_started_with_ctrl_c_ignored(tmp_path) -> None:
    # A shell starts its background jobs so (`&` in a script): SIGINT ignored, inherited through
    # exec. Python then leaves it ignored and asyncio.run does not take it over: the game used to
    # wait on for ever, and so did a test suite started in the background.
    ignoring = ["sh", "-c", 'trap "" INT && exec "$0" -m bot play --deal 1', sys.executable]
    status, output = ctrl_c_once_the_board_is_shown(ignoring, tmp_path)
    assert status == 130 and output.strip().endswith("Stopped.") and "Traceback" not in output


async def test_a_damaged_game_in_the_file_is_set_aside_and_a_new_one_starts(tmp_path) -> None:
    database = str(tmp_path / "t.sqlite3")
    old = await play_in_terminal("canfield", 1, {}, database, io.StringIO("d\nq\n"), io.StringIO())
    with sqlite3.connect(database) as db:
        db.execute("UPDATE games SET snapshot = NULL, moves = 'd zz9'")
    out = io.StringIO()
    reply = await play_in_terminal(None, None, {}, database, io.StringIO("q\n"), out)
    assert f"held game #{old.game_id}, damaged and impossible to rebuild: it is set aside." in out.getvalue()
    assert reply.game_id != old.game_id and reply.game.moves == []


async def test_solution_in_the_terminal_shows_the_line_of_the_game_that_ended_last(tmp_path) -> None:
    database = str(tmp_path / "games.sqlite3")
    early = io.StringIO()
    await play_in_terminal("canfield", 1, {}, database, io.StringIO("solution\nresign\n"), early)
    assert "You have no finished game to look back on yet: play one with play." in early.getvalue()
    out = io.StringIO()
    await play_in_terminal("canfield", 2, {}, database, io.StringIO("solution\nsolution 2\nsolution x\nq\n"), out)
    said = out.getvalue()
    assert "Game 1 (Canfield): a winning line from the deal's start" in said and "  1. " in said
    assert "Game 2 is still in play: you can look back on it once it has ended." in said
    assert "Type solution, or solution and a game's number, such as solution 12." in said


async def test_replay_writes_a_finished_game_as_an_animated_gif_and_says_where(tmp_path) -> None:
    out = io.StringIO()
    replay = tmp_path / "game.gif"
    reply = await play_in_terminal("canfield", 1, {}, stdin=io.StringIO(f"d\nreplay\nd\nresign\nwhat\nreplay {replay}\n"
                                                                        "replay\nq\n"), stdout=out, boards=tmp_path)
    text = out.getvalue()
    assert "You have no finished game to look back on yet: play one with play." in text  # while the first is on
    assert "replay [file.gif] writes this game as an animated GIF; q quits." in text
    assert f"Replay of terminal's Canfield #1 (game {reply.game_id}): 2 moves, resigned, score -12." in text
    assert f"wrote {replay} (" in text and f"wrote {tmp_path / f'replay-{reply.game_id}.gif'} (" in text
    gif = Image.open(replay)
    assert gif.format == "GIF" and gif.n_frames == 3  # the deal and two draws
