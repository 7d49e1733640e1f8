"""When an answer is deferred at once (a crowd), and how long texts are cut."""

from __future__ import annotations

from bot.views.respond import CROWD, DEFER_AFTER, RATE_WINDOW, _Load, cut, shorten


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


def test_texts_are_cut_to_fit() -> None:
    assert cut("abc", 3) == "abc" and cut("abcd", 3) == "ab…"
    long_word = "x" * 100
    said = shorten(f"cannot read {long_word!r}: moves look like rt2", 300)
    assert "'" + "x" * 38 + "…" in said and long_word not in said and said.endswith("rt2")
    assert len(shorten("word " * 100, 50)) == 50
