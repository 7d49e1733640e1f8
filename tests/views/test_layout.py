"""Boards in Components V2: the layout's parts in order, and every board within Discord's 40
components (counted as Discord counts them: every component, nested ones included)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.game import GAMES, new_game
from bot.play import Reply
from bot.play.replies import DealLabel
from bot.views.board import Picked, board_view
from bot.views.layout import GALLERY_DESCRIPTION_LIMIT, MAX_COMPONENTS, component_count, layout_view
from bot.views.matches import MatchButton
from bot.views.respond import Answer, shown
from bot.words import DISCORD, board_alt_text, board_status


def count(components: list[dict[str, Any]]) -> int:
    """Components in a payload as Discord counts them: each one, and each one inside it."""
    total = 0
    for component in components:
        total += 1 + count(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            total += 1
    return total


def board_layout(reply: Reply, picked: Picked | None = None) -> discord.ui.LayoutView:
    alt = board_alt_text(reply.game, reply.label, DISCORD)
    file = discord.File(io.BytesIO(b"png"), filename="board.png", description=alt)
    status = board_status(reply.game, reply.label, DISCORD)
    return layout_view(status, "Played d.", file, board_view(reply, DISCORD, picked))


def every_board() -> list[tuple[str, discord.ui.LayoutView]]:
    """The board of every game in play, after a pick, and over with a match's Next round button."""
    boards = []
    for name in GAMES:
        game = new_game(name, deal=1)
        playing = Reply(game_id=1, version=1, status="playing", game=game)
        boards.append((f"{name} in play", board_layout(playing)))
        groups = sorted({(m.src, m.count) for m in game.legal_moves() if not m.is_draw})
        if groups:
            boards.append((f"{name} after a pick", board_layout(playing, Picked(*groups[0]))))
        over = Reply(game_id=1, version=1, status="resigned", game=game, match_id=7)
        boards.append((f"{name} over in a match", board_layout(over)))
    return boards


async def test_a_board_is_one_container_of_status_text_image_and_rows() -> None:
    game = new_game("canfield", deal=1)
    view = board_layout(Reply(game_id=41, version=3, status="playing", game=game, label=DealLabel(number=1)))
    [container] = view.to_components()
    parts = container["components"]
    assert container["type"] == 17 and [part["type"] for part in parts] == [10, 10, 12, 1, 1, 1, 1]
    assert parts[0]["content"] == "**Canfield** · deal #1 · score -12 · stock 34 · unlimited redeals"
    assert parts[1]["content"] == "Played d."
    [item] = parts[2]["items"]
    assert item["media"]["url"] == "attachment://board.png" and item["description"].startswith("Canfield board")
    labels = [[button.get("label") for button in row["components"]] for row in parts[3:6]]
    assert labels == [["Draw (34)", "Auto ▲", "Undo", "Hint", "Resign"], ["w · –", "r · QC"],
                      ["t1 · KS", "t2 · 2S", "t3 · 3H", "t4 · KH"]]
    assert parts[6]["components"][0]["custom_id"] == "pe:41:3:pick"  # the same custom_ids as before


async def test_every_board_stays_within_forty_components() -> None:
    counted = {what: count(view.to_components()) for what, view in every_board()}
    assert all(component_count(view) == counted[what] for what, view in every_board())
    biggest = max(counted, key=counted.__getitem__)
    assert counted[biggest] <= MAX_COMPONENTS, counted
    assert biggest == "demons-and-thieves in play" and counted[biggest] == 26, counted


async def test_the_gallery_description_is_cut_to_its_limit_and_the_file_keeps_the_whole_text() -> None:
    game = new_game("demons-and-thieves", deal=1)
    view = board_layout(Reply(game_id=1, version=1, status="playing", game=game))
    item = view.to_components()[0]["components"][2]["items"][0]
    assert len(item["description"]) == GALLERY_DESCRIPTION_LIMIT and item["description"].endswith("…")
    assert len(board_alt_text(game, DealLabel(number=game.deal), DISCORD)) > GALLERY_DESCRIPTION_LIMIT


async def test_a_plain_answer_stays_plain_unless_it_replaces_a_v2_message() -> None:
    plain = shown(Answer("You left match #3."))
    assert plain.content == "You left match #3." and plain.view is None
    kept = shown(Answer("You left match #3."), v2=True)
    assert kept.content is None and isinstance(kept.view, discord.ui.LayoutView)
    assert [c["type"] for c in kept.view.to_components()[0]["components"]] == [10]


async def test_rows_without_numbers_are_packed_five_wide_and_a_select_gets_its_own_row() -> None:
    buttons = discord.ui.View(timeout=None)
    for action in ("join", "board", "leave", "cancel"):
        buttons.add_item(MatchButton(3, action, action))
    buttons.add_item(discord.ui.Select(custom_id="pm:3:team", options=[discord.SelectOption(label="a")]))
    [container] = layout_view("", "Scores", None, buttons).to_components()
    assert [len(row["components"]) for row in container["components"][1:]] == [4, 1]
