"""The words of a match's public message and of a server's team list (the play layer gives data)."""

from __future__ import annotations

from bot.languages import ENGLISH, LANGUAGES
from bot.play.matches import Scoreboard, Standing, TeamRoster
from bot.store.base import Match
from bot.words import DISCORD, TERMINAL
from bot.words.matches import (
    joined_for_team_text,
    joined_text,
    match_won_text,
    scoreboard_text,
    started_text,
    team_done_text,
    team_list_text,
)
from tests.test_words import HOSTILE_NAMES, left_raw


def a_match(status: str, *, teams: bool = False) -> Match:
    return Match(id=7, guild_id=1, channel_id=2, host_id=3, game="canfield", options={"die": "game"}, target=100,
                 teams=teams, undo=False, seed=1, status=status, message_id=None, winner_user_id=None,
                 winner_team_id=None, created_at=0.0, started_at=None, finished_at=None, last_activity=0.0)


def test_a_running_scoreboard_names_the_leader_and_a_finished_one_the_winner() -> None:
    alice, bob = Standing(3, "Alice", 352, 1), Standing(4, "Bob", -12, 2)
    running = scoreboard_text(Scoreboard(a_match("running"), [], [alice, bob]), DISCORD)
    assert running.splitlines() == [
        "**Canfield match #7**: first to **100** points · Die of Justice game · undo off",
        "Playing: round after round at your own pace. **My board** shows your round.",
        "` 1.` **Alice**: 352 points, 1 round ◀ leads",
        "` 2.` **Bob**: -12 points, 2 rounds",
    ]
    finished = scoreboard_text(Scoreboard(a_match("finished"), [], [alice, bob], winner=alice), DISCORD)
    assert finished.splitlines()[1] == "Finished." and finished.endswith("🏆 **Alice** exorcised the demon.")
    lobby = scoreboard_text(Scoreboard(a_match("lobby", teams=True), [], []), DISCORD)
    assert lobby.splitlines()[1:] == ["Waiting for players: press **Join**; the host presses **Start**.",
                                      "No players yet."] and "team match #7" in lobby


def test_the_team_list_has_a_line_a_team() -> None:
    assert team_list_text([], DISCORD) == "No teams yet: /team create one."
    assert team_list_text([TeamRoster("Red", ("Alice", "Bob")), TeamRoster("Blue", ("Carol",))], DISCORD) == \
        "**Red**: Alice, Bob\n**Blue**: Carol"


def test_names_on_a_scoreboard_and_the_team_list_are_inert_in_every_language() -> None:
    for language in (ENGLISH, *LANGUAGES):
        voice = DISCORD.speaking(language)
        for name in HOSTILE_NAMES:
            team, member = Standing(1, name, 352, 1, members=(name, "Bob")), Standing(4, "Bob", -12, 2)
            texts = [scoreboard_text(Scoreboard(a_match("finished", teams=True), [], [team, member], winner=team),
                                     voice),
                     team_list_text([TeamRoster(name, (name, "Carol"))], voice)]
            for text in texts:
                assert text.count(voice.name(name)) >= 2 and not left_raw(text, name, voice), (language, text)
            assert texts[1] == f"**{voice.name(name)}**: {voice.name(name)}, Carol"


def test_the_bold_is_set_around_the_translated_words_in_every_language() -> None:
    alice = Standing(3, "Alice", 352, 1)
    french = DISCORD.speaking("fr")
    lobby = scoreboard_text(Scoreboard(a_match("lobby"), [], []), french).splitlines()
    assert lobby[0] == ("**Match de Canfield #7** : le premier à **100** points · Dé de la Justice partie · "
                        "annulation désactivée")
    assert lobby[1] == "En attente de joueurs : appuyez sur **Rejoindre** ; l’hôte appuie sur **Lancer**."
    won = scoreboard_text(Scoreboard(a_match("finished"), [], [alice], winner=alice), DISCORD.speaking("de"))
    assert won.endswith("🏆 **Alice** hat den Dämon ausgetrieben.")
    assert joined_text(7, DISCORD.speaking("es_ES"), playing=False) == \
        "Te has unido al duelo #7. El anfitrión lo empieza; luego pulsa **Mi tablero**."
    assert started_text(7, DISCORD, playing=True) == \
        "Match #7 has started: here is your first round. Everyone else presses **My board**."
    assert started_text(7, TERMINAL, playing=True).endswith("Everyone else presses My board.")


def test_a_won_match_is_announced_with_the_winner_s_mention_or_their_team() -> None:
    alice = Standing(3, "Alice", 352, 1)
    assert match_won_text(Scoreboard(a_match("finished"), [], [alice], winner=alice), DISCORD) == \
        "**The demon is exorcised!** <@3> won match #7 with 352 points (target 100)."
    red = Standing(1, "Red", 400, 3, members=("Alice", "Bob"))
    assert match_won_text(Scoreboard(a_match("finished", teams=True), [], [red], winner=red), DISCORD) == \
        "**The demon is exorcised!** Team **Red** (Alice, Bob) won match #7 with 400 points (target 100)."
    assert match_won_text(Scoreboard(a_match("running"), [], [alice]), DISCORD) == ""


def test_a_team_s_name_in_a_team_answer_is_bold_and_inert_in_every_language() -> None:
    assert joined_for_team_text(7, "Red", DISCORD) == "You joined match #7 for team **Red**."
    assert team_done_text("create", "Red", DISCORD) == "You created team **Red**."
    assert team_done_text("leave", "Red", TERMINAL.speaking("pt_BR")) == "Você saiu da equipe Red."
    for language in (ENGLISH, *LANGUAGES):
        voice = DISCORD.speaking(language)
        for name in HOSTILE_NAMES:
            team = Standing(1, name, 400, 3, members=(name,))
            texts = [joined_for_team_text(7, name, voice), *(team_done_text(done, name, voice)
                                                             for done in ("create", "join", "leave")),
                     match_won_text(Scoreboard(a_match("finished", teams=True), [], [team], winner=team), voice)]
            for text in texts:
                assert voice.bold(voice.name(name)) in text and not left_raw(text, name, voice), (language, text)
