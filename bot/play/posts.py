"""Public posts: the messages a member has the bot post to a channel for all to read (a public
board, a watched game, a daily's result card, a replay, a lobby), capped per member and channel
(`LIMITS["post"]` in bot.play.work), so that one member cannot flood a channel.

A post is counted when it is asked for, before any work, so that many asked at once cannot all
slip under the cap; one that was not posted after all (a refusal, an answer shown privately) is
taken back. Which answers are public posts is the presenter's to say.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.solo import check_limit
from bot.play.work import RateLimiter

POST = "post"  # the action a public post counts as (bot.play.work.LIMITS)


@dataclass(frozen=True, slots=True)
class Post:
    """A public post of member `member_id` in channel `channel_id`, counted at `at` (the
    limiter's clock time)."""

    member_id: int
    channel_id: int | None
    at: float


class Posts:
    """Each member's public posts, channel by channel."""

    def __init__(self, limits: RateLimiter) -> None:
        self.limits = limits

    def count(self, member_id: int, channel_id: int | None) -> Post:
        """Count one public post of the member in the channel; RateLimited (`POST`, with the wait)
        when they have made their share there lately, and nothing is counted."""
        at = self.limits.clock()
        check_limit(self.limits, member_id, POST, channel_id, now=at)
        return Post(member_id, channel_id, at)

    def take_back(self, post: Post) -> None:
        """Forget a counted post that was not posted after all."""
        self.limits.take_back(post.member_id, POST, post.at, post.channel_id)
