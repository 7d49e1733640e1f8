"""The board's buttons: custom_ids that survive restarts, and disabled exactly when illegal."""

from __future__ import annotations

import discord

from bot.game import GAMES, Move, new_game
from bot.game.race import HAND_PILES, RACE_LAYOUTS, new_race
from bot.play import Reply
from bot.play.race import RaceReply
from bot.store.base import Race
from bot.views import answers_custom_id, dynamic_items
from bot.views.board import BUTTON_TEMPLATE, PICK_TEMPLATE, Picked, board_view, button_template, tap_piles
from bot.views.race import race_board_view
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


def answered(view: discord.ui.View) -> list[str]:
    """The custom_ids of a view's components, each checked to be one of the bot's registered
    DynamicItems matching its own class's template (so answered after a restart too)."""
    custom_ids = []
    for child in view.children:
        assert type(child) in dynamic_items(), child
        custom_id = child.item.custom_id  # type: ignore[attr-defined]
        assert type(child).__discord_ui_compiled_template__.fullmatch(custom_id), custom_id
        assert answers_custom_id(custom_id) and len(custom_id) <= 100
        custom_ids.append(custom_id)
    return custom_ids


async def test_every_registered_game_s_buttons_are_answered() -> None:
    """Every game of the registry: its board's buttons and menu before a pick, after a pick from
    each pile but the stock, and once over (a match's next round, a daily's share)."""
    for name, kind in GAMES.items():
        game = new_game(name, deal=1)
        assert game.pile_order == kind.piles, name
        views = [board_view(reply_for(game), DISCORD)]
        views += [board_view(reply_for(game), DISCORD, Picked(pile, 1)) for pile in kind.piles if pile != "s"]
        views.append(board_view(Reply(game_id=41, version=3, status="won", game=game, kind="daily", match_id=8),
                                DISCORD))
        matches = [BUTTON_TEMPLATE.fullmatch(custom_id) for view in views for custom_id in answered(view)]
        assert {match["action"] for match in matches if match} >= set(tap_piles(kind.piles)), name
        assert {match["picked"] for match in matches if match} > {None}, name


async def test_every_race_layout_s_buttons_are_answered() -> None:
    for layout in RACE_LAYOUTS:
        race = Race(id=3, guild_id=1, channel_id=2, host_id=1, layout=layout, deal=1, status="running", moves=[],
                    version=0, message_id=None, demon_user_id=None, players=[1, 2], scores=[0, 0], created_at=0.0,
                    started_at=0.0, finished_at=None)
        game = new_race(1, players=2, layout=layout)
        assert tuple(game.piles(0)) == HAND_PILES[layout]
        custom_ids = answered(race_board_view(RaceReply(race, game, 0), DISCORD))
        assert {custom_id.split(":")[3] for custom_id in custom_ids} >= set(HAND_PILES[layout]) - {"s"}


def test_a_game_with_ten_columns_would_have_its_buttons_answered() -> None:
    piles = ("s", "w", "r", "f1", "f2", "f3", "f4", *(f"t{i}" for i in range(1, 11)))
    template = button_template(piles)
    assert template.fullmatch("pe:41:3:t10") and template.fullmatch("pe:41:3:t1:t10.2")
    assert template.fullmatch("pe:41:3:t10:f4.1") and template.fullmatch("pe:41:3:f:t10.1")
    assert not template.fullmatch("pe:41:3:t11") and not template.fullmatch("pe:41:3:t1:s.1")
    assert not BUTTON_TEMPLATE.fullmatch("pe:41:3:t10")  # no registered game has a tenth column
