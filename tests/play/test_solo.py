"""Solo play on a real SQLite file: start, move, undo, hint, resign, resume, races, damage."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import update

from bot.game import IllegalMoveError, Move, NotationError, to_snapshot
from bot.play import DamagedGame, GameOver, NoGameHere, NotASoloGame, NotYourGame, Player, SoloPlay
from bot.play.errors import BadOptions, ChangedElsewhere, DealTooLarge, UnknownGame
from bot.play.events import AlreadyPlaying, Ended, Moved, Refused, Started
from bot.play.replies import GameStatus
from bot.store import NewGame, open_store
from bot.store.tables import games
from tests.samples import won_game

ALICE, BOB = Player(1, "alice"), Player(2, "bob")
HERE = {"guild_id": 5, "channel_id": 10}


@pytest.fixture
async def play(database_url):
    store = await open_store(database_url)
    yield SoloPlay(store)
    await store.close()


async def test_start_move_and_every_move_is_stored_before_the_reply(play: SoloPlay) -> None:
    reply = await play.start(ALICE, **HERE, deal=1)
    assert reply.started and reply.version == 0 and reply.game.deal == 1 and reply.events == (Started(),)
    again = await play.start(ALICE, **HERE, deal=99)
    assert again.game_id == reply.game_id and not again.started and again.events == (AlreadyPlaying(),)
    moved = await play.move(reply.game_id, ALICE, "d rt4")
    assert moved.ok and [str(m) for m in moved.played] == ["d", "rt4"] and moved.version == 1
    stored = await play.store.games.get_game(reply.game_id)
    assert stored.moves == ["d", "rt4"] and stored.version == 1 and stored.snapshot == to_snapshot(moved.game)


async def test_bad_input_answers_and_changes_nothing(play: SoloPlay) -> None:
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    for text in ("xyz", "rt1", "u"):
        reply = await play.move(game_id, ALICE, text)
        assert not reply.ok and reply.events and reply.version == 0
    assert (await play.store.games.get_game(game_id)).version == 0


async def test_a_message_with_an_unreadable_token_plays_nothing_and_names_it(play: SoloPlay) -> None:
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    for text in ("raw", "d raw", "draw dad", "wa", "rt4 saw"):
        reply = await play.move(game_id, ALICE, text)
        bad = text.split()[-1]
        [refused] = reply.events
        assert not reply.ok and isinstance(refused, Refused) and not reply.played
        assert isinstance(refused.error, NotationError) and refused.error.token == bad
    stored = await play.store.games.get_game(game_id)
    assert stored.moves == [] and stored.version == 0
    assert [str(m) for m in (await play.move(game_id, ALICE, "draw")).played] == ["d"]


async def test_a_race_or_a_deal_the_store_cannot_keep_is_refused_in_one_line(play: SoloPlay) -> None:
    with pytest.raises(NotASoloGame) as refused:
        await play.start(ALICE, **HERE, name="demon-race")
    assert refused.value.name == "demon-race"
    with pytest.raises(DealTooLarge) as too_large:
        await play.start(ALICE, **HERE, deal=2**63)
    assert (too_large.value.deal, too_large.value.largest) == (2**63, 2**63 - 1)
    assert await play.store.games.running_game(ALICE.id, HERE["channel_id"]) is None


async def test_an_unknown_game_or_options_its_rules_refuse_start_nothing(play: SoloPlay) -> None:
    with pytest.raises(UnknownGame) as unknown:
        await play.start(ALICE, **HERE, name="chess")
    assert unknown.value.name == "chess"
    with pytest.raises(BadOptions) as refused:
        await play.start(ALICE, **HERE, die="always")
    problem = refused.value.problem  # the engine's phrase, for the presenter to word
    assert problem.template == "{option}={value}: choose one of {choices}" and problem.values["value"] == "'always'"
    with pytest.raises(BadOptions):
        await play.start(ALICE, **HERE, colour="blue")
    assert await play.store.games.running_game(ALICE.id, HERE["channel_id"]) is None


async def test_a_partly_legal_message_stores_the_moves_before_the_bad_one(play: SoloPlay) -> None:
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    reply = await play.move(game_id, ALICE, "d rt1 d")
    moved, refused = reply.events
    assert not reply.ok and isinstance(refused.error, IllegalMoveError) and [str(m) for m in reply.played] == ["d"]
    assert "'rt1' is not legal" in str(refused.error)  # the engine's own words
    assert (await play.store.games.get_game(game_id)).moves == ["d"]
    assert moved == Moved(played=(Move("s", "w"),))
    # A take-back before the bad move stands too, and the answer says so.
    reply = await play.move(game_id, ALICE, "u rt1")
    moved, refused = reply.events
    assert moved == Moved(took_back=(Move("s", "w"),)) and isinstance(refused.error, IllegalMoveError)
    assert (await play.store.games.get_game(game_id)).moves == []


async def test_undo_hint_and_resign(play: SoloPlay) -> None:
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    await play.move(game_id, ALICE, "rt4")
    undone = await play.undo(game_id, ALICE)
    assert undone.ok and undone.events == (Moved(took_back=(Move("r", "t4"),)),) and undone.game.moves == []
    hint = await play.hint(game_id, ALICE)
    assert hint.highlight is not None and hint.game.can_move(hint.highlight) and hint.version == undone.version
    resigned = await play.resign(game_id, ALICE)
    assert resigned.status == "resigned" and resigned.finished
    with pytest.raises(GameOver):
        await play.move(game_id, ALICE, "d")
    with pytest.raises(NoGameHere):
        await play.running(ALICE, 10)


async def test_only_the_owner_plays_and_stale_boards_are_refused(play: SoloPlay) -> None:
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    with pytest.raises(NotYourGame):
        await play.move(game_id, BOB, "d")
    with pytest.raises(NotYourGame):
        await play.play(game_id, BOB, Move("s", "w"))
    await play.play(game_id, ALICE, Move("s", "w"), version=0)
    stale = await play.play(game_id, ALICE, Move("s", "w"), version=0)
    assert stale.stale and not stale.ok and stale.version == 1
    assert (await play.store.games.get_game(game_id)).moves == ["d"]


async def test_a_game_resumes_after_the_database_is_reopened(database_url) -> None:
    path = database_url
    store = await open_store(path)
    play = SoloPlay(store)
    game_id = (await play.start(ALICE, **HERE, deal=7)).game_id
    board = (await play.move(game_id, ALICE, "d d")).game
    real = next(str(m) for m in board.legal_moves() if not m.is_draw)
    before = (await play.move(game_id, ALICE, real)).game.piles(reveal=True)
    await store.close()
    store = await open_store(path)
    again = await SoloPlay(store).running(ALICE, 10)
    assert again.game_id == game_id and again.game.piles(reveal=True) == before
    assert [str(m) for m in again.game.moves] == ["d", "d", real]
    undone = await SoloPlay(store).undo(game_id, ALICE)  # undo works on a rebuilt game too
    assert [str(m) for m in undone.game.moves] == ["d", "d"]
    await store.close()


async def test_two_moves_at_once_apply_in_order_each_once(play: SoloPlay) -> None:
    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    replies = await asyncio.gather(*(play.play(game_id, ALICE, Move("s", "w"), version=0) for _ in range(4)))
    assert sum(r.ok for r in replies) == 1 and sum(r.stale for r in replies) == 3
    replies = await asyncio.gather(*(play.move(game_id, ALICE, "d") for _ in range(3)))
    assert all(r.ok for r in replies) and sorted(r.version for r in replies) == [2, 3, 4]
    assert (await play.store.games.get_game(game_id)).moves == ["d"] * 4


async def test_two_processes_on_one_game_cannot_both_apply_the_same_version(database_url) -> None:
    path = database_url
    first_store, second_store = await open_store(path), await open_store(path)
    first, second = SoloPlay(first_store), SoloPlay(second_store)
    game_id = (await first.start(ALICE, **HERE, deal=1)).game_id
    await second.board(game_id, ALICE)  # second caches version 0
    await first.move(game_id, ALICE, "d")
    with pytest.raises(ChangedElsewhere):
        await second.move(game_id, ALICE, "rt4")
    retried = await second.move(game_id, ALICE, "rt4")  # rebuilt from the store, then played
    assert retried.ok and [str(m) for m in retried.game.moves] == ["d", "rt4"]
    # A button from the board the second process drew, pressed where the first holds an older
    # copy: the first reads the stored game and plays it, rather than calling the button stale.
    pressed = await first.play(game_id, ALICE, Move("s", "w"), version=retried.version)
    assert pressed.ok and not pressed.stale and pressed.version == retried.version + 1
    await first_store.close()
    await second_store.close()


async def test_a_running_game_another_process_moved_is_read_again_not_played_stale(database_url) -> None:
    first_store, second_store = await open_store(database_url), await open_store(database_url)
    first, second = SoloPlay(first_store), SoloPlay(second_store)
    game_id = (await first.start(ALICE, **HERE, deal=1)).game_id
    assert (await second.running(ALICE, HERE["channel_id"])).version == 0  # second caches version 0
    await first.move(game_id, ALICE, "d")
    found = await second.running(ALICE, HERE["channel_id"])
    assert found.version == 1 and [str(m) for m in found.game.moves] == ["d"]
    moved = await second.move(found.game_id, ALICE, "rt4")
    assert moved.ok and moved.version == 2 and (await first_store.games.get_game(game_id)).moves == ["d", "rt4"]
    again = await first.start(ALICE, **HERE)  # /play finds it too, as stored
    assert again.version == 2 and [str(m) for m in again.game.moves] == ["d", "rt4"]
    await first_store.close()
    await second_store.close()


async def test_a_damaged_snapshot_is_rebuilt_from_the_moves_and_a_damaged_game_says_so(database_url) -> None:
    store = await open_store(database_url)
    game_id = (await SoloPlay(store).start(ALICE, **HERE, deal=1)).game_id
    await SoloPlay(store).move(game_id, ALICE, "d rt4")
    await store.db.execute(update(games).where(games.c.id == game_id).values(snapshot="garbage"))
    rebuilt = await SoloPlay(store).board(game_id, ALICE)
    assert [str(m) for m in rebuilt.game.moves] == ["d", "rt4"]
    await store.db.execute(update(games).where(games.c.id == game_id).values(moves="d rt1 zz"))
    with pytest.raises(DamagedGame) as damaged:
        await SoloPlay(store).board(game_id, ALICE)
    assert damaged.value.game_id == game_id and "'rt1' is not legal" in damaged.value.problem
    await store.close()


async def test_a_won_game_is_stored_as_won(play: SoloPlay) -> None:
    solved = won_game("canfield")
    stored = await play.store.games.create_game(NewGame(
        guild_id=5, channel_id=10, user_id=ALICE.id, name="canfield", options=solved.options, deal=None,
        cards="".join(str(card) for card in solved.cards), snapshot=None, score=-12))
    final = await play.move(stored.id, ALICE, " ".join(str(m) for m in solved.moves))
    assert final.status == GameStatus.WON and Ended(GameStatus.WON, 352) in final.events
    assert (await play.store.games.get_game(stored.id)).status == "won"


async def test_the_owner_of_a_damaged_game_can_set_it_aside_and_play_on(play: SoloPlay) -> None:
    healthy = (await play.start(ALICE, guild_id=5, channel_id=11, deal=1)).game_id
    assert await play.abandon_damaged(ALICE, 11) is None  # a game that rebuilds is not touched
    assert (await play.store.games.get_game(healthy)).status == "playing"
    assert await play.abandon_damaged(ALICE, 12) is None  # no game there

    game_id = (await play.start(ALICE, **HERE, deal=1)).game_id
    await play.move(game_id, ALICE, "d rt4")
    await play.store.db.execute(update(games).where(games.c.id == game_id).values(snapshot=None, moves="d zz9"))
    fresh = SoloPlay(play.store)  # a restarted bot: nothing in memory
    with pytest.raises(DamagedGame) as damaged:
        await fresh.start(ALICE, **HERE)
    assert damaged.value.game_id == game_id
    assert await fresh.abandon_damaged(ALICE, HERE["channel_id"]) == game_id
    stored = await play.store.games.get_game(game_id)
    assert stored.status == "resigned" and stored.moves == ["d", "zz9"]  # kept as it was, for a look later
    again = await fresh.start(ALICE, **HERE, deal=2)
    assert again.started and again.game_id != game_id and again.game.deal == 2
