"""What a member reads of a server's settings: the settings in a sentence, and the refusals."""

from __future__ import annotations

from bot.languages import ENGLISH, LANGUAGE_CHOICES, LANGUAGE_NAMES
from bot.play.errors import BadSetting, ManageServerNeeded, NotAPlayChannel, PlayError, ServerLacksApp
from bot.play.settings import MAX_TARGET, PREFIX_LENGTH, ServerSettings
from bot.words.voice import Voice, die_text


def settings_text(settings: ServerSettings, voice: Voice) -> str:
    """The settings in a sentence, each value in bold, with the play channels as the front end
    shows channels (in Discord, links)."""
    _ = voice.gettext
    channels = ", ".join(map(voice.channel, sorted(settings.play_channels))) or _("every channel")
    undo = _("on") if settings.match_undo else _("off")
    language = LANGUAGE_NAMES[settings.language or ENGLISH]
    return _("Match target {target}, team target {team_target}, Die of Justice {die}, undo in matches {undo}, "
             "language {language}; play allowed in {channels}.", target=voice.bold(settings.target),
             team_target=voice.bold(settings.team_target_or_default), die=voice.bold(die_text(settings.die, voice)),
             undo=voice.bold(undo), language=voice.bold(language), channels=channels)


def settings_error_text(error: PlayError, voice: Voice) -> str:
    """What a member reads for a refusal of settings, or of what belongs to a server ("" for
    another PlayError)."""
    _ = voice.gettext
    match error:
        case BadSetting(name="target", value=value):
            return _("The target must be between 1 and {largest}, not {value}.", largest=MAX_TARGET, value=value)
        case BadSetting(name="team_target", value=value):
            return _("The team target must be between 1 and {largest}, not {value}.", largest=MAX_TARGET,
                     value=value)
        case BadSetting(name="die", value=value):
            return _("The die rule is off, game or pass, not {value}.", value=repr(value))
        case BadSetting(name="prefix"):
            return _("A prefix is 1 to {longest} characters, without spaces.", longest=PREFIX_LENGTH)
        case BadSetting(name="language", value=value):
            return _("Unknown language {value}; languages: {languages}.", value=repr(value),
                     languages=", ".join(LANGUAGE_CHOICES))
        case ManageServerNeeded(what="prefix"):
            return _("Only members with Manage Server can change the prefix.")
        case ManageServerNeeded():
            return _("Only members with Manage Server can change the settings.")
        case NotAPlayChannel(channel_ids=channel_ids):
            return _("Games are played in {channels} on this server.",
                     channels=", ".join(map(voice.channel, channel_ids)))
        case ServerLacksApp():
            return _("This works on a server that has added Patient Exorcism: ask its admins to add the bot. Solo "
                     "games ({play}) and the daily work anywhere.", play=voice.command("play"))
    return ""
