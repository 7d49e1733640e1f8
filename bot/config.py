"""Configuration from the environment, or from a `.env` file beside the working directory.

Every setting is listed in `.env.example`. The token is never logged or printed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.store import DEFAULT_DATABASE_URL, sqlite_path

HEALTH_FILE_NAME = "patient-exorcism.alive"
DEFAULT_HEALTH_FILE = str((sqlite_path(DEFAULT_DATABASE_URL) or Path()).parent / HEALTH_FILE_NAME)  # beside the data
MAX_RENDER_PROCESSES = 64
# The shortest time between the ends of two answers to one member (bot.views.respond `in_turn`):
# faster than anyone clicks, and it keeps one member's spam (answered at once, each refused
# cheaply) from taking the bot.
DEFAULT_MEMBER_PACE = 0.1
MAX_MEMBER_PACE = 5.0
HEALTHY_WITHIN = 120.0  # seconds: a connected bot touches its health file every 30
NUMBER = re.compile(r"[0-9]+")
SHARD_RANGE = re.compile(r"(?P<first>[0-9]+)(?:\s*-\s*(?P<last>[0-9]+))?")


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
    shard_count: int | None = None  # None: as many shards as Discord recommends, all in this process
    shard_ids: tuple[int, ...] | None = None  # None: every shard 0..shard_count-1 in this process
    render_processes: int = 0  # boards drawn in this many worker processes; 0: in threads
    start_processes: bool = True  # the search, verdict and drawing processes start with the bot, not at first use
    member_pace: float = DEFAULT_MEMBER_PACE  # seconds at least between the ends of two answers to one member
    web_port: int | None = None  # the web table's port (bot/web); None: no web server
    public_url: str | None = None  # the address players reach it at (https://..., or http on this machine)
    client_secret: str | None = field(default=None, repr=False)  # the OAuth2 secret the table as an Activity needs


def read_env_file(path: Path) -> dict[str, str]:
    """The KEY=VALUE settings of a .env file (python-dotenv's reading: comments, quotes, `export`);
    nothing when there is no such file."""
    if not path.is_file():
        return {}
    return {key: value for key, value in dotenv_values(path, encoding="utf-8").items() if value is not None}


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
    shard_count, shard_ids = read_shards(settings.get("SHARD_COUNT", ""), settings.get("SHARD_IDS", ""))
    processes = settings.get("RENDER_PROCESSES", "").strip() or "0"
    if not processes.isdigit() or not 0 <= int(processes) <= MAX_RENDER_PROCESSES:
        raise ConfigError(f"RENDER_PROCESSES must be a number from 0 to {MAX_RENDER_PROCESSES}, not {processes!r}.")
    start = settings.get("START_PROCESSES", "").strip().lower() or "on"
    if start not in ("on", "off"):
        raise ConfigError(f"START_PROCESSES must be on or off, not {start!r}.")
    pace = settings.get("MEMBER_PACE", "").strip() or str(DEFAULT_MEMBER_PACE)
    try:
        member_pace = float(pace)
    except ValueError:
        member_pace = -1.0
    if not 0 <= member_pace <= MAX_MEMBER_PACE:
        raise ConfigError(f"MEMBER_PACE must be a number of seconds from 0 to {MAX_MEMBER_PACE:g}, not {pace!r}.")
    web_port, public_url = read_web(settings.get("WEB_PORT", ""), settings.get("PUBLIC_URL", ""))
    return Config(
        token=token,
        database_url=settings.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
        dev_guild_id=int(guild) if guild else None,
        api_base=settings.get("DISCORD_API_BASE", "").strip().rstrip("/") or None,
        log_level=level,
        prefix=settings.get("COMMAND_PREFIX", "!").strip() or "!",
        message_content=settings.get("MESSAGE_CONTENT", "").strip().lower() in ("1", "true", "yes", "on"),
        health_file=str(_health_file(settings)),
        shard_count=shard_count,
        shard_ids=shard_ids,
        render_processes=int(processes),
        start_processes=start == "on",
        member_pace=member_pace,
        web_port=web_port,
        public_url=public_url,
        client_secret=settings.get("DISCORD_CLIENT_SECRET", "").strip() or None,
    )


def read_web(port_text: str, url_text: str) -> tuple[int | None, str | None]:
    """WEB_PORT and PUBLIC_URL: no web server without a port; with one, the public address
    (default http://127.0.0.1:<port>, for trying it out on this machine). ConfigError for a port
    that is not one, or an address that is neither https nor plain http on this machine."""
    port_text, url = port_text.strip(), url_text.strip().rstrip("/")
    if not port_text:
        if url:
            raise ConfigError("PUBLIC_URL is set but WEB_PORT is not: set the port the web table listens on.")
        return None, None
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(f"WEB_PORT must be a port number from 1 to 65535, not {port_text!r}.")
    port = int(port_text)
    url = url or f"http://127.0.0.1:{port}"
    local = url.startswith(("http://127.0.0.1", "http://localhost", "http://[::1]"))
    if not (url.startswith("https://") or local) or any(c.isspace() for c in url):
        raise ConfigError(f"PUBLIC_URL must be an https:// address (or http:// on 127.0.0.1 or localhost), "
                          f"not {url!r}.")
    return port, url


def read_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS as (count, ids): ids like `0-3,6`, sorted, each below the count.
    Count without ids means every shard; neither means discord.py asks Discord. ConfigError when wrong."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError(f"SHARD_IDS={ids_text!r} needs SHARD_COUNT, the total number of shards "
                              "across every process.")
        return None, None
    if not NUMBER.fullmatch(count_text) or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a positive whole number, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: set[int] = set()
    for part in ids_text.split(","):
        found = SHARD_RANGE.fullmatch(part.strip())
        if found is None:
            raise ConfigError(f"SHARD_IDS must be shard numbers and ranges such as 0-3,6, not {ids_text!r}.")
        first = int(found["first"])
        last = int(found["last"] or first)
        if first > last:
            raise ConfigError(f"SHARD_IDS range {part.strip()!r} runs backwards: write {last}-{first}.")
        if last >= count:
            raise ConfigError(f"SHARD_IDS {part.strip()!r} is out of range: with SHARD_COUNT={count} the shards "
                              f"are 0 to {count - 1}.")
        ids.update(range(first, last + 1))
    return count, tuple(sorted(ids))


def shard_ranges(ids: tuple[int, ...]) -> str:
    """Shard ids written as SHARD_IDS takes them: (0, 1, 2, 3, 6) is `0-3,6`."""
    runs: list[list[int]] = []
    for shard in sorted(ids):
        if runs and shard == runs[-1][1] + 1:
            runs[-1][1] = shard
        else:
            runs.append([shard, shard])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def health_file(environ: Mapping[str, str] | None = None, env_file: Path = Path(".env")) -> Path:
    """The health file the bot touches while connected, without needing a token: HEALTH_FILE, or
    by default beside the data (in the SQLite file's folder; with PostgreSQL, the working folder)."""
    return _health_file({**read_env_file(env_file), **(os.environ if environ is None else environ)})


def health_url(environ: Mapping[str, str] | None = None, env_file: Path = Path(".env")) -> str | None:
    """The running bot's /healthz on this machine, without needing a token: at WEB_PORT on
    127.0.0.1; None when WEB_PORT is unset (no web server). ConfigError as `read_web` says."""
    settings = {**read_env_file(env_file), **(os.environ if environ is None else environ)}
    port, _ = read_web(settings.get("WEB_PORT", ""), settings.get("PUBLIC_URL", ""))
    return None if port is None else f"http://127.0.0.1:{port}/healthz"


def _health_file(settings: Mapping[str, str]) -> Path:
    chosen = settings.get("HEALTH_FILE", "").strip()
    if chosen:
        return Path(chosen)
    database = sqlite_path(settings.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL)
    return Path(HEALTH_FILE_NAME) if database is None else database.parent / HEALTH_FILE_NAME
