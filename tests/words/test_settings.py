"""A server's settings as Discord shows them, and as the terminal would."""

from __future__ import annotations

from bot.play.settings import ServerSettings
from bot.words import DISCORD, TERMINAL
from bot.words.settings import settings_text


def test_the_settings_read_as_a_sentence_with_channel_links() -> None:
    assert settings_text(ServerSettings(), DISCORD) == (
        "Match target **200**, team target **400**, Die of Justice **off**, undo in matches **off**, "
        "language **English**; play allowed in every channel.")
    chosen = ServerSettings(target=50, team_target=None, die="game", match_undo=True, play_channels=frozenset({9, 3}),
                            language="pt_BR")
    assert settings_text(chosen, DISCORD) == (
        "Match target **50**, team target **100**, Die of Justice **game**, undo in matches **on**, "
        "language **Português do Brasil**; play allowed in <#3>, <#9>.")
    assert settings_text(chosen, TERMINAL) == (
        "Match target 50, team target 100, Die of Justice game, undo in matches on, language Português do Brasil; "
        "play allowed in channel 3, channel 9.")
    assert settings_text(ServerSettings(), DISCORD.speaking("de")).startswith("Matchziel **200**, Teamziel **400**, ")
