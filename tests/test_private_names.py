"""The private members (a leading underscore) of the engine (bot/game) and of the renderer
(render/) stay in their own module: every other module, the tests among them, uses those packages
through their public names. Read from the sources with `ast`, so that it stays true. Inside the
package, a class reaches its own members, inherited ones among them, through `self`, `cls` or
`super()`; and the engine's private C module (`_solver_core`) is a module of the package, not a
member."""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Each guarded package: its import name and its folder.
PACKAGES = {"bot.game": ROOT / "bot" / "game", "render": ROOT / "render"}
SOURCES = ("bot", "render", "tests", "benchmarks")


def private(name: str) -> bool:
    """Whether a name is private: one leading underscore, not a dunder."""
    return name.startswith("_") and not name.startswith("__")


@dataclass(frozen=True)
class Scan:
    """What one module's source says, read in one walk: the names it defines (functions, classes,
    assignments, attributes set on objects), the private names it imports (line, module, name)
    and the private attributes it reads (line, name, whether through self, cls or super())."""

    defined: frozenset[str]
    imports: tuple[tuple[int, str, str], ...]
    reads: tuple[tuple[int, str, bool], ...]


@functools.cache
def scanned(path: Path) -> Scan:
    """The module at `path`, scanned once for every package the tests guard."""
    defined: set[str] = set()
    imports: list[tuple[int, str, str]] = []
    reads: list[tuple[int, str, bool]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            elif private(node.attr):
                reads.append((node.lineno, node.attr, own_member(node)))
        elif isinstance(node, ast.ImportFrom):
            imports += [(node.lineno, node.module or "", alias.name) for alias in node.names if private(alias.name)]
    return Scan(frozenset(defined), tuple(imports), tuple(reads))


def privates(folder: Path) -> dict[str, set[str]]:
    """Each private name a package defines, with the package's modules that define it."""
    owners: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        for name in scanned(path).defined:
            if private(name):
                owners.setdefault(name, set()).add(path.stem)
    return owners


def own_member(node: ast.Attribute) -> bool:
    """Whether an attribute is read through `self`, `cls` or `super()`: a class's own member."""
    owner = node.value
    return ((isinstance(owner, ast.Name) and owner.id in ("self", "cls"))
            or (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super"))


def module_file(folder: Path, name: str) -> bool:
    """Whether the package holds a module of that name (such as the compiled `_solver_core`)."""
    return any(path.name.split(".")[0] == name for path in folder.iterdir()
               if path.suffix in (".py", ".c", ".so", ".pyd"))


def uses_of_privates(path: Path, owners: dict[str, set[str]], package: str = "bot.game") -> list[str]:
    """Where `path` reaches a private name of one of the package's modules other than itself:
    imported from the package, or read as an attribute it does not define itself."""
    folder = PACKAGES[package]
    scan = scanned(path)
    inside = path.parent == folder and path.stem
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found = []
    for line, module, name in scan.imports:
        if module.split(".")[:len(package.split("."))] != package.split("."):
            continue
        module = module.removeprefix(package).removeprefix(".") or "__init__"
        if module != inside and not (inside and module_file(folder, name)):
            found.append(f"{where}:{line} imports {name} from {package}.{module}")
    for line, attr, own in scan.reads:
        if attr in owners and attr not in scan.defined and inside not in owners[attr] and not (inside and own):
            found.append(f"{where}:{line} reads .{attr} (private to {package}.{', '.join(sorted(owners[attr]))})")
    return found


@pytest.mark.parametrize(("package", "known"), [("bot.game", "_hand"), ("render", "_column_fan")])
def test_no_private_member_is_used_outside_its_module(package: str, known: str) -> None:
    owners = privates(PACKAGES[package])
    assert known in owners  # the scan does see the package's private names
    found = [use for folder in SOURCES for path in sorted((ROOT / folder).rglob("*.py"))
             if path != Path(__file__).resolve() for use in uses_of_privates(path, owners, package)]
    assert found == []


def test_the_scan_finds_a_private_member_reached_from_outside(tmp_path: Path) -> None:
    outsider = tmp_path / "outsider.py"
    outsider.write_text("from bot.game.race import _deck_of\n\ndef peek(race):\n    return race._hand(0)\n")
    owners = {"_hand": {"race"}, "_deck_of": {"race"}}
    uses = [use.split(" ", 1)[1] for use in uses_of_privates(outsider, owners)]
    assert uses == ["imports _deck_of from bot.game.race", "reads ._hand (private to bot.game.race)"]

