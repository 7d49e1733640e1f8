"""Hints a player can follow: the next move besides draws, with the draws before it, in every
game that has hints; its draws then its move are legal in turn and lead to the progress the
search found; `rest` tells where a player following it has got to."""

from __future__ import annotations

import random

import pytest

from bot.game import DRAW, Game, Hint, IllegalMoveError, Move, new_game
from bot.game.solver import ENGINE_DEAD_LIMIT, covers, likeliest_hint, progress_path

HINTS_PER_GAME = 40  # the two-deck games' searches are slow: this many hints a deal is plenty

# (game, options, whether some hint of deals 1 and 2 turns the waste over among its draws)
VARIANTS = [
    ("canfield", {}, True),  # draw 3, unlimited redeals
    ("canfield", {"redeals": 2}, True),
    ("canfield-draw1", {}, True),
    ("canfield", {"die": "pass"}, True),  # each pass draws as many as its own roll
    ("canfield", {"die": "game"}, True),
    ("canfield-one-pass", {}, False),
    ("storehouse", {}, True),
    ("superior-canfield", {}, True),
    ("rainbow-canfield", {}, False),
    ("demons-and-thieves", {}, True),
    ("demonthief", {}, False),
    ("patriarchs", {}, True),
    ("picture-patience", {}, True),
]


def steps_to_progress(game: Game) -> int | None:
    """How far the shortest way to progress is, as the hint's search counts: in the solver's
    steps (draws, then a move) for the games it covers, in moves for the others (each draw one);
    None when the search gives up."""
    if covers(game):
        line = progress_path(game)
        return None if line is None else len(line)
    moves = game.shortest_progress(ENGINE_DEAD_LIMIT)
    return None if moves is None else len(moves)


def progress(game: Game) -> tuple[int, int]:
    return game.foundation_cards, -game.reserve_cards


@pytest.mark.parametrize(("name", "options", "redealing"), VARIANTS)
def test_following_the_hints_plays_their_draws_then_their_move_to_the_progress_found(
        name: str, options: dict, redealing: bool) -> None:
    seen: list[Hint] = []
    for deal in (1, 2):
        game = new_game(name, deal=deal, **options)
        distance = steps_to_progress(game)
        while len(seen) < HINTS_PER_GAME * deal and (hint := game.hint()) is not None:
            seen.append(hint)
            before = progress(game)
            assert hint.draws >= 0 and not hint.move.is_draw
            for done in range(hint.draws):
                assert hint.rest(game.position) == Hint(hint.move, hint.draws - done, hint.meaning, hint.way[done:])
                assert hint.rest(game.position).next_move == DRAW
                game.play(DRAW)  # legal: play refuses an illegal move
            assert hint.rest(game.position).next_move == hint.move
            assert game.describe(hint.move) == hint.meaning  # worded as it is played
            game.play(hint.move)
            assert hint.rest(game.position) is None  # followed to its end
            after = steps_to_progress(game)
            if distance is not None and progress(game) == before:
                # Not there yet: the rest of the way the search found is one step shorter.
                assert after == distance - (1 if covers(game) else hint.draws + 1)
            distance = after
    assert any(hint.draws for hint in seen)
    assert any(hint.redeals for hint in seen) == redealing


def test_a_hints_draws_turn_the_waste_over_as_often_as_needed_and_the_die_rolls_anew_each_pass() -> None:
    game = new_game("canfield", deal=1, die="pass")
    hint = game.hint()
    assert hint is not None and (hint.draws, hint.redeals) == (17, 2)
    rolls = {game.draw_count}
    for move in hint.moves[:-1]:
        game.play(move)
        rolls.add(game.draw_count)
    assert game.redeals_used == 2 and rolls == {4, 5, 2}  # the rolls of passes 0, 1 and 2
    assert game.piles()[hint.move.src][-1] in str(hint.meaning)
    before = game.foundation_cards, game.reserve_cards
    game.play(hint.move)
    assert (game.foundation_cards, game.reserve_cards) != before


def test_the_rest_of_a_hint_follows_its_draws_and_an_undo_and_ends_off_its_way() -> None:
    game = new_game("canfield-draw1", deal=1)
    while (hint := game.hint()) is not None and hint.draws < 3:
        for move in hint.moves:
            game.play(move)
    assert hint is not None
    game.play("d d")
    assert hint.rest(game.position) == Hint(hint.move, hint.draws - 2, hint.meaning, hint.way[2:])
    game.undo()
    assert hint.rest(game.position).draws == hint.draws - 1
    game.undo()
    assert hint.rest(game.position) is hint
    other = next(move for move in game.legal_moves() if not move.is_draw)  # a move of one's own
    game.play(other)
    assert hint.rest(game.position) is None


def test_a_hint_is_made_of_legal_moves_only() -> None:
    game = new_game("canfield", deal=1)
    hint = game.hint_of(0, Move("r", "t4"))
    assert hint.moves == [Move("r", "t4")] and hint.redeals == 0 and hint.next_move == Move("r", "t4")
    with pytest.raises(IllegalMoveError):
        game.hint_of(2, Move("t1", "t2"))
    with pytest.raises(ValueError, match="never a draw"):
        Hint(DRAW, 0, hint.meaning, hint.way)
    with pytest.raises(ValueError, match="positions on its way"):
        Hint(Move("r", "t4"), 2, hint.meaning, hint.way)
    assert game.moves == []


def test_when_the_search_gives_up_the_hint_is_a_card_up_or_from_the_reserve_after_the_fewest_draws() -> None:
    # The likeliest move (the hint when the search gives up, or when its way starts by undoing
    # the last move), on positions along random playouts.
    assert likeliest_hint(new_game("canfield", deal=1)).moves == [Move("r", "t4")]  # t2t3 and d are legal too
    only_draws = new_game("canfield-draw1", deal=3)  # nothing but the draw: KS comes up to f2 at the 4th
    assert only_draws.legal_moves() == [DRAW] and likeliest_hint(only_draws).moves == [DRAW] * 4 + [Move("w", "f2")]
    rng = random.Random(5)
    undone = 0
    for deal in range(1, 16):
        game = new_game("canfield-draw1", deal=deal)
        for _ in range(30):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
            hint = likeliest_hint(game)
            ups = [move for move in game.legal_moves()
                   if (move.dst.startswith("f") or move.src == "r") and not game.undoes_last(move)]
            undone += any(game.undoes_last(move) for move in game.legal_moves())
            if hint is None:
                assert not any(move for move in game.legal_moves() if not move.is_draw and not game.undoes_last(move))
                continue
            assert hint.draws or not game.undoes_last(hint.move)
            if ups:
                assert hint.draws == 0 and hint.move in ups
            twin = game.copy()
            for move in hint.moves:  # legal in turn
                twin.play(move)
    assert undone  # some positions could have taken the last move straight back
