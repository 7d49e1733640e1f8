"""The Docker recipe, checked without Docker: the Dockerfile's stages and the order of their layers,
what .dockerignore leaves out of the build context, the pinned dependencies; and a run of the
image's layout as it runs: the installed package (laid out as its wheel installs it) started with
the final stage's command, environment and working directory imports the compiled C search."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import cache_from_source
from pathlib import Path, PurePosixPath

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.game.solver import NATIVE

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
IGNORED = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
           if line.strip() and not line.lstrip().startswith("#")]


@dataclass
class Stage:
    """One FROM of the Dockerfile: its base image and its instructions, (KEYWORD, arguments)."""

    image: str
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def run(self) -> list[str]:
        """The stage's RUN commands."""
        return [rest for word, rest in self.instructions if word == "RUN"]

    def settings(self) -> dict[str, str]:
        """The ENV settings the stage gives its image."""
        settings: dict[str, str] = {}
        for word, rest in self.instructions:
            if word == "ENV":
                for pair in shlex.split(rest):
                    name, _, value = pair.partition("=")
                    settings[name] = value
        return settings

    def last(self, keyword: str) -> str:
        """The arguments of the stage's last `keyword` instruction: the one in force."""
        return [rest for word, rest in self.instructions if word == keyword][-1]


def instructions(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (KEYWORD, arguments), with continued lines joined. Docker drops
    comment lines, inside a continued instruction too."""
    found: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        word, _, rest = (pending + stripped).partition(" ")
        found.append((word.upper(), rest.strip()))
        pending = ""
    return found


def stages(text: str) -> list[Stage]:
    """The Dockerfile's stages, their base images with the ARGs given before the first FROM filled in."""
    arguments: dict[str, str] = {}
    found: list[Stage] = []
    for word, rest in instructions(text):
        if word == "FROM":
            found.append(Stage(re.sub(r"\$\{(\w+)\}", lambda name: arguments[name[1]], rest.split()[0])))
        elif not found and word == "ARG":
            name, _, default = rest.partition("=")
            arguments[name] = default
        else:
            found[-1].instructions.append((word, rest))
    return found


def context_copy(word: str, rest: str) -> tuple[list[str], str] | None:
    """A COPY or ADD from the build context: (its sources, its destination); None for anything else
    (a COPY --from another stage among them)."""
    if word not in ("COPY", "ADD"):
        return None
    words = shlex.split(rest)
    if any(option.startswith("--from") for option in words):
        return None
    paths = [word for word in words if not word.startswith("--")]
    return paths[:-1], paths[-1]


def matches(pattern: list[str], parts: list[str]) -> bool:
    """Whether a .dockerignore pattern's segments match a path's, segment by segment from the
    context's root; ** matches any number of folders, none among them."""
    if not pattern:
        return not parts
    if pattern[0] == "**":
        return any(matches(pattern[1:], parts[start:]) for start in range(len(parts) + 1))
    return bool(parts) and fnmatchcase(parts[0], pattern[0]) and matches(pattern[1:], parts[1:])


def ignored(path: str) -> bool:
    """Whether `docker build` leaves the file `path` (relative to the context, with /) out of the
    context: the last .dockerignore pattern matching it or a folder holding it decides."""
    parts = PurePosixPath(path).parts
    verdict = False
    for pattern in IGNORED:
        segments = pattern.removeprefix("!").strip("/").split("/")
        if any(matches(segments, list(parts[:length])) for length in range(1, len(parts) + 1)):
            verdict = not pattern.startswith("!")
    return verdict


def build_context() -> list[str]:
    """The files of this checkout `docker build .` sends (relative paths, with /)."""
    files: list[str] = []
    for folder, folders, names in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT)
        folders[:] = [name for name in folders if not ignored((here / name).as_posix())]
        files += [path for name in names if not ignored(path := (here / name).as_posix())]
    return files


def install_package(site: Path) -> None:
    """Lay the project out in `site` as installing its wheel does, from this checkout: every module of
    the packages pyproject.toml finds, their package data and the compiled C search (built in the
    checkout for this Python). The Dockerfile's builder checks that its wheel holds that module."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    tops = [path for path in ROOT.iterdir() if path.is_dir()
            and any(fnmatchcase(path.name, pattern) for pattern in setuptools["packages"]["find"]["include"])]
    files = [path for top in tops for path in top.rglob("*.py") if "__pycache__" not in path.parts]
    for package, patterns in setuptools["package-data"].items():
        files += [path for pattern in patterns for path in (ROOT / package.replace(".", "/")).glob(pattern)]
    for module in setuptools["ext-modules"]:
        base = ROOT / module["name"].replace(".", "/")
        files += [path for suffix in EXTENSION_SUFFIXES if (path := base.with_name(base.name + suffix)).exists()]
    # With the modules' compiled bytecode where this checkout has it up to date, as pip compiles it at
    # install (a second less to start); copy2 keeps the times that tell Python it is up to date.
    files += [cached for path in files if path.suffix == ".py" and (cached := Path(cache_from_source(path))).exists()]
    for path in files:
        target = site / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


def replay_copy(sources: list[str], destination: str, target: Path) -> None:
    """Do what a COPY from the build context does, into `target` (the destination in the image):
    a folder's contents go into it, less what .dockerignore leaves out; a file into it when it is a
    folder (several sources, or a destination ending in /), else to it."""
    for source in sources:
        if (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, target, dirs_exist_ok=True, ignore=lambda folder, names: [
                name for name in names if ignored((Path(folder) / name).relative_to(ROOT).as_posix())])
        elif not ignored(source):
            into = len(sources) > 1 or destination.endswith("/")
            (target if into else target.parent).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / source, target / source.rsplit("/", 1)[-1] if into else target)


def test_the_image_is_built_in_two_stages_on_one_python_pinned_to_its_patch_release() -> None:
    builder, final = stages(DOCKERFILE)
    assert builder.image == final.image and re.fullmatch(r"python:\d+\.\d+\.\d+-slim-\w+", final.image)


def test_the_lock_pins_every_dependency_at_a_version_pyproject_allows() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    python = re.search(r"python:(\d+\.\d+)", stages(DOCKERFILE)[-1].image)
    assert python is not None
    lines = [line.strip() for line in (ROOT / "requirements.lock").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    pinned = {canonicalize_name(name): version for name, _, version in (line.partition("==") for line in lines)}
    assert all("==" in line for line in lines) and len(pinned) == len(lines)
    image = {"python_version": python[1], "sys_platform": "linux", "platform_machine": "x86_64"}
    for text in project["dependencies"] + project["optional-dependencies"]["speed"]:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate(image):
            assert requirement.specifier.contains(pinned[canonicalize_name(requirement.name)]), text


def test_the_builder_installs_gcc_and_the_dependencies_before_it_copies_the_source() -> None:
    """A change to the code or the README reinstalls neither gcc nor the dependencies."""
    builder = stages(DOCKERFILE)[0]
    copies = [(index, copy) for index, (word, rest) in enumerate(builder.instructions)
              if (copy := context_copy(word, rest))]
    source = min(index for index, (sources, _) in copies if sources != ["requirements.lock"])
    runs = [(index, rest) for index, (word, rest) in enumerate(builder.instructions) if word == "RUN"]
    gcc = next(index for index, run in runs if "apt-get install" in run and "gcc" in run)
    dependencies = next(index for index, run in runs if "-r requirements.lock" in run)
    assert gcc < source and dependencies < source
    assert {path for _, (sources, _) in copies for path in sources} >= {"pyproject.toml", "README.md", "bot", "render"}
    assert any("pip wheel" in run and "_solver_core" in run for index, run in runs if index > source)


def test_the_image_holds_no_compiler_and_no_source_and_runs_the_installed_bot() -> None:
    final = stages(DOCKERFILE)[-1]
    assert not [rest for word, rest in final.instructions if context_copy(word, rest)]
    assert not [run for run in final.run() if "gcc" in run or "apt-get" in run]
    installs = [run for run in final.run() if "pip install" in run]
    assert "requirements.lock" in installs[0] and "--no-deps" in installs[1] and ".whl" in installs[1]
    assert final.settings()["PYTHONSAFEPATH"] == "1" and final.last("WORKDIR") == "/data"
    assert final.last("USER") == "exorcist" and json.loads(final.last("CMD")) == ["python", "-m", "bot"]
    assert healthcheck(final) == ["python", "-m", "bot", "health"]


def test_the_build_context_leaves_out_build_leftovers_compiled_modules_and_caches() -> None:
    leftovers = ["build/lib.linux-x86_64-cpython-312/bot/game/_solver_core.cpython-312-x86_64-linux-gnu.so",
                 "bot/game/_solver_core.cpython-311-x86_64-linux-gnu.so", "patient_exorcism.egg-info/PKG-INFO",
                 "dist/patient_exorcism-0.1.0-cp312-cp312-linux_x86_64.whl", "bot/__pycache__/app.cpython-312.pyc",
                 "render/cards.pyc", ".venv/bin/python", "data/patient-exorcism.sqlite3", ".env", ".git/HEAD",
                 "tests/test_docker.py", "bot/game/build/x.so"]
    assert [path for path in leftovers if not ignored(path)] == []
    context = build_context()
    assert not [path for path in context if path.endswith((".so", ".pyc")) or "egg-info" in path]
    needed = ["pyproject.toml", "README.md", "requirements.lock", "bot/app.py", "bot/game/_solver_core.c",
              "bot/locales/de/LC_MESSAGES/bot.po", "bot/store/alembic/env.py"]
    assert set(needed) <= set(context)
    assert any(path.startswith("render/assets/") and path.endswith(".ttf") for path in context)


@pytest.mark.skipif(not NATIVE, reason="the C search is not built in this checkout (no C compiler at install)")
def test_the_image_layout_starts_the_installed_bot_with_the_c_search(tmp_path: Path) -> None:
    """The final stage replayed in a folder: its working directory with whatever it copies there from
    the build context (nothing), the package installed apart, its ENV and its CMD. The bot gets as
    far as logging in (to a closed port) and has logged that it searches in C, from the package."""
    final, root, site = stages(DOCKERFILE)[-1], tmp_path / "image", tmp_path / "site-packages"
    install_package(site)
    workdir = PurePosixPath("/")
    for word, rest in final.instructions:
        if word == "WORKDIR":
            workdir = workdir / rest
        elif copy := context_copy(word, rest):
            replay_copy(*copy, root / (workdir / copy[1]).relative_to("/"))
    (root / workdir.relative_to("/")).mkdir(parents=True, exist_ok=True)
    environment = {"PATH": os.environ["PATH"], **final.settings(), "PYTHONPATH": str(site),
                   # what `docker run --env-file .env` adds; the database kept off the real /data
                   "DISCORD_TOKEN": "token", "DISCORD_API_BASE": "http://127.0.0.1:0/api/v10",
                   "DATABASE_URL": f"sqlite:///{root}/data/patient-exorcism.sqlite3"}
    command = json.loads(final.last("CMD"))
    done = subprocess.run([sys.executable, *command[1:]], cwd=root / workdir.relative_to("/"), env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "The bot stopped: cannot reach 127.0.0.1:0" in done.stdout, done.stderr
    searches = re.findall(r" INFO bot: the solver searches in (\w+) \(([^)]*)\)", done.stderr)
    assert len(searches) == 1 and searches[0][0] == "C", done.stderr
    assert Path(searches[0][1]).parent == site / "bot" / "game"


def healthcheck(stage: Stage) -> list[str]:
    """The command of the stage's HEALTHCHECK (after its options)."""
    found = re.search(r"\bCMD\s+(\[.*\])\s*$", stage.last("HEALTHCHECK"))
    assert found is not None, stage.last("HEALTHCHECK")
    return json.loads(found[1])


async def run_healthcheck(environment: dict[str, str], cwd: Path) -> tuple[int, str]:
    """The image's HEALTHCHECK command run here, with the image's ENV and `environment`: its exit
    status and what it printed (run beside this event loop, which may be serving the bot's routes)."""
    final = stages(DOCKERFILE)[-1]
    command = healthcheck(final)
    assert command[0] == "python"
    process = await asyncio.create_subprocess_exec(
        sys.executable, *command[1:], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), **final.settings(), **environment})
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def test_the_healthcheck_reads_the_health_file_without_web_port(tmp_path: Path) -> None:
    file = tmp_path / "pe.alive"
    assert (await run_healthcheck({"HEALTH_FILE": str(file)}, tmp_path))[0] == 1  # none yet
    file.write_text("1\n")
    code, said = await run_healthcheck({"HEALTH_FILE": str(file)}, tmp_path)
    assert code == 0 and said.startswith("healthy:")
    os.utime(file, (0, 0))  # touched long ago: the bot is stuck or gone
    assert (await run_healthcheck({"HEALTH_FILE": str(file)}, tmp_path))[0] == 1


async def test_the_healthcheck_asks_the_bots_healthz_on_web_port(tmp_path: Path) -> None:
    """With WEB_PORT set, the health file is not read (none here): the bot's /healthz decides, on
    a real server for a stand-in bot (tests/web/test_health.py); no server there, unhealthy."""
    from aiohttp import web
    from aiohttp.test_utils import TestServer

    from bot.play.services import build_play
    from bot.store import open_store
    from bot.web.health import add_routes
    from tests.web.test_health import StandIn

    store = await open_store(str(tmp_path / "pe.sqlite3"))
    bot = StandIn(build_play(store))
    app = web.Application()
    add_routes(app, bot)
    environment = {"HEALTH_FILE": str(tmp_path / "none.alive"), "HTTP_PROXY": "http://127.0.0.1:9",
                   "http_proxy": "http://127.0.0.1:9"}  # a proxy in the environment is not asked
    try:
        async with TestServer(app, host="127.0.0.1") as server:
            environment["WEB_PORT"] = str(server.port)
            code, said = await run_healthcheck(environment, tmp_path)
            assert code == 0 and said.startswith(f"healthy: http://127.0.0.1:{server.port}/healthz says {{"), said
            bot.shards[0].closed = True
            code, said = await run_healthcheck(environment, tmp_path)
            assert code == 1 and "503" in said and '"down": ["gateway"]' in said, said
        code, said = await run_healthcheck(environment, tmp_path)  # the server is gone
        assert code == 1 and said.startswith("unhealthy: no answer from"), said
        code, said = await run_healthcheck({**environment, "WEB_PORT": "http"}, tmp_path)
        assert code == 1 and "WEB_PORT must be a port number" in said
    finally:
        bot.bulk.stop()
        bot.solo.work.stop()
        await store.close()
