"""A game round-trips through its record (deal + moves) and through a compact snapshot."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from bot.game import DRAW, SnapshotError, from_record, from_snapshot, new_game, to_record, to_snapshot
from bot.game.games import option_names
from bot.game.solver import GaveUp
from tests.game.decks import deck


def played_game(name: str = "canfield", deal: int = 77, steps: int = 60, **options: object):
    game = new_game(name, deal=deal, **options)
    rng = random.Random(deal)
    for _ in range(steps):
        if game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
    return game


def same(a, b) -> bool:
    return (a.piles(reveal=True), a.moves, a.redeals_used, a.die_roll, a.options, a.deal, a.cards) == (
        b.piles(reveal=True), b.moves, b.redeals_used, b.die_roll, b.options, b.deal, b.cards)


@pytest.mark.parametrize(("name", "options"), [("canfield", {}), ("storehouse", {"die": "pass"}),
                                               ("superior-canfield", {"groups": "any", "redeals": 2}),
                                               ("demons-and-thieves", {}), ("demonthief", {"groups": "top-or-whole"}),
                                               ("patriarchs", {}), ("picture-patience", {"redeals": 0})])
def test_record_and_snapshot_round_trip(name: str, options: dict) -> None:
    game = played_game(name, **options)
    record = to_record(game)
    assert json.loads(json.dumps(record)) == record
    assert same(from_record(record), game)
    snapshot = to_snapshot(game)
    assert same(from_snapshot(snapshot), game)
    assert to_snapshot(from_snapshot(snapshot)) == snapshot


@pytest.mark.parametrize("name", ["canfield", "demons-and-thieves", "patriarchs"])
def test_a_game_pickles_to_the_same_game_with_the_same_history(name: str) -> None:
    # How a game reaches a drawing or search process.
    game = played_game(name)
    twin = pickle.loads(pickle.dumps(game))
    assert same(twin, game) and twin.history == game.history and twin.last_move == game.last_move
    for card in game.cards:
        assert pickle.loads(pickle.dumps(card)) == card and pickle.loads(pickle.dumps(card)).is_red == card.is_red
        assert pickle.loads(pickle.dumps(card)) is pickle.loads(pickle.dumps(card))  # the deck's one card
    assert [step.before for step in twin.history] == [step.before for step in game.history]  # undo needs no replay
    assert twin.rules == game.rules and pickle.loads(pickle.dumps(game)).rules is twin.rules  # one object, shared
    twin.undo()
    game.undo()
    assert same(twin, game)


def test_a_pickled_game_keeps_its_known_outcome_and_an_explicit_deck() -> None:
    game, unknown = new_game("canfield", deal=10), new_game("canfield", deal=10)
    game.play(DRAW)
    unknown.play(DRAW)
    with pytest.raises(GaveUp):
        unknown.outcome_within(1)  # a search of one position does not tell it
    outcome = game.outcome  # worked out once: a drawing process does not search again
    assert pickle.loads(pickle.dumps(game)).outcome_within(1) == outcome  # known: no search
    explicit = new_game("canfield", cards=deck("AC", ["QH"], ["8S", "9H", "TS", "2C"]))
    explicit.play("t1t2 d")
    twin = pickle.loads(pickle.dumps(explicit))
    assert twin.deal is None and same(twin, explicit)
    assert pickle.loads(pickle.dumps(new_game("patriarchs", deal=5))).history == []


def test_explicit_decks_are_recorded_by_their_cards() -> None:
    game = new_game("canfield", cards=deck("AC", ["QH"], ["8S", "9H", "TS", "2C"]))
    game.play("t1t2 d")
    record = to_record(game)
    assert record["deal"] is None and record["cards"][0] == "AC" and record["moves"] == ["t1t2", "d"]
    assert same(from_record(record), game)
    assert same(from_snapshot(to_snapshot(game)), game)


@pytest.mark.parametrize("name", ["canfield", "demons-and-thieves", "patriarchs"])
def test_undo_after_a_snapshot_replays_to_the_earlier_positions(name: str) -> None:
    game = played_game(name, steps=40)
    restored = from_snapshot(to_snapshot(game))
    while game.moves:
        assert restored.undo() == game.undo()
        assert same(restored, game)


def test_the_snapshot_format_is_stable() -> None:
    game = new_game("canfield", deal=1)
    game.play("t2t3 d")
    assert to_snapshot(game) == (
        '{"cards":null,"deal":1,"die_roll":null,"game":"canfield","moves":"t2t3 d",'
        '"options":{"die":"off","draw":3,"groups":"top-or-whole","redeals":null},'
        '"piles":{"f1":"","f2":"","f3":"","f4":"JD","r":"2D9HJC5D7H7C5HKDKC9S5SAD",'
        '"s":"6H2H9C6STC8C3D6CQS8D8S6D7DJH2C8HTH4STD3S7S4DAC4HQHTS5C4C3CAHAS",'
        '"t1":"KS","t2":"QC","t3":"3H2S","t4":"KH","w":"9DQDJS"},"redeals_used":0,"v":1}'
    )


@pytest.mark.parametrize("mangle", [
    lambda d: d.update(v=99),
    lambda d: d["piles"].update(t1="KSKS"),
    lambda d: d["piles"].update(t1="ZZ"),
    lambda d: d.update(moves="t9t9"),
    lambda d: d.update(moves="t1t9"),
    lambda d: d.update(game="chess"),
    lambda d: d.pop("piles"),
    lambda d: d["options"].update(draw=0),
])
def test_a_corrupt_snapshot_is_refused_clearly(mangle) -> None:
    data = json.loads(to_snapshot(played_game(steps=10)))
    mangle(data)
    with pytest.raises(SnapshotError, match="cannot restore"):
        from_snapshot(json.dumps(data))
    with pytest.raises(SnapshotError):
        from_snapshot("not json at all")


def every_card_in(pile: str):
    def mangle(data: dict) -> None:
        cards = "".join(data["piles"].values())
        data["piles"] = {name: cards if name == pile else "" for name in data["piles"]}
    return mangle


def swap_tops(first: str, second: str):
    def mangle(data: dict) -> None:
        piles = data["piles"]
        piles[first], piles[second] = piles[first][:-2] + piles[second][-2:], piles[second][:-2] + piles[first][-2:]
    return mangle


@pytest.mark.parametrize(("name", "mangle", "said"), [
    ("canfield", every_card_in("t1"), "t1 is neither what was dealt"),
    ("canfield", every_card_in("s"), "the stock and waste hold cards"),
    ("canfield", every_card_in("f1"), "f1 is not a run"),
    ("canfield", swap_tops("r", "s"), "the reserve is not what was dealt"),
    ("storehouse", lambda d: d.update(redeals_used=3), "3 redeals used where 2"),
    ("demons-and-thieves", every_card_in("t5"), "t5 is neither"),
    ("patriarchs", every_card_in("r1"), "r1 holds 104 cards"),
    ("patriarchs", swap_tops("f1", "f5"), "f1 is not a run"),
])
def test_a_snapshot_of_the_right_cards_in_an_impossible_layout_is_refused(name: str, mangle, said: str) -> None:
    data = json.loads(to_snapshot(played_game(name, steps=10)))
    mangle(data)
    with pytest.raises(SnapshotError, match=f"cannot restore the game from its snapshot: {said}"):
        from_snapshot(json.dumps(data))


@pytest.mark.parametrize("name", ["canfield", "superior-canfield", "rainbow-canfield", "storehouse",
                                  "canfield-one-pass", "demons-and-thieves", "demonthief", "patriarchs",
                                  "picture-patience"])
def test_every_position_reached_by_legal_moves_passes_the_layout_check(name: str) -> None:
    for deal in range(1, 4):
        game = new_game(name, deal=deal, **({"groups": "any"} if "groups" in option_names(name) else {}))
        rng = random.Random(deal)
        for _ in range(200):
            moves = game.legal_moves()
            if not moves:
                break
            if game.moves and rng.random() < 0.1:
                game.undo()
            else:
                game.play(rng.choice(moves))
            game.check_position()
            assert same(from_snapshot(to_snapshot(game)), game)


def test_a_record_with_an_illegal_move_is_refused_clearly() -> None:
    record = to_record(played_game(steps=5))
    record["moves"].append("rf1")
    record["moves"].append("rf1")
    with pytest.raises(SnapshotError, match="cannot rebuild"):
        from_record(record)


@pytest.mark.parametrize("name", ["canfield", "storehouse", "demons-and-thieves", "patriarchs"])
def test_a_copy_with_its_last_move_only_shows_and_draws_as_the_game(name: str) -> None:
    from render import render

    game = played_game(name, steps=80)
    shown = game.copy(last_move_only=True)
    assert shown.piles() == game.piles() and shown.last_move == game.last_move
    assert shown.outcome == game.outcome and shown.legal_moves() == game.legal_moves()
    assert render(shown, player="Zoë") == render(game, player="Zoë")
    assert len(pickle.dumps(shown)) * 3 < len(pickle.dumps(game))  # what goes to a drawing process
    shown.undo()
    game.undo()
    assert shown.piles(reveal=True) == game.piles(reveal=True)
    assert not shown.can_undo() and game.can_undo()
