"""Buttons and menus (discord.ui DynamicItems) and the answers they give: thin adapters onto bot.play."""

from __future__ import annotations

from typing import Any

import discord


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Every button and menu class whose custom_ids the bot answers: the ones the app registers
    with `add_dynamic_items` (keep the two in step)."""
    from bot.views.board import BoardButton, PickSelect
    from bot.views.leaderboards import PageButton
    from bot.views.matches import MatchButton, TeamSelect
    from bot.views.race import LobbyButton, RaceBoardButton
    from bot.views.ritual import PlayDailyButton
    from bot.views.share import ShareButton
    from bot.views.solution import SolutionPageButton
    from bot.views.watch import RefreshButton

    return (BoardButton, PickSelect, MatchButton, TeamSelect, PageButton, LobbyButton, RaceBoardButton,
            RefreshButton, ShareButton, SolutionPageButton, PlayDailyButton)


def answers_custom_id(custom_id: str) -> bool:
    """Whether one of the bot's buttons or menus takes this custom_id."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) is not None for item in dynamic_items())
