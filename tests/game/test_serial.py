"""A game round-trips through its record (deal + moves) and through a compact snapshot."""

from __future__ import annotations

import json
import random

import pytest

from bot.game import SnapshotError, from_record, from_snapshot, new_game, to_record, to_snapshot
from tests.game.decks import deck


def played_game(name: str = "canfield", deal: int = 77, steps: int = 60, **options: object):
    game = new_game(name, deal=deal, **options)
    rng = random.Random(deal)
    for _ in range(steps):
        if game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
    return game


def same(a, b) -> bool:
    return (a.layout(reveal=True), a.moves, a.redeals_used, a.die_roll, a.options, a.deal, a.cards) == (
        b.layout(reveal=True), b.moves, b.redeals_used, b.die_roll, b.options, b.deal, b.cards)


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


def test_a_record_with_an_illegal_move_is_refused_clearly() -> None:
    record = to_record(played_game(steps=5))
    record["moves"].append("rf1")
    record["moves"].append("rf1")
    with pytest.raises(SnapshotError, match="cannot rebuild"):
        from_record(record)
