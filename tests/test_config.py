"""Configuration from the environment and .env."""

from __future__ import annotations

import gc
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from bot.app import GC_THRESHOLDS, event_loop_factory, tune_garbage_collection, write_health_file
from bot.config import ConfigError, health_file, load_config, read_env_file, shard_ranges
from bot.store import DEFAULT_DATABASE_URL, sqlite_path

ROOT = Path(__file__).resolve().parent.parent


def test_the_environment_wins_over_the_env_file(tmp_path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDISCORD_TOKEN='from-file'\nexport LOG_LEVEL=debug\n"
                        "DEV_GUILD_ID=42  # my server\n\nJUNK\n")
    assert read_env_file(env_file)["DISCORD_TOKEN"] == "from-file"
    config = load_config({"DISCORD_TOKEN": "from-env", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/"}, env_file)
    assert config.token == "from-env" and config.log_level == "DEBUG" and config.dev_guild_id == 42
    assert config.api_base == "http://127.0.0.1:9/api/v10" and config.database_url == DEFAULT_DATABASE_URL
    assert config.prefix == "!" and config.message_content is False and config.render_processes == 0
    assert load_config({"DISCORD_TOKEN": "x", "RENDER_PROCESSES": "2"}, tmp_path / "none.env").render_processes == 2
    assert config.start_processes is True  # the worker processes start with the bot unless told
    lazy = load_config({"DISCORD_TOKEN": "x", "START_PROCESSES": " OFF "}, tmp_path / "none.env")
    assert lazy.start_processes is False
    assert config.member_pace == 0.1  # a member's answers at least 0.1 s apart unless told
    assert load_config({"DISCORD_TOKEN": "x", "MEMBER_PACE": " 0.25 "}, tmp_path / "none.env").member_pace == 0.25
    assert load_config({"DISCORD_TOKEN": "x", "MEMBER_PACE": "0"}, tmp_path / "none.env").member_pace == 0
    assert "from-env" not in repr(config)  # the token is never shown


@pytest.mark.parametrize(("environ", "message"), [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a server id"),
    ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be"),
    ({"DISCORD_TOKEN": "x", "RENDER_PROCESSES": "-1"}, "RENDER_PROCESSES must be a number from 0 to 64, not '-1'"),
    ({"DISCORD_TOKEN": "x", "RENDER_PROCESSES": "many"}, "RENDER_PROCESSES must be a number from 0 to 64, not 'many'"),
    ({"DISCORD_TOKEN": "x", "RENDER_PROCESSES": "65"}, "RENDER_PROCESSES must be a number from 0 to 64"),
    ({"DISCORD_TOKEN": "x", "START_PROCESSES": "later"}, "START_PROCESSES must be on or off, not 'later'"),
    ({"DISCORD_TOKEN": "x", "MEMBER_PACE": "-0.1"}, "MEMBER_PACE must be a number of seconds from 0 to 5, not '-0.1'"),
    ({"DISCORD_TOKEN": "x", "MEMBER_PACE": "fast"}, "MEMBER_PACE must be a number of seconds from 0 to 5, not 'fast'"),
    ({"DISCORD_TOKEN": "x", "MEMBER_PACE": "nan"}, "MEMBER_PACE must be a number of seconds"),
    ({"DISCORD_TOKEN": "x", "MEMBER_PACE": "6"}, "MEMBER_PACE must be a number of seconds"),
])
def test_bad_settings_are_one_clear_line(tmp_path, environ: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as error:
        load_config(environ, tmp_path / "missing.env")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("count", "ids", "expected"), [
    ("", "", (None, None)),
    ("4", "", (4, None)),
    (" 2 ", "1", (2, (1,))),
    ("8", "6, 0-3", (8, (0, 1, 2, 3, 6))),
    ("8", "2-2,1,2", (8, (1, 2))),
    ("16", "8 - 15", (16, tuple(range(8, 16)))),
])
def test_shards_come_from_shard_count_and_shard_ids(tmp_path, count: str, ids: str, expected: tuple) -> None:
    config = load_config({"DISCORD_TOKEN": "x", "SHARD_COUNT": count, "SHARD_IDS": ids}, tmp_path / "missing.env")
    assert (config.shard_count, config.shard_ids) == expected


def test_shards_without_settings_are_left_to_discord(tmp_path) -> None:
    config = load_config({"DISCORD_TOKEN": "x"}, tmp_path / "missing.env")
    assert config.shard_count is None and config.shard_ids is None


@pytest.mark.parametrize(("count", "ids", "message"), [
    ("", "0", "SHARD_IDS='0' needs SHARD_COUNT"),
    ("0", "", "SHARD_COUNT must be a positive whole number, not '0'"),
    ("-2", "", "SHARD_COUNT must be a positive whole number, not '-2'"),
    ("two", "", "SHARD_COUNT must be a positive whole number, not 'two'"),
    ("²", "", "SHARD_COUNT must be a positive whole number"),
    ("2", "2", "SHARD_IDS '2' is out of range: with SHARD_COUNT=2 the shards are 0 to 1"),
    ("4", "0-4", "SHARD_IDS '0-4' is out of range"),
    ("4", "3-1", "SHARD_IDS range '3-1' runs backwards"),
    ("4", "0,,1", "SHARD_IDS must be shard numbers and ranges such as 0-3,6, not '0,,1'"),
    ("4", "0,1,", "SHARD_IDS must be shard numbers"),
    ("4", "a-b", "SHARD_IDS must be shard numbers"),
    ("4", "-1", "SHARD_IDS must be shard numbers"),
    ("4", "0-", "SHARD_IDS must be shard numbers"),
])
def test_bad_shard_settings_are_one_clear_line(tmp_path, count: str, ids: str, message: str) -> None:
    environ = {"DISCORD_TOKEN": "x", "SHARD_COUNT": count, "SHARD_IDS": ids}
    with pytest.raises(ConfigError, match=re.escape(message)) as error:
        load_config(environ, tmp_path / "missing.env")
    assert "\n" not in str(error.value)


def test_shards_can_come_from_the_env_file(tmp_path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("SHARD_COUNT=4\nSHARD_IDS=2-3\n")
    config = load_config({"DISCORD_TOKEN": "x"}, env_file)
    assert (config.shard_count, config.shard_ids) == (4, (2, 3))


@pytest.mark.parametrize(("ids", "text"), [((0,), "0"), ((0, 1, 2, 3, 6), "0-3,6"), ((1, 3, 4, 9), "1,3-4,9")])
def test_shard_ranges_are_written_as_shard_ids_takes_them(ids: tuple[int, ...], text: str) -> None:
    assert shard_ranges(ids) == text


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "data/patient-exorcism.alive"),
    ({"DATABASE_URL": "sqlite:////srv/pe/games.sqlite3"}, "/srv/pe/patient-exorcism.alive"),
    ({"DATABASE_URL": "/srv/pe/games.sqlite3"}, "/srv/pe/patient-exorcism.alive"),
    ({"DATABASE_URL": "postgresql://pe@db/pe"}, "patient-exorcism.alive"),
    ({"DATABASE_URL": "sqlite:////srv/pe/games.sqlite3", "HEALTH_FILE": "/run/pe.alive"}, "/run/pe.alive"),
])
def test_the_health_file_is_beside_the_data_unless_health_file_says(tmp_path, environ: dict, expected: str) -> None:
    assert str(health_file(environ, tmp_path / "none.env")) == expected
    assert load_config({"DISCORD_TOKEN": "x", **environ}, tmp_path / "none.env").health_file == expected


def test_the_health_file_replaces_a_planted_link_and_never_writes_through_it(tmp_path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    path = tmp_path / "data" / "patient-exorcism.alive"
    path.parent.mkdir()
    path.symlink_to(victim)
    write_health_file(path)
    assert victim.read_text() == "precious\n"
    assert not path.is_symlink() and path.read_text().strip().isdigit()
    write_health_file(path)  # and again over its own file, leaving no temporary file behind
    assert sorted(p.name for p in path.parent.iterdir()) == ["patient-exorcism.alive"]


def dockerfile_settings(text: str) -> tuple[dict[str, str], list[str]]:
    """The ENV settings and VOLUME folders a Dockerfile gives its image."""
    settings: dict[str, str] = {}
    volumes: list[str] = []
    for instruction in text.replace("\\\n", " ").splitlines():
        word, _, rest = instruction.strip().partition(" ")
        if word == "ENV":
            settings.update(pair.split("=", 1) for pair in shlex.split(rest))
        elif word == "VOLUME":
            volumes += json.loads(rest)
    return settings, volumes


def test_the_documented_docker_recipe_keeps_the_data_and_health_file_on_the_volume(tmp_path) -> None:
    image, volumes = dockerfile_settings((ROOT / "Dockerfile").read_text())
    env_file = tmp_path / ".env"  # docker run --env-file .env, .env copied from .env.example
    env_file.write_text((ROOT / ".env.example").read_text().replace("DISCORD_TOKEN=", "DISCORD_TOKEN=secret"))
    environment = {**image, **read_env_file(env_file)}  # --env-file wins over the image's ENV
    config = load_config(environment, tmp_path / "none.env")
    database = sqlite_path(config.database_url)
    assert volumes == ["/data"] and database is not None and database.is_absolute()
    assert database.parent == Path("/data") and Path(config.health_file).parent == Path("/data")
    assert config.token == "secret" and environment.get("HEALTH_FILE", "") == ""


def test_the_bot_runs_on_uvloop_where_it_is_installed_and_on_asyncio_without(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        import uvloop
    except ImportError:
        assert event_loop_factory() is None
    else:
        assert event_loop_factory() is uvloop.new_event_loop
    monkeypatch.setitem(sys.modules, "uvloop", None)  # not installed: asyncio's own loop
    assert event_loop_factory() is None


def test_once_set_up_the_bot_sets_its_objects_aside_from_the_garbage_collector() -> None:
    thresholds = gc.get_threshold()
    try:
        tune_garbage_collection()
        assert gc.get_freeze_count() > 1000  # the modules' objects, at least
        assert gc.get_threshold() == GC_THRESHOLDS and GC_THRESHOLDS[0] > thresholds[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_the_web_table_is_off_without_a_port_and_its_address_is_https_or_local() -> None:
    base = {"DISCORD_TOKEN": "t"}
    off = load_config(base, env_file=Path("/nonexistent"))
    assert (off.web_port, off.public_url) == (None, None)
    local = load_config({**base, "WEB_PORT": "8080"}, env_file=Path("/nonexistent"))
    assert (local.web_port, local.public_url) == (8080, "http://127.0.0.1:8080")
    public = load_config({**base, "WEB_PORT": "8080", "PUBLIC_URL": "https://table.example.org/"},
                         env_file=Path("/nonexistent"))
    assert public.public_url == "https://table.example.org"
    for bad in ({"WEB_PORT": "http"}, {"WEB_PORT": "70000"}, {"PUBLIC_URL": "https://x.org"},
                {"WEB_PORT": "8080", "PUBLIC_URL": "http://table.example.org"},
                {"WEB_PORT": "8080", "PUBLIC_URL": "ftp://x"}):
        with pytest.raises(ConfigError):
            load_config({**base, **bad}, env_file=Path("/nonexistent"))


def test_the_activitys_client_secret_is_read_and_never_shown() -> None:
    base = {"DISCORD_TOKEN": "t", "WEB_PORT": "8080"}
    assert load_config(base, env_file=Path("/nonexistent")).client_secret is None
    config = load_config({**base, "DISCORD_CLIENT_SECRET": " s3cret-value "}, env_file=Path("/nonexistent"))
    assert config.client_secret == "s3cret-value" and "s3cret-value" not in repr(config)
