"""The committed bundle bot/web/static/activity.js is what `make bundle` makes of its sources
(web/activity: main.js, and the SDK and esbuild at the versions package-lock.json pins), byte for
byte: rebuilt in a copy of the sources, where node and npm are present (CI has only Python: it skips)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("package.json", "package-lock.json", "main.js")
OFFLINE = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET")  # npm cannot reach its registry


def test_the_committed_activity_bundle_is_made_from_its_sources(tmp_path: Path) -> None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the Activity's bundle is not rebuilt")
    here = tmp_path / "web" / "activity"
    here.mkdir(parents=True)
    for name in SOURCES:
        shutil.copy(ROOT / "web" / "activity" / name, here / name)
    (tmp_path / "bot" / "web" / "static").mkdir(parents=True)
    installed = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"], cwd=here,
                               capture_output=True, text=True, timeout=300)
    if installed.returncode != 0 and any(code in installed.stderr for code in OFFLINE):
        pytest.skip("npm cannot reach its registry: the Activity's bundle is not rebuilt")
    assert installed.returncode == 0, installed.stderr
    subprocess.run(["npm", "run", "--silent", "bundle"], cwd=here, check=True, capture_output=True, timeout=120)
    rebuilt = (tmp_path / "bot" / "web" / "static" / "activity.js").read_bytes()
    committed = (ROOT / "bot" / "web" / "static" / "activity.js").read_bytes()
    assert rebuilt == committed, "bot/web/static/activity.js is not made from web/activity: run `make bundle`"
