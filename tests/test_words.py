"""The words players read for the play layer's events and errors, in Discord and in the terminal
(the wording that tests/play once checked: the play layer returns data now)."""

from __future__ import annotations

import pickle
import re
from dataclasses import dataclass, fields, replace
from random import Random

import pytest

from bot.catalog import extract
from bot.game import GAMES, TITLES, IllegalMoveError, Move, NotationError, describe_game, new_game
from bot.game.analysis import Analysis
from bot.game.analysis import Verdict as AnalysisVerdict
from bot.game.race import RACE_LAYOUTS, new_race
from bot.languages import ENGLISH, LANGUAGES
from bot.play.daily import DailyShare
from bot.play.errors import (
    AlreadyDrawing,
    AlreadyHosting,
    AlreadyRacing,
    AlreadyShared,
    BadOptions,
    BadSetting,
    BadTeamName,
    ChangedElsewhere,
    DailyElsewhere,
    DailyNotOver,
    DailyPlayed,
    DamagedGame,
    DamagedRace,
    DealIsLive,
    DealTooLarge,
    ElsewhereGame,
    ElsewhereMatch,
    ElsewhereRace,
    GameOver,
    LineFull,
    ManageServerNeeded,
    MatchChanged,
    MatchClosed,
    MoveCapReached,
    NobodyJoined,
    NoFinishedDaily,
    NoFinishedGame,
    NoGameHere,
    NoRaceHere,
    NoSolver,
    NoSuchDaily,
    NoSuchMatch,
    NoSuchRace,
    NotADay,
    NotAPlayChannel,
    NotASoloGame,
    NotATeamMatch,
    NoTeamChosen,
    NothingToWatch,
    NotInATeam,
    NotInMatch,
    NotInRace,
    NotRaceHost,
    NotStarted,
    NotTheHost,
    NotYourGame,
    PlayError,
    RaceChanged,
    RaceFull,
    RaceNotRunning,
    RaceUnderWay,
    RateLimited,
    ServerLacksApp,
    ShareWouldBePrivate,
    StillPlaying,
    TargetOutOfRange,
    TeamMatchOffServer,
    TeamRefused,
    TooFewRacers,
    TookTooLong,
    TooLargeToSend,
    UndoOff,
    UnknownGame,
    UnknownLayout,
    UnknownPeriod,
    UnknownRanking,
    UnknownSeason,
)
from bot.play.events import (
    AlreadyPlaying,
    Analysing,
    DailyDealt,
    DailyResumed,
    Ended,
    Hinted,
    HintNotAlone,
    MatchEnded,
    MatchWon,
    Moved,
    NothingToDo,
    NoVerdict,
    Refused,
    RoundDealt,
    RoundScored,
    Started,
    Verdict,
    Watching,
)
from bot.play.leaderboards import PERIODS, RANKINGS
from bot.play.matches import MatchAction
from bot.play.replies import DealLabel, GameStatus, Reply
from bot.play.review import Analysed, Replay
from bot.play.secrecy import LiveDaily, LiveRound, Sight
from bot.play.solo import Player
from bot.store.base import TeamProblem
from bot.words import (
    ALT_TEXT_LIMIT,
    DISCORD,
    LONGEST_NAME,
    TERMINAL,
    Voice,
    analysis_text,
    board_alt_text,
    board_captions,
    board_status,
    board_text,
    card_words,
    duration_text,
    error_text,
    foundation_square,
    played_text,
    race_board_alt_text,
    race_table_alt_text,
    replay_text,
    reply_text,
    rules_text,
    share_text,
    watched_text,
)

DRAW, RT4 = Move("s", "w"), Move("r", "t4")
DAILY, ROUND = LiveDaily("canfield", "2024-05-08", 1_715_216_400.0), LiveRound(7, 2)


def said(*events: object, voice=DISCORD, stale: bool = False, status: GameStatus = GameStatus.PLAYING) -> str:
    game = new_game("canfield", deal=1)
    return reply_text(Reply(game_id=1, version=0, status=status, game=game, events=events, stale=stale), voice)


def test_a_solo_game_is_told_in_sentences_joined_in_order() -> None:
    assert said(Started()) == "New game of Canfield, deal #1. Good luck!"
    assert said(AlreadyPlaying()) == "You already have a game here: here it is. /resign ends it."
    assert said(Moved(played=(DRAW,))) == "Played d."
    assert said(Moved(took_back=(DRAW,))) == "Took back d."
    assert said(Moved(took_back=(RT4, DRAW), played=(DRAW,))) == "Took back rt4 d. Played d."
    illegal = IllegalMoveError("'rt1' is not legal: QC cannot go on KS")
    assert said(Moved(played=(DRAW,)), Refused(illegal)) == "Played d. 'rt1' is not legal: QC cannot go on KS"
    assert said(Refused(NotationError("cannot read 'xyz': moves look like rt2", "xyz"))).startswith(
        "cannot read 'xyz'")
    assert said(NothingToDo()) == "Nothing to do."
    assert said(NothingToDo(auto=True)) == "Nothing can go to a foundation now."
    assert said(HintNotAlone()) == "Ask for a hint on its own: h"
    assert said(Hinted(None)) == "No move left to suggest."
    assert said(Hinted(new_game("canfield", deal=1).hint_of(0, RT4))) == "Hint: rt4 (QC onto KH in t4)"
    assert said(stale=True) == "That board was out of date: here is the current one."
    assert said() == ""


def test_a_hint_names_its_draws_then_its_move_as_it_will_be_in_every_language() -> None:
    once, twice = new_game("canfield", deal=1).hint(), new_game("canfield-draw1", deal=1).hint()
    redealing = new_game("canfield", deal=1, die="pass").hint()  # 17 draws, two of them redeals
    assert said(Hinted(once)) == "Hint: draw, then wf2 (JS to its foundation)"  # the waste's top once drawn
    assert said(Hinted(twice)) == "Hint: draw ×2, then wf4 (QD to its foundation)"
    assert said(Hinted(redealing)) == \
        "Hint: draw ×17, turning the waste over on the way, then wf4 (QD to its foundation)"
    assert said(Hinted(twice), voice=TERMINAL) == "Hint: draw ×2, then wf4 (QD to its foundation)"
    assert said(Hinted(twice), voice=DISCORD.speaking("de")) == "Tipp: draw ×2, dann wf4 (QD auf den Ablagestapel)"
    assert said(Hinted(redealing), voice=DISCORD.speaking("fr")) == \
        "Indice : draw ×17 (en retournant la défausse en chemin), puis wf4 (QD sur sa fondation)"
    assert said(Hinted(twice), voice=DISCORD.speaking("es_ES")).startswith("Pista: draw ×2, luego wf4 (QD ")
    assert said(Hinted(twice), voice=DISCORD.speaking("pt_BR")).startswith("Dica: draw ×2, depois wf4 (QD ")


def test_the_end_of_a_game_and_the_verdict() -> None:
    assert said(Moved(played=(DRAW,)), Ended(GameStatus.WON, 352)) == "Played d. You won! Score 352."
    assert said(Ended(GameStatus.BLOCKED, 40)) == "No move can help now: the game is over. Score 40."
    assert said(Ended(GameStatus.RESIGNED, -12), Verdict(winnable=True)) == \
        "You resigned. Score -12. With every card known, this deal could have been won."
    assert said(Verdict(winnable=False)) == "Even with every card known, this deal could not have been won."
    assert said(NoVerdict()) == "No verdict on this deal this time: you have had many lately."


def test_many_moves_are_told_with_the_middle_left_out() -> None:
    assert played_text([DRAW] * 13, DISCORD) == "Played 13 moves: " + " ".join(["d"] * 10) + " … d."


def test_rounds_of_matches_and_dailies() -> None:
    # A round's and a daily's deal numbers are never said (bot/play/secrecy.py).
    assert said(RoundDealt(7, 2, 15)) == "Match #7, round 2: the same deal for every player."
    assert said(RoundDealt(7, 2, 15, resumed=True)) == "Match #7, round 2."
    assert said(RoundDealt(7, 2, None, resumed=True)) == "Match #7, round 2: a fixed deck."
    scored = RoundScored(round=1, score=-12, total=-12, team=None, team_points=0, target=100, next_round=2)
    assert said(Ended(GameStatus.RESIGNED, -12), scored) == \
        "You resigned. Score -12. Round 1 over: -12 points, -12 in all. Round 2 is dealt: press **Next round**."
    team = RoundScored(round=1, score=352, total=352, team="Red", team_points=352, target=600, next_round=None)
    assert said(team) == "Round 1 over: +352 points, 352 in all. Team Red: 352 of 600."
    assert said(MatchWon(teams=False)) == "**The demon is exorcised!** You win the match."
    assert said(MatchWon(teams=True)) == "**The demon is exorcised!** You and your team win the match."
    assert said(MatchEnded(7, "expired")) == "Match #7 is expired."
    assert said(DailyDealt("2024-05-08")) == \
        "Daily Canfield of 2024-05-08: the same deal for everyone today. One attempt, no undo. Good luck!"
    assert said(DailyResumed("2024-05-08")) == \
        "Your daily game, in play: Canfield of 2024-05-08. One attempt, no undo."
    assert said(DailyResumed("2024-05-08", day_over=True)) == (
        "Your daily game, in play: Canfield of 2024-05-08. Its day is over: finish it by 2024-05-09 01:00 UTC, "
        "when it ends as it stands.")


@pytest.mark.parametrize(("error", "text"), [
    (NoGameHere(), "You have no game in this channel: start one with /play."),
    (NoGameHere(9), "There is no game 9."),
    (NotYourGame(), "That is not your game: start your own with /play."),
    (GameOver(GameStatus.RESIGNED, -12), "This game is over (resigned, score -12): start another with /play."),
    (DamagedGame(3, "bad move"), "Game 3 is damaged in storage and cannot be rebuilt (bad move). /resign sets it "
                                 "aside; then /play starts a new one."),
    (NotASoloGame("demon-race"), "A demon race is played together: open one with /race open."),
    (UndoOff(), "Undo is off in this game (fair play)."),
    (UndoOff(in_text=True), "Undo is off in this game (fair play): nothing was played."),
    (DealTooLarge(2**63, 2**63 - 1), f"Deal {2**63} is too large: deals here go up to {2**63 - 1}."),
    (ChangedElsewhere(), "This game changed elsewhere at the same moment: look at the board again."),
    (ChangedElsewhere(setting_aside=True), "This game changed elsewhere at the same moment: try again."),
    (RateLimited("hint", 4.2), "Slow down: you have asked for hints too often. Try again in 5 s."),
    (MoveCapReached(2000), "That would take this game past its cap of 2000 moves: nothing was played."),
    (DamagedRace(4, "1:zz9", "bad"), "Race #4 is damaged in storage and cannot be replayed (move '1:zz9': bad)."),
    (UnknownLayout("x"), f"Unknown layout 'x'; layouts: {', '.join(RACE_LAYOUTS)}."),
    (AlreadyRacing(), "You are already in a race in this channel."),
    (AlreadyRacing(4), "You are already in race #4 in this channel."),
    (RaceFull(full=True, seats=8), "That race is full: 8 players at most."),
    (RaceFull(full=False, seats=0), "That race is not taking players any more."),
    (NotRaceHost("start"), "Only the race's host can start it."),
    (NotRaceHost("cancel"), "Only the race's host can cancel it."),
    (RaceUnderWay(), "That race has already started."),
    (TooFewRacers(2), "A race needs 2 players at least: wait for someone to join."),
    (ElsewhereRace(4), "Race #4 is run in another channel: its buttons work there."),
    (NoRaceHere(), "You are in no race here: /race open starts one."),
    (RaceChanged(), "The race changed meanwhile: try again."),
    (NotInRace(), "You are not in that race."),
    (RaceNotRunning("finished"), "That race is over."),
    (RaceNotRunning("cancelled"), "That race is not running."),
    (RaceNotRunning("lobby"), "That race has not started yet."),
    (NoSuchRace(4), "There is no race #4."),
    (BadSetting("target", 0), "The target must be between 1 and 100000, not 0."),
    (BadSetting("team_target", 200_000), "The team target must be between 1 and 100000, not 200000."),
    (BadSetting("die", "always"), "The die rule is off, game or pass, not 'always'."),
    (BadSetting("prefix", "a b"), "A prefix is 1 to 5 characters, without spaces."),
    (ManageServerNeeded("settings"), "Only members with Manage Server can change the settings."),
    (ManageServerNeeded("prefix"), "Only members with Manage Server can change the prefix."),
    (NotAPlayChannel((11, 12)), "Games are played in <#11>, <#12> on this server."),
    (NotADay("2024-02-30"), "'2024-02-30' is not a day: write it YYYY-MM-DD."),
    (UnknownRanking("scores", RANKINGS), "Unknown leaderboard 'scores'; leaderboards: players, teams, daily, "
                                         "streaks, clean, casino, rating."),
    (UnknownPeriod("month", PERIODS), "Unknown period 'month'; periods: all, week, today, season."),
    (UnknownSeason("2026-13"), "There is no season '2026-13': a season is named like 2026-11 (a month), 2026-W48 (a "
                               "week) or 2026-Q4 (a quarter)."),
    (NoSuchDaily("klondike"), f"There is no daily of 'klondike'. Games: {', '.join(GAMES)}."),
    (DailyPlayed("canfield", "resigned", -12, 12 * 3600),
     "You have played today's Canfield daily already: resigned, score -12. The next one comes in 12 h 00 min "
     "(at 00:00 UTC)."),
    (AlreadyHosting(4), "You already have a match waiting in its lobby here (#4): start or cancel it first."),
    (AlreadyHosting(None), "You already have a match waiting in its lobby here: start or cancel it first."),
    (UnknownGame("chess"), f"Unknown game 'chess'; games: {', '.join(GAMES)}."),
    (TeamMatchOffServer(), "Team matches are played on a server."),
    (TargetOutOfRange(0, 100_000), "The target must be between 1 and 100000, not 0."),
    (BadOptions("die must be off, game or pass"), "die must be off, game or pass"),
    (NoSuchMatch(99), "There is no match #99."),
    (MatchClosed(7, "finished", MatchAction.JOIN), "Match #7 is finished: open a new one with /match open."),
    (MatchClosed(7, "finished", MatchAction.LEAVE), "Match #7 is finished: its scoreboard stays as it ended."),
    (MatchClosed(7, "running", MatchAction.START), "Match #7 is running already."),
    (MatchClosed(7, "finished", MatchAction.CANCEL), "Match #7 is finished: nothing to cancel."),
    (MatchClosed(7, "expired", MatchAction.PLAY), "Match #7 is expired: its rounds in play ended with it, unscored."),
    (NotInMatch(7, MatchAction.PLAY), "You are not in this match: press Join first."),
    (NotInMatch(7, MatchAction.LEAVE), "You are not in this match."),
    (NotTheHost(MatchAction.START), "Only the host, or a member with Manage Server, can start the match."),
    (NotTheHost(MatchAction.CANCEL), "Only the host, or a member with Manage Server, can cancel the match."),
    (NobodyJoined(), "Nobody has joined yet."),
    (MatchChanged(), "The match changed meanwhile: look again."),
    (NotStarted(), "The match has not started yet: the host presses Start."),
    (ElsewhereMatch(7), "Match #7 is played in another channel: its buttons work there."),
    (NotATeamMatch(7), "Match #7 is not a team match: join it with its Join button."),
    (NoTeamChosen(), "This is a team match: choose your team in the menu, or /team create one."),
    (BadTeamName(1, 32), "A team name has 1 to 32 characters."),
    (NotInATeam(), "You are not in a team on this server."),
    (TeamRefused(TeamProblem.IN_A_TEAM, None), "You are already in a team on this server: /team leave first."),
    (TeamRefused(TeamProblem.IN_A_TEAM, "Red"), "You are in team 'Red': /team leave first."),
    (TeamRefused(TeamProblem.NAME_TAKEN, "Red"), "There is already a team called 'Red' here, or you joined one "
                                                 "meanwhile."),
    (TeamRefused(TeamProblem.NO_SUCH_TEAM, "Red"), "There is no team called 'Red' here: /team list shows them."),
    (TeamRefused(TeamProblem.JOINED_MEANWHILE, None), "You joined another team meanwhile."),
    (DailyNotOver(), "A daily's result can be shared once its game has ended."),
    (AlreadyShared(), "You have shared this daily's result already."),
    (ShareWouldBePrivate(), "This server shows members' own apps to them alone: the card would reach nobody here, "
                            "so it was not posted."),
    (NothingToWatch(2), "That member has no game in play in this channel."),
    (DealIsLive(DAILY, Sight.CARDS), "Play your own Canfield daily of 2024-05-08 first (/daily): until then its "
                                     "deal stays hidden from you."),
    (DealIsLive(replace(DAILY, day_over=True), Sight.CARDS), "The Canfield daily of 2024-05-08 is still being "
                                                             "finished by others: its deal stays hidden from you "
                                                             "until it is over (2024-05-09 01:00 UTC at the "
                                                             "latest)."),
    (DealIsLive(ROUND, Sight.CARDS), "Finish your own game of round 2 of match #7 first: until then its deal stays "
                                     "hidden from you."),
    (DealIsLive(DAILY, Sight.COPY, copy=True), "That deal is being played as the Canfield daily of 2024-05-08: it "
                                               "can be dealt on its own once the daily is over (2024-05-09 01:00 UTC "
                                               "at the latest)."),
    (DealIsLive(ROUND, Sight.COPY, copy=True), "That deal is being played in round 2 of match #7: it can be dealt on "
                                               "its own once the match is over."),
    (ElsewhereGame(4), "That button belongs to a game played in another channel: it works there."),
    (DailyElsewhere("canfield", "2024-05-08", 10), "Your Canfield daily of 2024-05-08 is in play in <#10>: finish it "
                                                   "there."),
    (DailyElsewhere("canfield", "2024-05-08", None), "Your Canfield daily of 2024-05-08 is in play outside this "
                                                     "channel: finish it there."),
    (NoFinishedDaily(2), "That player has no finished daily yet."),
    (ServerLacksApp(), "This works on a server that has added Patient Exorcism: ask its admins to add the bot. "
                       "Solo games (/play) and the daily work anywhere."),
])
def test_errors_are_worded_from_their_data(error: PlayError, text: str) -> None:
    assert error_text(error, DISCORD) == text


# Values to build any refusal from its fields' annotations: distinct, so that one shown as it is
# stands out. (A field that picks among sentences gets a value those know: EXAMPLES.)
SAMPLE_VALUES = {"int": 4321, "int | None": 4321, "str": "zq-value", "str | None": "zq-value", "float": 12.5,
                 "bool": True, "object": "zq-object", "tuple[int, ...]": (11, 12), "tuple[str, ...]": ("zq", "zr"),
                 "GameStatus": GameStatus.RESIGNED, "MatchAction": MatchAction.JOIN,
                 "TeamProblem": TeamProblem.NAME_TAKEN, "Live": DAILY, "Sight": Sight.CARDS,
                 "Phrase | str": "zq-problem"}
EXAMPLES = {BadSetting: BadSetting("die", "zq-value")}
# Refusals whose sentence is the engine's own (in the voice's language): their data is the sentence.
ENGINE_WORDED = {BadOptions}


def kinds_of(cls: type) -> list[type]:
    """Every subclass of `cls`, however deep."""
    return [kind for sub in cls.__subclasses__() for kind in (sub, *kinds_of(sub))]


def an_error(kind: type[PlayError]) -> PlayError:
    """An instance of a refusal, from EXAMPLES or its fields' sample values."""
    return EXAMPLES.get(kind) or kind(*(SAMPLE_VALUES[str(field.type)] for field in fields(kind)))


PLAY_ERRORS = [kind for kind in kinds_of(PlayError) if kind.__module__.startswith("bot.")]


def test_the_play_layer_has_its_refusals_and_each_carries_its_data_as_its_arguments() -> None:
    assert len(PLAY_ERRORS) >= 60 and {NoGameHere, DealIsLive, TooLargeToSend, UnknownPeriod} <= set(PLAY_ERRORS)
    error = DamagedGame(3, "bad move")
    assert error.args == (3, "bad move") and str(error) == "(3, 'bad move')" and error.game_id == 3
    again = pickle.loads(pickle.dumps(DealIsLive(DAILY, Sight.COPY, copy=True)))
    assert (again.live, again.sight, again.copy, again.args) == (DAILY, Sight.COPY, True, (DAILY, Sight.COPY, True))
    assert NotYourGame().args == () and repr(UndoOff(in_text=True)) == "UndoOff(in_text=True)"


@pytest.mark.parametrize("kind", PLAY_ERRORS, ids=lambda kind: kind.__name__)
def test_every_refusal_of_the_play_layer_is_worded_in_every_voice_and_language(kind: type[PlayError]) -> None:
    """A refusal the words do not know says its arguments as they are (error_text's last resort):
    each of the play layer's has a sentence of its own instead, everywhere."""
    error = an_error(kind)
    for voice in (TERMINAL, *(DISCORD.speaking(language) for language in (ENGLISH, *LANGUAGES))):
        text = error_text(error, voice)
        assert text.strip() and repr(error) not in text and str(error.args) not in text, (voice.language, text)
        assert kind in ENGINE_WORDED or text != str(error), (voice.language, text)


def test_no_sentence_of_the_words_or_the_views_holds_markup() -> None:
    """Bold and mentions are the voice's, set around translated text (a translator never sees them)."""
    marked = [message.id for message in extract() if message.id
              and any(where.startswith(("bot/words", "bot/views")) for where, _line in message.locations)
              and any(mark in str(message.id) for mark in ("**", "<@", "<#", "__"))]
    assert not marked, marked


def test_a_member_is_mentioned_by_the_voice_alone() -> None:
    assert DISCORD.mention(42) == DISCORD.speaking("fr").mention(42) == "<@42>"
    assert TERMINAL.mention(42) == "player 42" and TERMINAL.speaking("fr").mention(42) == "joueur 42"
    assert DISCORD.bold(100) == "**100**" and TERMINAL.bold("Join") == "Join"


@dataclass(eq=False)
class Unworded(PlayError):
    """A refusal the words do not know (every one of the play layer's is known: see below)."""

    detail: str


def test_a_refusal_the_words_do_not_know_says_its_data_rather_than_nothing() -> None:
    assert error_text(Unworded("what it carries"), DISCORD) == "what it carries"


@pytest.mark.parametrize(("error", "text"), [
    (NoFinishedGame(), "You have no finished game to look back on yet: play one with /play."),
    (StillPlaying(12), "Game 12 is still in play: you can look back on it once it has ended."),
    (DealIsLive(DAILY, Sight.SOLVER), "The Canfield daily of 2024-05-08 is still being played: what the solver "
                                      "finds about its deal stays hidden until it is over (2024-05-09 01:00 UTC at "
                                      "the latest)."),
    (DealIsLive(DAILY, Sight.SOLVER, copy=True), "This game has the same cards as the Canfield daily of 2024-05-08, "
                                                 "still being played: what the solver finds about them stays hidden "
                                                 "until it is over (2024-05-09 01:00 UTC at the latest)."),
    (DealIsLive(ROUND, Sight.SOLVER), "A match's round can be looked back on once the match is over (match #7)."),
    (DealIsLive(ROUND, Sight.SOLVER, copy=True), "This game has the same cards as round 2 of match #7, still open: "
                                                 "what the solver finds about them stays hidden until the match is "
                                                 "over."),
    (NoSolver("patriarchs"), "No solver for Patriarchs: it knows the one-deck Canfield games."),
    (RateLimited("analysis", 12.2), "Slow down: you have asked for analyses too often. Try again in 13 s."),
])
def test_looking_back_is_refused_in_words_from_the_data(error: PlayError, text: str) -> None:
    assert error_text(error, DISCORD) == text


@pytest.mark.parametrize(("analysis", "text"), [
    (Analysis(AnalysisVerdict.LOST, 37, Move("w", "t2"), Move("t3", "t1")),
     "Game 9, 52 moves: after move 37 (**wt2**) the deal could no longer be won; **t3t1** instead still wins."),
    (Analysis(AnalysisVerdict.LOST, 52, None, Move("s", "w")),
     "Game 9, 52 moves: when you resigned after move 52, the deal could still be won: **d** still wins."),
    (Analysis(AnalysisVerdict.LOST, 0, None, Move("r", "t1")),
     "Game 9, 52 moves: you resigned at the deal, though it could be won: **rt1** starts a winning line."),
    (Analysis(AnalysisVerdict.NEVER),
     "Game 9, 52 moves: even with every card known, this deal could never have been won: no move of yours lost it."),
    (Analysis(AnalysisVerdict.WON), "Game 9, 52 moves: you won it, so nothing was lost."),
    (Analysis(AnalysisVerdict.UNKNOWN),
     "Game 9, 52 moves: the solver gave up before it could tell where this game was lost."),
])
def test_where_a_game_was_lost_is_said_plainly(analysis: Analysis, text: str) -> None:
    analysed = Analysed(9, analysis, 52, None, DealLabel(number=1))
    assert analysis_text(analysed, DISCORD) == text
    assert analysis_text(analysed, TERMINAL) == text.replace("**", "")
    assert said(Analysing(9)) == "Looking for where it was lost…"


def test_the_terminal_shows_no_discord_syntax() -> None:
    scored = RoundScored(round=1, score=5, total=5, team=None, team_points=0, target=100, next_round=2)
    for text in (said(AlreadyPlaying(), scored, MatchWon(teams=False), voice=TERMINAL),
                 *(error_text(error, TERMINAL) for error in (NoGameHere(), NotYourGame(), DamagedGame(1, "x"),
                                                             GameOver(GameStatus.WON, 352), NotASoloGame("r")))):
        assert "/" not in text and "**" not in text and "<@" not in text, text
    assert said(AlreadyPlaying(), voice=TERMINAL) == "You already have a game here: here it is. resign ends it."
    assert error_text(NoGameHere(), TERMINAL) == "You have no game in this channel: start one with play."


@pytest.mark.parametrize(("error", "text"), [
    (LineFull(8), "Too many replays are being drawn right now: please try again in a minute."),
    (AlreadyDrawing(), "Your other replay is still being drawn: one at a time, please."),
    (TookTooLong(180.0), "That replay took too long to draw and was given up: please try again later."),
    (TooLargeToSend(200_000), "Even the smallest replay of this game is over the upload limit here (195 KiB)."),
    (TooLargeToSend(10 * 1024 * 1024), "Even the smallest replay of this game is over the upload limit here "
                                       "(10.0 MiB)."),
])
def test_a_replay_that_cannot_be_made_is_refused_in_words(error: PlayError, text: str) -> None:
    assert error_text(error, DISCORD) == text
    assert error_text(error, DISCORD.speaking("fr")) not in ("", text)


def test_a_replay_says_whose_game_which_and_how_it_ended() -> None:
    replay = Replay(game_id=9, player=Player(2, "Zoë"), name="canfield", deal=17, status="won", score=352,
                    record={"moves": ["d"] * 120}, label=DealLabel(number=17))
    assert replay_text(replay, DISCORD) == "Replay of **Zoë**'s Canfield #17 (game 9): 120 moves, won, score 352."
    one = Replay(game_id=3, player=Player(0, "terminal"), name="storehouse", deal=None, status="resigned", score=-12,
                 record={"moves": ["d"]}, label=DealLabel())
    assert replay_text(one, TERMINAL) == "Replay of terminal's Storehouse (game 3): 1 move, resigned, score -12."
    # A daily's and a round's are named by day and by match, never by number; a live one is shown privately.
    daily = Replay(game_id=4, player=Player(2, "Zoë"), name="canfield", deal=123456, status="won", score=352,
                   record={"moves": ["d"]}, label=DealLabel(day="2024-05-08"), live=DAILY)
    assert replay_text(daily, DISCORD) == (
        "Replay of **Zoë**'s Canfield, Daily · 2024-05-08 (game 4): 1 move, won, score 352.\n"
        "Shown to you alone: the Canfield daily of 2024-05-08 stays off the channel until it is over "
        "(2024-05-09 01:00 UTC at the latest).")
    round_two = Replay(game_id=5, player=Player(2, "Zoë"), name="canfield", deal=654321, status="won", score=352,
                       record={"moves": ["d"]}, label=DealLabel(match_id=7, round=2), live=ROUND)
    assert replay_text(round_two, DISCORD) == (
        "Replay of **Zoë**'s Canfield, Match #7 · round 2 (game 5): 1 move, won, score 352.\n"
        "Shown to you alone: round 2 of match #7 stays off the channel while the match is open.")
    assert "123456" not in replay_text(daily, TERMINAL) and "654321" not in replay_text(round_two, TERMINAL)


def test_the_terminal_names_a_channel_without_discord_marks() -> None:
    assert error_text(NotAPlayChannel((11,)), TERMINAL) == "Games are played in channel 11 on this server."


def test_a_wait_is_told_in_hours_and_minutes() -> None:
    assert [duration_text(s, DISCORD) for s in (30, 300, 12 * 3600, 3600 + 61)] == [
        "less than a minute", "5 min", "12 h 00 min", "1 h 01 min"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_come_plain_from_the_engine_and_bold_only_in_discord(name: str) -> None:
    title, rules = TITLES[name], str(describe_game(name))
    assert "**" not in rules and rules.startswith(title)
    assert rules_text(name, DISCORD).startswith(f"**{title}**")
    assert rules_text(name, TERMINAL) == rules


def test_a_watched_board_says_whose_it_is_and_how_it_stands() -> None:
    game = new_game("canfield", deal=1)
    game.play("d")
    reply = Reply(game_id=1, version=1, status=GameStatus.PLAYING, game=game, events=(Watching("Alice"),),
                  label=DealLabel(number=1))
    assert watched_text(reply, "<@1>", DISCORD) == (f"Watching <@1>'s Canfield, deal #1: score {game.score}, 1 move. "
                                                    "**Refresh** shows it as it stands.")
    daily = Reply(game_id=2, version=1, status=GameStatus.PLAYING, game=game, label=DealLabel(day="2024-05-08"))
    assert watched_text(daily, "<@1>", DISCORD).startswith("Watching <@1>'s Canfield, Daily · 2024-05-08: score")
    ended = Reply(game_id=1, version=2, status=GameStatus.RESIGNED, game=new_game("canfield", deal=1),
                  label=DealLabel(number=1))
    assert watched_text(ended, "Alice", TERMINAL).startswith("Watching Alice's Canfield, deal #1: score -12, 0 moves, "
                                                             "resigned. Refresh")


def test_a_shared_daily_card_shows_each_foundation_as_a_square_and_no_deal() -> None:
    assert [foundation_square(cards, 13) for cards in range(14)] == list("⬛🟥🟥🟥🟥🟧🟧🟧🟧🟨🟨🟨🟨🟩")
    share = DailyShare(player_id=1, day="2024-05-08", game="canfield", status="won", score=352, moves=87, hints=0,
                       foundations=(13, 13, 13, 13))
    assert share_text(share, "<@1>", DISCORD) == ("**Patient Exorcism** · daily Canfield · 2024-05-08\n"
                                                  "<@1>: won, score 352 in 87 moves\n"
                                                  "🟩🟩🟩🟩 52/52 cards home\n"
                                                  "No undo, no hints.")
    partial = DailyShare(player_id=1, day="2024-05-08", game="canfield", status="blocked", score=40, moves=120,
                         hints=3, foundations=(1, 6, 9, 0))
    assert share_text(partial, "Bob", TERMINAL).splitlines()[1:] == [
        "Bob: blocked, score 40 in 120 moves", "🟥🟧🟨⬛ 16/52 cards home", "No undo, 3 hints."]


# --- alt text ---------------------------------------------------------------------------------

def test_a_board_in_words_names_every_pile_with_the_cards_that_matter() -> None:
    assert board_alt_text(new_game("canfield", deal=1), DealLabel(number=1), DISCORD) == (
        "Canfield board, deal #1, score -12, unlimited redeals. Foundations: f1 empty (from the jack of clubs), "
        "f2 empty (from the jack of spades), f3 empty (from the jack of hearts), f4 jack of diamonds. "
        "Reserve: queen of clubs, 13 cards. Waste: empty. Stock: 34 cards. "
        "Column t1: king of spades. Column t2: 2 of spades. Column t3: 3 of hearts. Column t4: king of hearts.")
    patriarchs = board_alt_text(new_game("patriarchs", deal=1), DealLabel(number=1), DISCORD)
    assert "Reserve piles: r1 3 of diamonds" in patriarchs and "Waste: 8 of clubs. Stock: 86 cards." in patriarchs
    # A daily's board names its day, a round's its match, never their numbers.
    daily = board_alt_text(new_game("canfield", deal=1), DealLabel(day="2024-05-08"), DISCORD)
    assert daily.startswith("Canfield board, Daily · 2024-05-08, score -12,") and "#1" not in daily
    round_two = board_alt_text(new_game("canfield", deal=1), DealLabel(match_id=3, round=2), DISCORD)
    assert round_two.startswith("Canfield board, Match #3 · round 2, score -12,")


def test_a_status_line_and_the_image_name_a_daily_by_its_day_and_a_round_by_its_match() -> None:
    game = new_game("canfield", deal=123456)
    assert board_status(game, DealLabel(number=123456), DISCORD) == \
        "**Canfield** · deal #123456 · score -12 · stock 34 · unlimited redeals"
    assert board_status(game, DealLabel(day="2024-05-08"), DISCORD) == \
        "**Canfield** · Daily · 2024-05-08 · score -12 · stock 34 · unlimited redeals"
    assert board_status(game, DealLabel(match_id=3, round=2), TERMINAL) == \
        "Canfield · Match #3 · round 2 · score -12 · stock 34 · unlimited redeals"
    assert board_captions(game, DISCORD, DealLabel(number=123456)).deal == "#123456"
    assert board_captions(game, DISCORD, DealLabel(day="2024-05-08")).deal == "Daily · 2024-05-08"
    assert board_captions(game, DISCORD.speaking("fr"), DealLabel(match_id=3, round=2)).deal == \
        "Match n° 3 · manche 2"


def test_a_long_board_names_fewer_column_cards_to_fit_its_limit() -> None:
    for name in GAMES:  # every game, far into play: columns grow, foundations fill
        game, rng = new_game(name, deal=7), Random(7)
        for _ in range(150):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        text = board_alt_text(game, DealLabel(number=7), DISCORD)
        assert len(text) <= ALT_TEXT_LIMIT and "Foundations:" in text and "Stock:" in text, (name, len(text))
        assert all(f"Column {pile}:" in text for pile in game.piles() if pile.startswith("t")), name
    game = new_game("demons-and-thieves", deal=1)
    short = board_alt_text(game, DealLabel(number=1), DISCORD, limit=900)
    assert len(short) <= 900 and "Column t9: 8 face up, the top ones" in short and short.endswith(".")


def test_a_race_board_and_table_in_words() -> None:
    race = new_race(1, players=2)
    mine = race_board_alt_text(race, 0, "Alice", DISCORD)
    assert mine.startswith("Race board of Alice: 52 cards left. Shared foundations' tops: none yet.")
    columns = [sentence for sentence in mine.split(". ") if sentence.startswith("Column t")]
    assert len(columns) == 7 and columns[0] == "Column t1: " + card_words(race.piles(0)["t1"][-1], DISCORD)
    assert columns[6].startswith("Column t7: 6 face down, then ")  # Klondike columns: face down, then the top
    table = race_table_alt_text(race, ["Alice", "Bob"], DISCORD)
    assert table == ("Race table. Shared foundations' tops: none yet. Alice: 52 cards left, 0 on the "
                     "foundations; Bob: 52 cards left, 0 on the foundations.")


@pytest.mark.parametrize("language", ["de", "es_ES", "fr", "pt_BR"])
def test_a_patriarchs_text_board_names_its_foundation_rows_in_the_players_language(language: str) -> None:
    game = new_game("patriarchs", deal=3)
    english, translated = board_text(game, TERMINAL).splitlines(), board_text(game, TERMINAL.speaking(language))
    assert english[2].startswith("up from the ace:") and english[3].startswith("down from the king:")
    rows = translated.splitlines()
    assert "from the" not in translated and rows[2] != english[2] and rows[3] != english[3]
    assert rows[2].index("f1 ") == rows[3].index("f5 ")  # the two rows' piles start in one column


# --- names members chose, in Discord's markdown ---------------------------------------------------

# Display names and team names a member might choose to make the bot's text do something.
HOSTILE_NAMES = ("**b** ||s||", "__x__", "`code`", "> quote", "# heading", "@everyone", "@here", "<@123>",
                 "<@&150000000000000000>", "<#123456789012345678>", "[link](https://x)", "~~s~~ -# small",
                 "-# small", "1. list", ">>> all", "back\\slash", "a\nline", "é" * 33 + "x" * 200)
ESCAPED = re.compile(r"\\[!-/:-@\[-`{-~]")  # a backslash before ASCII punctuation: Discord shows the sign alone


def discord_shows(text: str) -> str:
    """What Discord shows of text whose markdown is escaped: each escaped sign without its
    backslash, no zero-width space."""
    return ESCAPED.sub(lambda sign: sign[0][1], text).replace("\u200b", "")


def live_markdown(text: str) -> list[str]:
    """What Discord would act on in a name's text, escaped signs aside: markdown, mentions, links,
    a line's start that makes a heading, a quote or a list."""
    bare = ESCAPED.sub("", text)
    found = [sign for sign in ("*", "_", "`", "|", "~", "[", "<", "://", "@everyone", "@here", "\n") if sign in bare]
    return found + (["a line's start"] if re.match(r"\s*(#|>|-|[0-9]+\.)", text) else [])


def left_raw(text: str, name: str, voice: Voice) -> bool:
    """Whether the name is in the text as it is, besides where it is written inert."""
    return name in text.replace(voice.name(name), "")


def test_a_name_is_written_inert_in_discord_shown_as_it_is_and_as_it_is_in_the_terminal() -> None:
    for name in HOSTILE_NAMES:
        written = DISCORD.name(name)
        one_line = " ".join(name.split())
        assert not live_markdown(written), (name, written, live_markdown(written))
        if len(one_line) <= LONGEST_NAME:
            assert discord_shows(written) == one_line, (name, written)
        else:  # cut before it is escaped: no escape is cut in two
            assert discord_shows(written) == one_line[:LONGEST_NAME - 1] + "…" and not written.endswith("\\…")
        assert TERMINAL.name(name) == name and DISCORD.plain().name(name) == name
    assert live_markdown("**b**") and live_markdown("<@123>") and live_markdown("# heading")  # the check checks
    assert DISCORD.name("Zoë") == "Zoë" and DISCORD.speaking("fr").name("**b**") == DISCORD.name("**b**")


@pytest.mark.parametrize("language", [ENGLISH, *LANGUAGES])
def test_every_name_words_set_in_markdown_is_inert_in_every_language(language: str) -> None:
    voice = DISCORD.speaking(language)
    for name in HOSTILE_NAMES:
        inert = voice.name(name)
        assert not live_markdown(inert)
        replay = Replay(game_id=9, player=Player(2, name), name="canfield", deal=17, status="won", score=352,
                        record={"moves": ["d"]}, label=DealLabel(number=17))
        caption = replay_text(replay, voice)
        assert voice.bold(inert) in caption and not left_raw(caption, name, voice), caption
        assert name in replay_text(replay, voice.plain())  # its alt text is not markdown: the name as it is
        scored = RoundScored(round=1, score=5, total=5, team=name, team_points=5, target=100, next_round=None)
        assert inert in said(scored, voice=voice) and not left_raw(said(scored, voice=voice), name, voice)
        for problem in (TeamProblem.IN_A_TEAM, TeamProblem.NAME_TAKEN, TeamProblem.NO_SUCH_TEAM):
            refused = error_text(TeamRefused(problem, name), voice)
            assert voice.name(repr(name)) in refused and not left_raw(refused, repr(name), voice), refused
        assert name in said(scored, voice=TERMINAL.speaking(language))  # the terminal's text is not markdown
