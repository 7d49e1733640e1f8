"""The board's buttons: custom_ids that survive restarts, and disabled exactly when illegal."""

from __future__ import annotations

import discord

from bot.game import Move, new_game
from bot.play import Reply
from bot.views.board import BUTTON_TEMPLATE, PICK_TEMPLATE, Picked, board_view
from bot.words import DISCORD


def reply_for(game, version: int = 3, status: str = "playing") -> Reply:
    return Reply(game_id=41, version=version, status=status, game=game)


def buttons(view: discord.ui.View) -> dict[str, discord.ui.Button]:
    found = {}
    for child in view.children:
        item = getattr(child, "item", child)
        if isinstance(item, discord.ui.Button):
            found[item.custom_id.split(":")[3]] = item
    return found


async def test_every_custom_id_carries_the_game_and_version_and_fits_discord() -> None:
    view = board_view(reply_for(new_game("canfield", deal=1)), DISCORD)
    for child in view.children:
        item = getattr(child, "item", child)
        assert len(item.custom_id) <= 100
        template = PICK_TEMPLATE if isinstance(item, discord.ui.Select) else BUTTON_TEMPLATE
        match = template.fullmatch(item.custom_id)
        assert match and match["game"] == "41" and match["version"] == "3"
    rows = [getattr(c, "item", c).row for c in view.children]
    assert all(rows.count(row) <= 5 for row in set(rows))


async def test_buttons_are_enabled_exactly_when_their_move_is_legal() -> None:
    game = new_game("canfield", deal=1)  # legal: t2t3, rt4, d
    found = buttons(board_view(reply_for(game), DISCORD))
    assert not found["draw"].disabled and found["draw"].label == "Draw (34)"
    assert found["undo"].disabled and found["auto"].disabled and not found["hint"].disabled
    assert not found["r"].disabled and not found["t2"].disabled
    assert found["w"].disabled and found["t1"].disabled and found["t3"].disabled and found["t4"].disabled
    assert found["t2"].label == "t2 · 2S" and found["w"].label == "w · –"


async def test_after_a_pick_only_the_legal_targets_are_enabled() -> None:
    game = new_game("canfield", deal=1)
    view = board_view(reply_for(game), DISCORD, Picked("r", 1))
    found = buttons(view)
    assert set(found) >= {"cancel", "t1", "t2", "t3", "t4", "f"}
    assert [name for name in ("t1", "t2", "t3", "t4", "f") if not found[name].disabled] == ["t4"]
    assert found["t4"].custom_id == "pe:41:3:t4:r.1"
    assert game.can_move(Move("r", "t4"))


async def test_a_finished_game_has_every_button_disabled() -> None:
    found = buttons(board_view(reply_for(new_game("canfield", deal=1), status="resigned"), DISCORD))
    assert all(button.disabled for button in found.values())


async def test_the_pick_menu_lists_the_groups_that_can_move() -> None:
    view = board_view(reply_for(new_game("canfield", deal=1)), DISCORD)
    select = next(getattr(c, "item", c) for c in view.children
                  if isinstance(getattr(c, "item", c), discord.ui.Select))
    assert sorted(option.value for option in select.options) == ["r.1", "t2.1"]
    assert {option.label for option in select.options} == {"QC from r", "2S from t2"}
