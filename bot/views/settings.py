"""A server's settings as its members read them in Discord."""

from __future__ import annotations

from bot.play.settings import ServerSettings


def settings_text(settings: ServerSettings) -> str:
    """The settings in a sentence, with the play channels as channel links."""
    channels = ", ".join(f"<#{c}>" for c in sorted(settings.play_channels)) or "every channel"
    return (f"Match target **{settings.target}**, team target **{settings.team_target_or_default}**, "
            f"Die of Justice **{settings.die}**, undo in matches **{'on' if settings.match_undo else 'off'}**; "
            f"play allowed in {channels}.")
