"""Configuration from the environment, or from a `.env` file beside the working directory.

Every setting is listed in `.env.example`. The token is never logged or printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.store import DEFAULT_DATABASE_URL

DEFAULT_HEALTH_FILE = "/tmp/patient-exorcism.alive"
HEALTHY_WITHIN = 120.0  # seconds: a connected bot touches its health file every 30


class ConfigError(Exception):
    """A setting that is missing or wrong; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Config:
    """The bot's settings."""

    token: str = field(repr=False)
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    api_base: str | None = None
    log_level: str = "INFO"
    prefix: str = "!"
    message_content: bool = False
    health_file: str = DEFAULT_HEALTH_FILE


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file; blank lines and # comments are skipped, quotes removed."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def load_config(environ: Mapping[str, str] | None = None, env_file: Path = Path(".env")) -> Config:
    """The settings: the environment first, then the .env file. ConfigError when one is wrong."""
    settings = {**read_env_file(env_file), **(os.environ if environ is None else environ)}
    token = settings.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("DISCORD_TOKEN is not set: put the bot's token in the environment or in .env "
                          "(see .env.example).")
    guild = settings.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
    level = settings.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
    return Config(
        token=token,
        database_url=settings.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
        dev_guild_id=int(guild) if guild else None,
        api_base=settings.get("DISCORD_API_BASE", "").strip().rstrip("/") or None,
        log_level=level,
        prefix=settings.get("COMMAND_PREFIX", "!").strip() or "!",
        message_content=settings.get("MESSAGE_CONTENT", "").strip().lower() in ("1", "true", "yes", "on"),
        health_file=settings.get("HEALTH_FILE", "").strip() or DEFAULT_HEALTH_FILE,
    )


def health_file(environ: Mapping[str, str] | None = None, env_file: Path = Path(".env")) -> Path:
    """The health file the bot touches while connected (HEALTH_FILE), without needing a token."""
    settings = {**read_env_file(env_file), **(os.environ if environ is None else environ)}
    return Path(settings.get("HEALTH_FILE", "").strip() or DEFAULT_HEALTH_FILE)
