"""The terminal front end and `python -m bot`, driven through their real input and output."""

from __future__ import annotations

import io
import subprocess
import sys

from bot.game import Outcome, new_game
from bot.terminal import play_in_terminal
from tests.game.test_wolter import WON, replay


def test_a_won_game_typed_in_the_terminal_exorcises_the_demon() -> None:
    solved = replay(WON[0])
    assert solved.outcome is Outcome.WON
    typed = "\n".join(str(move) for move in solved.moves) + "\n"
    game = new_game("canfield", cards=[str(card) for card in solved.cards], groups="any")
    out = io.StringIO()
    assert play_in_terminal(game, io.StringIO(typed), out) == 352
    assert "The demon is exorcised! You won. Score 352." in out.getvalue()


def test_bad_input_is_answered_and_changes_nothing() -> None:
    game = new_game("canfield", deal=1)
    out = io.StringIO()
    play_in_terminal(game, io.StringIO("xyz\nrt1\n\nh\nq\n"), out)
    text = out.getvalue()
    assert "cannot read 'xyz'" in text
    assert "'rt1' is not legal: QC cannot go on KS" in text
    assert "hint: " in text and "stopped. Score -12." in text
    assert game.moves == []


def test_python_m_bot_says_plainly_that_the_bot_is_not_built_yet() -> None:
    result = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "not built yet" in result.stdout


def test_python_m_bot_play_reads_from_standard_input() -> None:
    result = subprocess.run([sys.executable, "-m", "bot", "play", "storehouse", "--deal", "1"], input="d\nq\n",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "Storehouse · deal 1" in result.stdout and "played d" in result.stdout
    bad = subprocess.run([sys.executable, "-m", "bot", "play", "--deal", "0"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "deal 0" in bad.stderr
