"""A server's settings as Discord shows them, and as the terminal would."""

from __future__ import annotations

from bot.play.settings import ServerSettings
from bot.words import DISCORD, TERMINAL
from bot.words.settings import settings_text


def test_the_settings_read_as_a_sentence_with_channel_links() -> None:
    assert settings_text(ServerSettings(), DISCORD) == (
        "Match target **200**, team target **400**, Die of Justice **off**, undo in matches **off**, "
        "language **English**; play allowed in every channel. Time zone **UTC**; a season lasts **a month**. "
        "The daily is not posted: /settings daily_channel sets a channel for it.")
    chosen = ServerSettings(target=50, team_target=None, die="game", match_undo=True, play_channels=frozenset({9, 3}),
                            language="pt_BR")
    assert settings_text(chosen, DISCORD) == (
        "Match target **50**, team target **100**, Die of Justice **game**, undo in matches **on**, "
        "language **Português do Brasil**; play allowed in <#3>, <#9>. Time zone **UTC**; a season lasts **a month**. "
        "The daily is not posted: /settings daily_channel sets a channel for it.")
    assert settings_text(chosen, TERMINAL) == (
        "Match target 50, team target 100, Die of Justice game, undo in matches on, language Português do Brasil; "
        "play allowed in channel 3, channel 9. Time zone UTC; a season lasts a month. "
        "The daily is not posted: settings daily_channel sets a channel for it.")
    assert settings_text(ServerSettings(), DISCORD.speaking("de")).startswith("Matchziel **200**, Teamziel **400**, ")


def test_the_daily_post_and_time_zone_read_in_the_settings() -> None:
    posted = ServerSettings(timezone="Europe/Paris", season="week", daily_channel=4, daily_hour=7,
                            daily_game="patriarchs", daily_role=11)
    assert settings_text(posted, DISCORD).endswith(
        "Time zone **Europe/Paris**; a season lasts **a week**. The daily of **Patriarchs** is posted in <#4> "
        "every day at **07:00**, mentioning <@&11>.")
    quiet = ServerSettings(daily_channel=4, daily_hour=21)
    assert settings_text(quiet, DISCORD).endswith("is posted in <#4> every day at **21:00**, mentioning nobody.")
    off = ServerSettings(daily_channel=4, daily_on=False)
    assert settings_text(off, DISCORD).endswith("The daily post (**Canfield** in <#4> at **09:00**) is turned off.")
    assert "Zeitzone **UTC**" in settings_text(ServerSettings(), DISCORD.speaking("de"))
