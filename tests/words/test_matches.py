"""The words of a match's public message and of a server's team list (the play layer gives data)."""

from __future__ import annotations

from bot.languages import ENGLISH, LANGUAGES
from bot.play.matches import Scoreboard, Standing, TeamRoster
from bot.store.base import Match
from bot.words import DISCORD
from bot.words.matches import scoreboard_text, team_list_text
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
