"""Who a message may ping: nobody by default (the bot's own setting), or exactly the users it
names. Never @everyone, @here or a role, whatever a member put in a team name or a message."""

from __future__ import annotations

from collections.abc import Iterable

import discord

NO_PINGS = discord.AllowedMentions.none()


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping these users and no one else."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(user_id) for user_id in dict.fromkeys(user_ids)])
