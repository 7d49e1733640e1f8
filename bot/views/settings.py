"""A server's settings as its members read them in Discord."""

from __future__ import annotations

from bot.languages import ENGLISH, LANGUAGE_NAMES
from bot.play.settings import ServerSettings
from bot.words import Voice, die_text


def settings_text(settings: ServerSettings, voice: Voice) -> str:
    """The settings in a sentence, with the play channels as channel links."""
    _ = voice.gettext
    channels = ", ".join(f"<#{c}>" for c in sorted(settings.play_channels)) or _("every channel")
    undo = _("on") if settings.match_undo else _("off")
    language = LANGUAGE_NAMES[settings.language or ENGLISH]
    return _("Match target **{target}**, team target **{team_target}**, Die of Justice **{die}**, undo in matches "
             "**{undo}**, language **{language}**; play allowed in {channels}.", target=settings.target,
             team_target=settings.team_target_or_default, die=die_text(settings.die, voice),
             undo=undo, language=language, channels=channels)
