"""When an answer is deferred (a crowd, or the time left runs out), and how long texts are cut."""

from __future__ import annotations

import datetime
import io

import discord
import pytest

from bot.game import new_game
from bot.views import answers_custom_id
from bot.views.board import board_view
from bot.views.respond import (
    ANSWER_WITHIN,
    CROWD,
    RATE_WINDOW,
    Answer,
    _Load,
    _say,
    _show,
    fit_to_show,
    shown,
    time_left,
)
from bot.words import DISCORD, shorten
from tests.views.test_board_view import reply_for


def test_a_crowd_is_more_answers_in_progress_than_finish_in_the_time_left() -> None:
    load = _Load()
    load.in_progress = CROWD - 1
    assert not load.crowded(100.0, ANSWER_WITHIN)  # a few at once never wait long
    load.in_progress = CROWD
    assert load.crowded(100.0, ANSWER_WITHIN)  # nothing finished yet: these may all wait
    # Busy since 98.0, 21 finished 0.1 s apart: 10 a second while busy, 20 within 2 s.
    load.in_progress = 0
    load.started(98.0)
    for k in range(21):
        load.ended(98.0 + 0.1 * k)
        load.started(98.0 + 0.1 * k)
    load.in_progress = 19
    assert not load.crowded(100.0, 2.0) and load.rate == pytest.approx(10.0)
    load.in_progress = 21
    assert load.crowded(100.0, 2.0)
    assert not load.crowded(100.0, 2.5)  # with more time left, 21 can wait
    assert load.crowded(100.0, 0.5)  # with less, only 5 could
    load.crowded(100.05, ANSWER_WITHIN)
    assert len(load.finished) == 20  # the finish at 98.0 is older than RATE_WINDOW now
    # Busy a whole RATE_WINDOW finishing nothing (its database held up): a crowd, at none a second.
    assert load.crowded(100.0 + 2 * RATE_WINDOW, ANSWER_WITHIN) and not load.finished and load.rate == 0.0


def test_the_rate_is_measured_while_busy_so_a_quiet_moment_does_not_lower_it() -> None:
    load = _Load()
    # A burst: 60 answered in 0.2 s (300 a second), then quiet.
    for _ in range(61):
        load.started(100.0)
    for k in range(61):
        load.ended(100.0 + k / 300)
    assert load.in_progress == 0 and load.busy_since is None
    # The next burst 1 s later: the last burst's answers, all within RATE_WINDOW, finished 300 a
    # second while busy, although only 61 finished in the last 2 s of the clock.
    later = 101.2
    load.started(later)
    load.in_progress = round(300 * ANSWER_WITHIN) - 1
    assert not load.crowded(later, ANSWER_WITHIN) and load.rate == pytest.approx(300.0)  # one request each
    load.in_progress += 2
    assert load.crowded(later, ANSWER_WITHIN)  # this one would wait longer: deferred at once
    # Much later, nothing finished lately and not busy for long: the rate last measured holds.
    load.in_progress, load.busy_since = 0, None
    load.started(200.0)
    load.in_progress = round(300 * ANSWER_WITHIN) - 1
    assert not load.crowded(200.0, ANSWER_WITHIN) and load.rate == pytest.approx(300.0) and not load.finished


def test_the_time_left_counts_from_when_discord_made_the_interaction() -> None:
    def made(seconds_ago: float) -> discord.Object:
        return discord.Object(discord.utils.time_snowflake(
            discord.utils.utcnow() - datetime.timedelta(seconds=seconds_ago)))

    assert ANSWER_WITHIN - 0.1 <= time_left(made(0.0)) <= ANSWER_WITHIN
    assert ANSWER_WITHIN - 0.6 <= time_left(made(0.5)) <= ANSWER_WITHIN - 0.45  # half a second on the way
    assert time_left(made(5.0)) == 0.0  # late already: deferred at once
    assert time_left(made(-3.0)) == ANSWER_WITHIN  # a clock behind Discord's: counted from now


def test_texts_are_cut_to_fit() -> None:
    assert shorten("abc", 3) == "abc" and shorten("abcd", 3) == "ab…"
    long_word = "x" * 100
    said = fit_to_show(f"cannot read {long_word!r}: moves look like rt2", 300)
    assert "'" + "x" * 38 + "…" in said and long_word not in said and said.endswith("rt2")
    assert len(fit_to_show("word " * 100, 50)) == 50


class _Recorded:
    """Stands in for the parts of a discord.Interaction that `_show` uses, recording the calls:
    the one case the fake Discord cannot bring about at will is a public command deferred before
    its answer turns out private (reads are never held up by the database)."""

    def __init__(self, *, deferred: bool) -> None:
        self.calls: list[tuple[str, bool | None]] = []
        self.message = None
        outer = self

        class Response:
            type = discord.InteractionResponseType.deferred_channel_message if deferred else None

            def is_done(self) -> bool:
                return deferred

            async def send_message(self, *text, **fields) -> None:
                outer.calls.append(("send_message", fields["ephemeral"]))

        class Followup:
            async def send(self, *text, **fields) -> None:
                outer.calls.append(("followup", fields["ephemeral"]))

        self.response, self.followup = Response(), Followup()

    async def delete_original_response(self) -> None:
        self.calls.append(("delete_original", None))

    async def edit_original_response(self, **fields) -> None:
        self.calls.append(("edit_original", None))


async def test_a_private_answer_to_a_public_command_is_never_shown_to_the_channel() -> None:
    private = Answer(text="Watching Alice's daily", status="Canfield", private=True)
    fresh = _Recorded(deferred=False)
    await _show(fresh, private, edit=False, ephemeral=False)  # type: ignore[arg-type]
    assert fresh.calls == [("send_message", True)]
    late = _Recorded(deferred=True)  # a public "thinking…" was sent first
    await _show(late, private, edit=False, ephemeral=False)  # type: ignore[arg-type]
    assert late.calls == [("delete_original", None), ("followup", True)]
    public = _Recorded(deferred=True)
    await _show(public, Answer(text="Watching Alice's game", status="Canfield"), edit=False,  # type: ignore[arg-type]
                ephemeral=False)
    assert public.calls == [("edit_original", None)]


async def test_a_refusal_after_a_public_thinking_message_is_said_privately() -> None:
    """A public command deferred under a crowd (a Share, say) whose work is then refused: the
    public "thinking…" is taken away and the refusal goes to the member alone; a private
    "thinking…" simply becomes the refusal."""
    public = _Recorded(deferred=True)
    await _say(public, "Only the player may share this daily", edit=False, ephemeral=False)  # type: ignore[arg-type]
    assert public.calls == [("delete_original", None), ("followup", True)]
    private = _Recorded(deferred=True)
    await _say(private, "Only the player may share this daily", edit=False)  # type: ignore[arg-type]
    assert private.calls == [("edit_original", None)]



async def test_an_answer_s_view_is_not_kept_by_discord_py_and_its_buttons_are_still_answered() -> None:
    # discord.py keeps a view it sends unless it is finished, a private one 15 minutes with a
    # timer task; ours hold DynamicItems, answered by their custom_id, so the view sent is finished.
    file = discord.File(io.BytesIO(b"png"), filename="board.png", description="A board")
    boards = [Answer("Played d.", file=file, view=board_view(reply_for(new_game("canfield", deal=1)), DISCORD),
                     status="Canfield"),
              Answer("Buttons alone", view=board_view(reply_for(new_game("canfield", deal=2)), DISCORD))]
    for board in boards:
        view = shown(board).view
        assert view is not None and view.is_finished()
        custom_ids = [item.custom_id for item in view.walk_children() if getattr(item, "custom_id", None)]
        assert len(custom_ids) > 5 and all(answers_custom_id(custom_id) for custom_id in custom_ids)
