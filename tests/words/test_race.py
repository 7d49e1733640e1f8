"""The words of a race, as Discord shows them (the play layer gives events)."""

from __future__ import annotations

from bot.game import Card, IllegalMoveError, Move
from bot.game.moves import DRAW
from bot.game.race import new_race
from bot.languages import ENGLISH, LANGUAGES
from bot.play.events import (
    Beaten,
    Moved,
    NothingToDo,
    RaceCancelled,
    RaceEnded,
    RaceJoined,
    RaceOpened,
    RaceStarted,
    Refused,
    SeriesGoesOn,
    SeriesWon,
)
from bot.play.race import RaceReply
from bot.store.base import Race
from bot.words import DISCORD
from bot.words.race import public_text, race_text
from tests.test_words import HOSTILE_NAMES, left_raw


def test_a_race_is_told_with_mentions_and_markdown() -> None:
    assert race_text((RaceOpened(3),), DISCORD) == \
        "Race #3 is open: Join, then the host presses Start (2 to 8 players)."
    assert race_text((RaceJoined(3),), DISCORD) == "You are in race #3."
    assert race_text((RaceCancelled(3),), DISCORD) == "Race #3 is cancelled."
    assert race_text((Moved(played=(Move("t1", "f"), DRAW)),), DISCORD) == "Played t1f d."
    assert race_text((NothingToDo(),), DISCORD) == "Nothing could be played."
    assert race_text((Refused(IllegalMoveError("'t2t9' is not legal")),), DISCORD) == "'t2t9' is not legal"
    assert race_text((Beaten(Card.parse("2H"), "Bob"),), DISCORD) == \
        "Beaten to it! Bob got their 2H to that foundation first; your card stays where it was."
    assert race_text((RaceStarted(), RaceEnded(None, ((1, 0), (2, 0)))), DISCORD) == \
        "The race is on! Your cards are dealt. Nobody can move any more: the race is over. Scores: <@1> 0, <@2> 0."


def test_the_end_of_a_race_and_of_a_series() -> None:
    went_out = RaceEnded(1, ((1, 62), (2, 0)))
    assert race_text((went_out,), DISCORD) == "**Demon!** <@1> went out. Scores: <@1> 62, <@2> 0."
    assert race_text((RaceEnded(None, ((1, 1), (2, 0)), expired=True),), DISCORD) == \
        "Ended after 24 hours without a move. Scores: <@1> 1, <@2> 0."
    assert race_text((went_out, SeriesGoesOn(1, ((1, 62), (2, 0)), 100, 2)), DISCORD) == (
        "**Demon!** <@1> went out. Scores: <@1> 62, <@2> 0. Totals after hand 1: <@1> 62, <@2> 0 (target 100). "
        "Hand 2 is dealt: press **My board**.")
    assert race_text((SeriesWon(1, 124, 100, ((1, 124), (2, 0))),), DISCORD) == \
        "**The demon is exorcised!** <@1> wins the series with 124 points (target 100; <@1> 124, <@2> 0)."


def test_names_on_a_race_s_boards_are_inert_in_every_language() -> None:
    for language in (ENGLISH, *LANGUAGES):
        voice = DISCORD.speaking(language)
        for name in HOSTILE_NAMES:
            race = Race(id=3, guild_id=1, channel_id=2, host_id=1, layout="klondike", deal=1, status="finished",
                        moves=[], version=0, message_id=None, demon_user_id=None, players=[1, 2], scores=[0, 0],
                        created_at=0.0, started_at=0.0, finished_at=0.0)
            reply = RaceReply(race, new_race(1, players=2), None)
            text = public_text(reply, [name, "Bob"], voice)
            assert text.count(voice.name(name)) == 2 and not left_raw(text, name, voice), (language, text)
            assert f"<@1> ({voice.name(name)}): " in text
            beaten = race_text((Beaten(Card.parse("2H"), name),), voice)
            assert voice.name(name) in beaten and not left_raw(beaten, name, voice), beaten


def test_a_race_s_bold_and_mentions_are_the_voice_s_in_every_language() -> None:
    race = Race(id=3, guild_id=1, channel_id=2, host_id=1, layout="klondike", deal=1, status="lobby", moves=[],
                version=0, message_id=None, demon_user_id=None, players=[1, 2], scores=[0, 0], created_at=0.0,
                started_at=None, finished_at=None)
    french = DISCORD.speaking("fr")
    assert public_text(RaceReply(race, None, None), ["Alice", "Bob"], french) == (
        "**Course du démon n° 3** (dispositions Klondike) : <@1>, <@2> dans le salon. Rejoignez-la, puis l’hôte "
        "appuie sur Lancer.")
    assert race_text((RaceEnded(1, ((1, 62), (2, 0))),), DISCORD.speaking("de")) == \
        "**Dämon!** <@1> ist raus. Punkte: <@1> 62, <@2> 0."
    assert race_text((SeriesGoesOn(1, ((1, 62), (2, 0)), 100, 2),), french).endswith(
        "La manche 2 est distribuée : appuyez sur **Mon plateau**.")
