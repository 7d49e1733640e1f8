"""What a member reads of a server's settings: the settings in a sentence, and the refusals."""

from __future__ import annotations

from bot.game import TITLES
from bot.languages import ENGLISH, LANGUAGE_CHOICES, LANGUAGE_NAMES
from bot.play.errors import BadSetting, ManageServerNeeded, NotAPlayChannel, PlayError, ServerLacksApp
from bot.play.settings import MAX_TARGET, PREFIX_LENGTH, SEASONS, ServerSettings
from bot.words.voice import Voice, die_text
from render.captions import shorten


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
             undo=voice.bold(undo), language=voice.bold(language), channels=channels) + " " + ritual_settings_text(
                 settings, voice)


def ritual_settings_text(settings: ServerSettings, voice: Voice) -> str:
    """The time zone, the seasons and the daily post, in a sentence or two."""
    _ = voice.gettext
    seasons = {"month": _("a month"), "week": _("a week"), "quarter": _("a quarter")}[settings.season]
    text = _("Time zone {timezone}; a season lasts {season}.", timezone=voice.bold(settings.timezone),
             season=voice.bold(seasons))
    if settings.daily_channel is None:
        return text + " " + _("The daily is not posted: {setting} sets a channel for it.",
                              setting=voice.command("settings daily_channel"))
    where = dict(game=voice.bold(TITLES.get(settings.daily_game, settings.daily_game)),
                 channel=voice.channel(settings.daily_channel), hour=voice.bold(f"{settings.daily_hour:02d}:00"))
    if not settings.daily_on:
        return text + " " + _("The daily post ({game} in {channel} at {hour}) is turned off.", **where)
    if settings.daily_role is None:
        return text + " " + _("The daily of {game} is posted in {channel} every day at {hour}, mentioning nobody.",
                              **where)
    return text + " " + _("The daily of {game} is posted in {channel} every day at {hour}, mentioning {role}.",
                          role=voice.role(settings.daily_role), **where)


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
        case BadSetting(name="timezone", value=value):
            return _("Unknown time zone {value}: give an IANA name such as Europe/Paris or America/New_York.",
                     value=repr(shorten(str(value), 40)))
        case BadSetting(name="season", value=value):
            return _("A season is a {choices}, not {value}.", choices=" / ".join(SEASONS), value=repr(value))
        case BadSetting(name="daily_hour", value=value):
            return _("The hour of the daily post is 0 to 23, not {value}.", value=value)
        case BadSetting(name="daily_game", value=value):
            return _("Unknown game {value}.", value=repr(shorten(str(value), 40)))
        case BadSetting(name="daily_post", value=value):
            return _("The daily post is on, off or quiet, not {value}.", value=repr(value))
        case BadSetting(name="remind", value=value):
            return _("A reminder is on or off, not {value}.", value=repr(shorten(str(value), 40)))
        case BadSetting(name="daily_role"):
            return _("The daily post mentions a role members chose to take, not @everyone.")
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
