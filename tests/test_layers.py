"""The layers keep to themselves: the play layer and the store are free of every presenter's
machinery (Discord, the catalogs, images, HTTP, the metrics), so that the terminal, the web page and the tests
use them without it (as the engine is: tests/test_engine_catalog.py)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import bot.play
import bot.store

ROOT = Path(__file__).resolve().parent.parent
PRESENTERS = ("discord", "babel", "PIL", "aiohttp", "prometheus_client")


def modules_of(package: object) -> list[str]:
    """Every module of a package, by name."""
    return [info.name for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")]  # type: ignore[attr-defined]


def test_importing_the_play_layer_and_the_store_loads_no_presenter() -> None:
    """All of them imported in one fresh interpreter: what one of them loads, the others would
    see, so a clean run means each is clean."""
    names = modules_of(bot.play) + [name for name in modules_of(bot.store) if ".alembic" not in name]
    assert "bot.play.secrecy" in names and "bot.store.databases" in names
    script = (f"import importlib, sys\nfor name in {names!r}:\n    importlib.import_module(name)\n"
              f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(PRESENTERS)!r}))")
    ran = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=True)
    assert ran.stdout.strip() == "[]", ran.stdout


def test_the_check_sees_a_presenter_loaded() -> None:
    script = f"import sys, bot.i18n\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & {set(PRESENTERS)!r}))"
    ran = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=True)
    assert ran.stdout.strip() == "['babel']"
