"""Configuration from the environment and .env."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_config, read_env_file
from bot.store import DEFAULT_DATABASE_URL


def test_the_environment_wins_over_the_env_file(tmp_path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDISCORD_TOKEN='from-file'\nexport LOG_LEVEL=debug\nDEV_GUILD_ID=42\n\nJUNK\n")
    assert read_env_file(env_file)["DISCORD_TOKEN"] == "from-file"
    config = load_config({"DISCORD_TOKEN": "from-env", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/"}, env_file)
    assert config.token == "from-env" and config.log_level == "DEBUG" and config.dev_guild_id == 42
    assert config.api_base == "http://127.0.0.1:9/api/v10" and config.database_url == DEFAULT_DATABASE_URL
    assert config.prefix == "!" and config.message_content is False
    assert "from-env" not in repr(config)  # the token is never shown


@pytest.mark.parametrize(("environ", "message"), [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a server id"),
    ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be"),
])
def test_bad_settings_are_one_clear_line(tmp_path, environ: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as error:
        load_config(environ, tmp_path / "missing.env")
    assert "\n" not in str(error.value)
