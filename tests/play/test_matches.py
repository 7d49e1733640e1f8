"""Matches and teams on a real database (SQLite, then PostgreSQL), with a clock the tests move."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.game import option_names
from bot.play import GameOver, NoGameHere, Player, SoloPlay, UndoOff
from bot.play.errors import (
    BadSetting,
    ChangedElsewhere,
    MatchClosed,
    NoSuchMatch,
    NotATeamMatch,
    NoTeamChosen,
    NotInMatch,
    NotTheHost,
    TargetOutOfRange,
    TeamRefused,
    UnknownGame,
)
from bot.play.events import MatchWon, RoundScored
from bot.play.matches import EXPIRE_AFTER, MAX_TARGET, MatchAction, MatchListener, MatchPlay, Scoreboard, TeamPlay
from bot.play.settings import change_settings
from bot.store import open_store
from bot.store.base import TeamProblem
from tests.samples import won_game

ALICE, BOB, CAROL = Player(1, "Alice"), Player(2, "Bob"), Player(3, "Carol")
GUILD, CHANNEL = 5, 10
WON = won_game("canfield")
WON_DECK = [str(card) for card in WON.cards]
WINNING_LINE = " ".join(str(move) for move in WON.moves)


class Clock:
    """A clock that moves only when told; the store and the matches both read it."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Heard(MatchListener):
    def __init__(self) -> None:
        self.changed: list[int] = []
        self.won: list[Scoreboard] = []

    async def scoreboard_changed(self, match_id: int) -> None:
        self.changed.append(match_id)

    async def match_won(self, scoreboard: Scoreboard) -> None:
        self.won.append(scoreboard)


@pytest.fixture
async def world(database_url):
    clock = Clock()
    store = await open_store(database_url, clock)
    solo = SoloPlay(store, clock=clock)
    # A fixed generator: the deals of every match are the same from run to run (a random deal can
    # be blocked after its first draw, and the tests would fail now and then).
    matches = MatchPlay(store, solo, clock, decks=lambda match, round_number: WON_DECK if match.target < 1000 else None,
                        rng=random.Random(2026))
    heard = Heard()
    matches.listeners.append(heard)
    yield store, solo, matches, heard, clock
    await store.close()


async def round_game(matches: MatchPlay, match_id: int, player: Player) -> int:
    return (await matches.my_board(match_id, player)).game_id


async def test_a_match_to_100_is_won_by_the_first_to_reach_it_and_announced_once(world) -> None:
    _, solo, matches, heard, _ = world
    board = await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=100)
    match_id = board.match.id
    assert board.match.status == "lobby" and [p.user_id for p in board.players] == [ALICE.id]
    await matches.join(match_id, BOB)
    with pytest.raises(NotTheHost) as refused:
        await matches.start(match_id, BOB)
    assert refused.value.action == MatchAction.START
    board = await matches.start(match_id, ALICE)
    assert board.match.status == "running"
    bob_game = await round_game(matches, match_id, BOB)
    resigned = await solo.resign(bob_game, BOB)  # Bob's round 1 ends at -12; his round 2 is dealt
    assert resigned.events[-1] == (RoundScored(round=1, score=-12, total=-12, team=None, team_points=0, target=100,
                                               next_round=2))
    alice_game = await round_game(matches, match_id, ALICE)
    final = await solo.move(alice_game, ALICE, WINNING_LINE)
    assert final.status == "won" and MatchWon(teams=False) in final.events
    assert len(heard.won) == 1 and heard.won[0].winner.name == "Alice" and heard.won[0].winner.points == 352
    board = await matches.scoreboard(match_id)
    assert board.match.status == "finished" and board.match.winner_user_id == ALICE.id
    assert [(s.name, s.points, s.rounds) for s in board.standings] == [("Alice", 352, 1), ("Bob", -12, 1)]
    with pytest.raises(MatchClosed) as closed:  # an ended match stays as it ended
        await matches.cancel(match_id, ALICE)
    assert (closed.value.status, closed.value.action) == ("finished", MatchAction.CANCEL)
    assert (await matches.scoreboard(match_id)).match.status == "finished"
    assert board.winner is not None and board.winner.name == "Alice"
    assert len(heard.won) == 1


async def test_a_won_match_is_final_and_its_rounds_in_play_end_with_it(world) -> None:
    store, solo, matches, heard, _ = world
    match_id = (await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=100)).match.id
    await matches.join(match_id, BOB)
    await matches.start(match_id, ALICE)
    bob_game = await round_game(matches, match_id, BOB)
    played = await solo.move(bob_game, BOB, " ".join(WINNING_LINE.split()[:20]))  # Bob is well on his way
    assert played.ok and played.game.score > 0
    await solo.move(await round_game(matches, match_id, ALICE), ALICE, WINNING_LINE)
    final = [(s.name, s.points, s.rounds) for s in (await matches.scoreboard(match_id)).standings]
    assert final == [("Alice", 352, 1), ("Bob", 0, 0)]
    # Bob's round ended with the match: resigned, closed, its score added nowhere, not playable.
    stored = await store.games.get_game(bob_game)
    assert stored.status == "resigned"
    with pytest.raises(MatchClosed) as closed:
        await matches.my_board(match_id, BOB)
    assert (closed.value.status, closed.value.action) == ("finished", MatchAction.PLAY)
    with pytest.raises(NoGameHere):
        await solo.running(BOB, CHANNEL)
    stale = await solo.move(bob_game, BOB, "d", version=played.version)  # a button of his old board
    assert stale.stale and stale.status == "resigned" and stale.game.moves == played.game.moves
    with pytest.raises(GameOver) as over:
        await solo.move(bob_game, BOB, "d")
    assert over.value.status == "resigned"
    # Leaving, joining, starting, picking a team: refused, and the scoreboard stays as it ended.
    for action, refused_action in ((matches.leave(match_id, BOB), MatchAction.LEAVE),
                                   (matches.join(match_id, CAROL), MatchAction.JOIN),
                                   (matches.start(match_id, ALICE), MatchAction.START),
                                   (matches.join(match_id, CAROL, team_name="Red"), MatchAction.JOIN)):
        with pytest.raises(MatchClosed) as closed:
            await action
        assert (closed.value.status, closed.value.action) == ("finished", refused_action)
    board = await matches.scoreboard(match_id)
    assert [(s.name, s.points, s.rounds) for s in board.standings] == final and len(heard.won) == 1
    assert [p.user_id for p in board.players] == [ALICE.id, BOB.id] and not any(p.left for p in board.players)


async def test_a_cancelled_or_expired_match_ends_its_rounds_in_play(world) -> None:
    store, solo, matches, _, clock = world
    cancelled = (await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=5000)).match.id
    await matches.start(cancelled, ALICE)
    game = await round_game(matches, cancelled, ALICE)
    await matches.cancel(cancelled, ALICE)
    assert (await store.games.get_game(game)).status == "resigned"
    with pytest.raises(NoGameHere):
        await solo.running(ALICE, CHANNEL)
    expiring = (await matches.open(BOB, guild_id=GUILD, channel_id=CHANNEL, target=5000)).match.id
    await matches.start(expiring, BOB)
    game = await round_game(matches, expiring, BOB)
    clock.now += 2 * EXPIRE_AFTER
    [expired] = await matches.expire_idle()
    assert expired.match.status == "expired" and (await store.games.get_game(game)).status == "resigned"
    assert [(s.points, s.rounds) for s in expired.standings] == [(0, 0)]


async def both_one_move_from_the_target(solo: SoloPlay, matches: MatchPlay) -> tuple[int, list[int], str]:
    """A match to 100 in which Alice and Bob are each one move from winning their first round:
    the match, their games, and that last move."""
    match_id = (await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=100)).match.id
    await matches.join(match_id, BOB)
    await matches.start(match_id, ALICE)
    games = [await round_game(matches, match_id, p) for p in (ALICE, BOB)]
    *moves, last = WINNING_LINE.split()
    for game_id, player in zip(games, (ALICE, BOB), strict=True):
        await solo.move(game_id, player, " ".join(moves))
    return match_id, games, last


def assert_one_match_winner(finals: list) -> None:
    """Two last moves at once: the first round stored wins the match; the other is won too if it
    was stored before the match ended, else its round ended with the match (closed, unscored)
    and the move is refused."""
    won = [reply for reply in finals if not isinstance(reply, BaseException)]
    assert won and all(reply.status == "won" for reply in won)
    refused = [reply for reply in finals if isinstance(reply, BaseException)]
    assert all(isinstance(reply, ChangedElsewhere | GameOver) for reply in refused), \
        finals
    assert sum(MatchWon(teams=False) in reply.events for reply in won) == 1


async def test_two_rounds_crossing_the_target_together_announce_one_winner(world) -> None:
    _, solo, matches, heard, _ = world
    match_id, games, last = await both_one_move_from_the_target(solo, matches)
    finals = await asyncio.gather(solo.move(games[0], ALICE, last), solo.move(games[1], BOB, last),
                                  return_exceptions=True)
    assert_one_match_winner(finals)
    assert len(heard.won) == 1
    board = await matches.scoreboard(match_id)
    assert board.match.winner_user_id in (ALICE.id, BOB.id) and board.winner.points == 352


async def test_two_processes_finishing_together_announce_one_winner(world, database_url) -> None:
    # Alice's last move reaches this process, Bob's reaches another one (its own connection,
    # its own locks) on the same database: the store's conditional update picks one winner.
    _, solo, matches, heard, clock = world
    match_id, games, last = await both_one_move_from_the_target(solo, matches)
    other_store = await open_store(database_url, clock)
    other_solo = SoloPlay(other_store)
    other = MatchPlay(other_store, other_solo, clock)
    other_heard = Heard()
    other.listeners.append(other_heard)
    finals = await asyncio.gather(solo.move(games[0], ALICE, last), other_solo.move(games[1], BOB, last),
                                  return_exceptions=True)
    assert_one_match_winner(finals)
    assert len(heard.won) + len(other_heard.won) == 1
    board = await other.scoreboard(match_id)
    assert board.match.status == "finished" and board.winner.points == 352
    await other_store.close()


async def test_team_members_pool_their_points_toward_the_team_target(world) -> None:
    store, solo, matches, heard, _ = world
    teams = TeamPlay(store)
    red = await teams.create(GUILD, ALICE, "Red")
    await teams.join(GUILD, BOB, "red")
    with pytest.raises(TeamRefused) as refused:
        await teams.create(GUILD, BOB, "Blue")
    assert refused.value.problem == TeamProblem.IN_A_TEAM
    await teams.create(GUILD, CAROL, "Blue")
    assert [(t.name, len(t.members)) for t in await teams.teams(GUILD)] == [("Blue", 1), ("Red", 2)]
    board = await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, teams=True, target=600)
    match_id = board.match.id
    await matches.join(match_id, BOB)
    await matches.join(match_id, CAROL)
    await matches.start(match_id, ALICE)
    first = await solo.move(await round_game(matches, match_id, ALICE), ALICE, WINNING_LINE)
    [scored] = [event for event in first.events if isinstance(event, RoundScored)]
    assert (scored.team, scored.team_points, scored.target) == ("Red", 352, 600) and not heard.won
    second = await solo.move(await round_game(matches, match_id, BOB), BOB, WINNING_LINE)
    assert MatchWon(teams=True) in second.events
    [won] = heard.won
    assert won.winner.key == red.id and won.winner.points == 704 and won.winner.members == ("Alice", "Bob")
    assert won.match.winner_team_id == red.id and won.match.winner_user_id is None


async def test_a_team_match_needs_a_team_and_the_team_target_defaults_to_twice_the_target(world) -> None:
    store, _, matches, _, _ = world
    await change_settings(store, GUILD, target=150)
    board = await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, teams=True)
    assert board.match.target == 300 and board.players == []  # Alice has no team yet
    with pytest.raises(NoTeamChosen):
        await matches.join(board.match.id, ALICE)
    await TeamPlay(store).create(GUILD, BOB, "Blue")
    joined = await matches.join(board.match.id, ALICE, team_name="Blue")
    assert [(p.name, p.team_id is not None) for p in joined.players] == [("Alice", True)]
    await change_settings(store, GUILD, team_target=500)
    assert (await matches.open(BOB, guild_id=GUILD, channel_id=CHANNEL, teams=True)).match.target == 500


async def test_a_team_choice_for_a_match_without_teams_is_refused_and_changes_nothing(world) -> None:
    store, _, matches, _, _ = world
    board = await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL)
    await TeamPlay(store).create(GUILD, BOB, "Blue")
    with pytest.raises(NotATeamMatch) as refused:
        await matches.join(board.match.id, CAROL, team_name="Blue")  # a forged team menu
    assert refused.value.match_id == board.match.id
    assert [p.name for p in (await matches.scoreboard(board.match.id)).players] == ["Alice"]
    assert await store.matches.team_of(GUILD, CAROL.id) is None


async def test_every_player_gets_the_same_deal_each_round_and_undo_is_off(world) -> None:
    _, solo, matches, _, _ = world
    match_id = (await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=5000)).match.id
    await matches.join(match_id, BOB)
    await matches.start(match_id, ALICE)
    boards = [await matches.my_board(match_id, p) for p in (ALICE, BOB)]
    assert boards[0].game.deal == boards[1].game.deal and boards[0].round == 1 and not boards[0].undo_allowed
    await solo.move(boards[0].game_id, ALICE, "d")
    with pytest.raises(UndoOff):
        await solo.undo(boards[0].game_id, ALICE)
    for text in ("u u", "d u u", "undo"):
        with pytest.raises(UndoOff):
            await solo.move(boards[0].game_id, ALICE, text)
    assert (await solo.store.games.get_game(boards[0].game_id)).moves == ["d"]
    for player, board in zip((ALICE, BOB), boards, strict=True):
        await solo.resign(board.game_id, player)
    round2 = [await matches.my_board(match_id, p) for p in (ALICE, BOB)]
    assert round2[0].round == 2 and round2[0].game.deal == round2[1].game.deal != boards[0].game.deal


async def test_late_joiners_leavers_cancel_and_expiry(world) -> None:
    store, solo, matches, heard, clock = world
    match_id = (await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=5000)).match.id
    await matches.start(match_id, ALICE)
    board = await matches.join(match_id, BOB)  # a late joiner is dealt round 1 at once
    bob = next(p for p in board.players if p.user_id == BOB.id)
    assert bob.game_id is not None
    board = await matches.leave(match_id, BOB)
    assert next(p for p in board.players if p.user_id == BOB.id).left
    with pytest.raises(NotInMatch):
        await matches.my_board(match_id, BOB)
    clock.now += EXPIRE_AFTER - 60
    assert await matches.expire_idle() == []
    await solo.move(await round_game(matches, match_id, ALICE), ALICE, "d")  # a move keeps it alive
    clock.now += EXPIRE_AFTER - 60
    assert await matches.expire_idle() == []
    clock.now += 3 * EXPIRE_AFTER
    # Found idle, then a move (in this process or another) before it is expired: it stays.
    before = clock.now - EXPIRE_AFTER
    assert [m.id for m in await store.matches.idle_matches(before)] == [match_id]
    await solo.move(await round_game(matches, match_id, ALICE), ALICE, "d")
    assert not await store.matches.expire_match(match_id, before, clock.now)
    clock.now += 3 * EXPIRE_AFTER
    [expired] = await matches.expire_idle()
    assert expired.match.status == "expired" and match_id in heard.changed
    with pytest.raises(MatchClosed) as closed:
        await matches.join(match_id, CAROL)
    assert closed.value.status == "expired"
    other = (await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL)).match.id
    with pytest.raises(NotTheHost):
        await matches.cancel(other, BOB)
    assert (await matches.cancel(other, BOB, can_manage=True)).match.status == "cancelled"


async def test_bad_match_settings_are_refused(world) -> None:
    _, _, matches, _, _ = world
    with pytest.raises(UnknownGame):
        await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, game="chess")
    with pytest.raises(TargetOutOfRange) as refused:
        await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=0)
    assert (refused.value.target, refused.value.largest) == (0, MAX_TARGET)
    with pytest.raises(NoSuchMatch):
        await matches.scoreboard(99)


async def test_a_match_survives_a_restart(database_url) -> None:
    path = database_url
    store = await open_store(path)
    matches = MatchPlay(store, SoloPlay(store))
    match_id = (await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, target=5000)).match.id
    await matches.join(match_id, BOB)
    await matches.start(match_id, ALICE)
    game_id = (await matches.my_board(match_id, ALICE)).game_id
    await store.close()
    store = await open_store(path)
    solo = SoloPlay(store)
    matches = MatchPlay(store, solo)
    assert (await matches.my_board(match_id, ALICE)).game_id == game_id
    resigned = await solo.resign(game_id, ALICE)
    assert any(isinstance(event, RoundScored) and event.round == 1 for event in resigned.events)
    assert (await matches.my_board(match_id, ALICE)).round == 2
    await store.close()


@pytest.mark.parametrize("game", ["demons-and-thieves", "patriarchs", "picture-patience"])
async def test_a_match_of_a_two_deck_game_deals_everyone_the_same(world, game: str) -> None:
    _, solo, matches, _, _ = world
    board = await matches.open(ALICE, guild_id=GUILD, channel_id=CHANNEL, game=game, target=5000)
    match_id = board.match.id
    assert board.match.game == game and set(board.match.options) == set(option_names(game))  # no die in Patriarchs
    await matches.join(match_id, BOB)
    await matches.start(match_id, ALICE)
    boards = [await matches.my_board(match_id, p) for p in (ALICE, BOB)]
    assert boards[0].game.name == game and boards[0].game.deal == boards[1].game.deal
    await solo.move(boards[0].game_id, ALICE, "d")
    for player, board in zip((ALICE, BOB), boards, strict=True):
        await solo.resign(board.game_id, player)
    assert (await matches.my_board(match_id, ALICE)).round == 2


async def test_a_setting_out_of_range_is_refused_with_its_name_and_value(world) -> None:
    store = world[0]
    for change, refused in (({"target": 0}, ("target", 0)), ({"team_target": 100_001}, ("team_target", 100_001)),
                            ({"die": "always"}, ("die", "always")), ({"prefix": "a b"}, ("prefix", "a b"))):
        with pytest.raises(BadSetting) as bad:
            await change_settings(store, GUILD, **change)
        assert (bad.value.name, bad.value.value) == refused
