"""The cap on public posts: each member's posts counted channel by channel in a sliding window,
refused with the wait once they have made their share, taken back when nothing was posted; and
the counts kept stay bounded however many channels a member posts in."""

from __future__ import annotations

import pytest

from bot.play.errors import RateLimited
from bot.play.posts import POST, Posts
from bot.play.work import LIMITS, SWEEP_ABOVE, Limit, RateLimiter
from tests.play.test_matches import Clock

ALICE, BOB = 1, 2
HERE, THERE = 10, 11
CAP = LIMITS[POST]


@pytest.fixture
def clock() -> Clock:
    return Clock()


def posts_on(clock: Clock) -> Posts:
    """The real limits, on a clock the test moves."""
    return Posts(RateLimiter(clock=clock))


def test_a_member_may_post_the_cap_in_a_channel_then_is_told_how_long_to_wait(clock) -> None:
    posts = posts_on(clock)
    assert CAP.count >= 5 and CAP.seconds == 60.0  # a few a minute: far below a flood of 152 in 15 s
    for _ in range(CAP.count):
        posts.count(ALICE, HERE)
        clock.now += 1
    with pytest.raises(RateLimited) as refused:
        posts.count(ALICE, HERE)
    assert refused.value.action == POST and refused.value.retry_after == pytest.approx(CAP.seconds - CAP.count)
    # Another channel, and another member here, are counted apart.
    assert posts.count(ALICE, THERE).channel_id == THERE and posts.count(BOB, HERE).member_id == BOB
    with pytest.raises(RateLimited):  # a refusal counted nothing: still refused, with less to wait
        posts.count(ALICE, HERE)
    clock.now += CAP.seconds - CAP.count  # the first post leaves the window
    posts.count(ALICE, HERE)
    with pytest.raises(RateLimited) as refused:
        posts.count(ALICE, HERE)
    assert refused.value.retry_after == pytest.approx(1)


def test_a_post_taken_back_frees_its_own_place_and_no_other(clock) -> None:
    posts = posts_on(clock)
    counted = []
    for _ in range(CAP.count):
        counted.append(posts.count(ALICE, HERE))
        clock.now += 5
    posts.take_back(counted[0])  # the first one was not posted after all (answered privately, say)
    posts.take_back(counted[0])  # twice is once
    later = posts.count(ALICE, HERE)
    with pytest.raises(RateLimited) as refused:
        posts.count(ALICE, HERE)
    # The second post now leaves the window first: its wait, not the first's (nor the last's forgotten).
    assert refused.value.retry_after == pytest.approx(counted[1].at + CAP.seconds - clock.now)
    posts.take_back(later)
    posts.count(ALICE, HERE)
    posts.take_back(posts.count(BOB, THERE))  # another channel's taking back changes nothing here
    with pytest.raises(RateLimited):
        posts.count(ALICE, HERE)


def test_posts_in_many_channels_keep_a_bounded_count_and_each_action_its_own_window(clock) -> None:
    limits = RateLimiter({**LIMITS, "analysis": Limit(1, 300.0)}, clock=clock)
    posts = Posts(limits)
    channels = 3 * SWEEP_ABOVE
    start = clock.now
    limits.check(BOB, "analysis")  # a longer window than a post's
    for channel in range(channels):  # one member in 30,000 channels within a minute
        posts.count(ALICE, channel)
        clock.now += 0.001
    assert limits.kept() == channels + 1  # all still in their window: none may be forgotten
    clock.now += CAP.seconds
    most = 0
    for channel in range(channels, 2 * channels):  # as many more, a minute later
        posts.count(ALICE, channel)
        most = max(most, limits.kept())
    # The first minute's counts were swept as the new ones came; never more than twice those in play.
    assert most <= 2 * channels + 2 and limits.kept() < channels + SWEEP_ABOVE
    # Bob's analysis, counted for five minutes, is still counted: swept by its own window, not a post's.
    assert limits.check(BOB, "analysis") == pytest.approx(300 - (clock.now - start))


def test_the_limiter_counts_an_action_in_each_place_apart(clock) -> None:
    limits = RateLimiter({"post": Limit(1, 60.0)}, clock=clock)
    assert limits.check(ALICE, "post", HERE) == 0
    assert limits.check(ALICE, "post", HERE) == pytest.approx(60)
    assert limits.check(ALICE, "post", THERE) == 0 and limits.check(ALICE, "post") == 0
    limits.take_back(ALICE, "post", clock.now, HERE)
    assert limits.check(ALICE, "post", HERE) == 0
