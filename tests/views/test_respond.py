"""When an answer is deferred at once (a crowd), and how long texts are cut."""

from __future__ import annotations

import discord

from bot.views.respond import CROWD, DEFER_AFTER, RATE_WINDOW, Answer, _Load, _show, cut, shorten


def test_a_crowd_is_more_answers_in_progress_than_finish_within_the_defer_time() -> None:
    load = _Load()
    load.in_progress = CROWD - 1
    assert not load.crowded(100.0)  # a few at once never wait long
    load.in_progress = CROWD
    assert load.crowded(100.0)  # nothing finished lately: these may all wait
    # 20 finished in the last RATE_WINDOW seconds: 10 a second, 10 within DEFER_AFTER.
    load.finished.extend(100.0 - RATE_WINDOW + 0.1 * k for k in range(1, 21))
    per_defer_time = round(20 / RATE_WINDOW * DEFER_AFTER)
    load.in_progress = per_defer_time
    assert not load.crowded(100.0)
    load.in_progress = per_defer_time + 1
    assert load.crowded(100.0)
    load.in_progress = per_defer_time
    load.crowded(100.15)
    assert len(load.finished) == 19  # the finish at 98.1 is older than RATE_WINDOW now
    assert load.crowded(100.0 + 2 * RATE_WINDOW) and not load.finished  # a crowd, and nothing finishing


def test_a_burst_after_a_quiet_moment_is_measured_against_the_rate_the_bot_keeps_when_busy() -> None:
    load = _Load()
    # Busy for longer than RATE_WINDOW, finishing 30 a second: that is the bot's rate when busy.
    for k in range(61):
        load.started(100.0 + k / 30)
    for k in range(60):
        load.ended(100.0 + RATE_WINDOW + k / 30)
    assert load.in_progress == 1 and load.busy_since == 100.0 and load.busy_rate is None
    load.crowded(100.0 + 2 * RATE_WINDOW)  # 60 finished in the last RATE_WINDOW seconds, all busy
    assert load.busy_rate == 60 / RATE_WINDOW
    load.ended(105.0)  # the last one: quiet from now
    assert load.busy_since is None
    # A burst long after: nothing finished lately, but the bot is known to finish 30 within DEFER_AFTER.
    later = 200.0
    within = round(load.busy_rate * DEFER_AFTER)
    load.in_progress = within
    assert not load.crowded(later) and not load.finished  # answered in one request
    load.in_progress = within + 1
    assert load.crowded(later)  # this one would wait longer: deferred at once
    # A bot busy a whole RATE_WINDOW that finished nothing (its database held up): a crowd.
    load.busy_since = later - RATE_WINDOW
    load.in_progress = CROWD
    assert load.crowded(later) and load.busy_rate == 0.0


def test_texts_are_cut_to_fit() -> None:
    assert cut("abc", 3) == "abc" and cut("abcd", 3) == "ab…"
    long_word = "x" * 100
    said = shorten(f"cannot read {long_word!r}: moves look like rt2", 300)
    assert "'" + "x" * 38 + "…" in said and long_word not in said and said.endswith("rt2")
    assert len(shorten("word " * 100, 50)) == 50


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

            async def send_message(self, **fields) -> None:
                outer.calls.append(("send_message", fields["ephemeral"]))

        class Followup:
            async def send(self, **fields) -> None:
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
