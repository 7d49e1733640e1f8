"""The engine's private members (a leading underscore) stay in their own module: every other
module, the tests among them, uses bot/game through its public names. Read from the sources with
`ast`, so that it stays true. Inside bot/game, a class reaches its own members, inherited ones
among them, through `self`, `cls` or `super()`; and the engine's private C module
(`_solver_core`) is a module of the package, not a member."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "bot" / "game"
SOURCES = ("bot", "render", "tests", "benchmarks")


def private(name: str) -> bool:
    """Whether a name is private: one leading underscore, not a dunder."""
    return name.startswith("_") and not name.startswith("__")


def defined_names(tree: ast.AST) -> set[str]:
    """The names a module defines: functions, classes, assignments and attributes set on objects."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def engine_privates() -> dict[str, set[str]]:
    """Each private name bot/game defines, with the engine modules that define it."""
    owners: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        for name in defined_names(ast.parse(path.read_text(), str(path))):
            if private(name):
                owners.setdefault(name, set()).add(path.stem)
    return owners


def own_member(node: ast.Attribute) -> bool:
    """Whether an attribute is read through `self`, `cls` or `super()`: a class's own member."""
    owner = node.value
    return ((isinstance(owner, ast.Name) and owner.id in ("self", "cls"))
            or (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super"))


def engine_module_file(name: str) -> bool:
    """Whether bot/game holds a module of that name (such as the compiled `_solver_core`)."""
    return any(path.name.split(".")[0] == name for path in ENGINE.iterdir()
               if path.suffix in (".py", ".c", ".so", ".pyd"))


def uses_of_engine_privates(path: Path, owners: dict[str, set[str]]) -> list[str]:
    """Where `path` reaches a private name of a bot/game module other than itself: imported from
    bot.game, or read as an attribute it does not define itself."""
    tree = ast.parse(path.read_text(), str(path))
    own = defined_names(tree)
    engine_module = path.parent == ENGINE and path.stem
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.game"):
            module = (node.module or "").removeprefix("bot.game").removeprefix(".") or "__init__"
            found += [f"{where}:{node.lineno} imports {alias.name} from bot.game.{module}"
                      for alias in node.names if private(alias.name) and module != engine_module
                      and not (engine_module and engine_module_file(alias.name))]
        elif (isinstance(node, ast.Attribute) and node.attr in owners and node.attr not in own
              and engine_module not in owners[node.attr] and not (engine_module and own_member(node))):
            found.append(f"{where}:{node.lineno} reads .{node.attr} "
                         f"(private to bot.game.{', '.join(sorted(owners[node.attr]))})")
    return found


def test_no_private_member_of_the_engine_is_used_outside_its_module() -> None:
    owners = engine_privates()
    assert "_hand" in owners  # the scan does see the engine's private names
    found = [use for folder in SOURCES for path in sorted((ROOT / folder).rglob("*.py"))
             if path != Path(__file__).resolve() for use in uses_of_engine_privates(path, owners)]
    assert found == []


def test_the_scan_finds_a_private_member_reached_from_outside(tmp_path: Path) -> None:
    outsider = tmp_path / "outsider.py"
    outsider.write_text("from bot.game.race import _deck_of\n\ndef peek(race):\n    return race._hand(0)\n")
    owners = {"_hand": {"race"}, "_deck_of": {"race"}}
    uses = [use.split(" ", 1)[1] for use in uses_of_engine_privates(outsider, owners)]
    assert uses == ["imports _deck_of from bot.game.race", "reads ._hand (private to bot.game.race)"]

