"""The house's layers (docs/compile.md, "The house, from the ground up"): each part of interpreter/ imports only
the parts below it, lazy imports inside functions included, so no import runs back up and no files import
each other in a circle; the runtime imports nothing of the project but its errors."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"

# from the ground up; the parts of one line may import each other (in either order, no circle)
LAYERS = [
    ["errors.py"],
    ["runtime/"],
    ["bundled.py", "parameters.py", "authoring.py", "source.py", "extends.py"],
    ["expr/"],
    ["layout.py", "ruleset.py"],
    ["engine/"],
    ["effects/"],
    ["codegen/"],
    ["compiler/", "schema.py", "cache.py"],
    ["agents/"],
    ["present/"],
    ["analysis/", "scenario/", "serve/", "envs/", "explain/", "transcript.py", "simulate.py", "probe.py", "tournament.py",
     "analyze.py", "tune.py",
     "__init__.py"],
]


def layer_of(path: Path) -> int:
    rel = path.relative_to(PACKAGE).as_posix()
    for i, parts in enumerate(LAYERS):
        if any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in parts):
            return i
    raise AssertionError(f"{rel} is on no layer of this test: add it where it belongs")


def imported(path: Path, source: str | None = None):
    """The project's files a module imports (relative imports, anywhere in the module; `source`: its text,
    when it is not the file's)."""
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*node.module.split(".")) if node.module else base
            # the module itself, and any of the names that is a module of its own (`from . import flow`)
            names = ([target] if node.module else []) + [target / a.name for a in node.names]
            for t in names:
                for found in (t.with_suffix(".py"), t / "__init__.py"):
                    if found.exists():
                        yield found
                        break


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_a_module_imports_only_what_lies_below_it(path):
    here = layer_of(path)
    above = [t.relative_to(PACKAGE).as_posix() for t in imported(path) if layer_of(t) > here]
    assert not above, f"{path.relative_to(PACKAGE)} imports {above}, which lie above it"


def test_the_runtime_imports_nothing_of_the_project_but_its_errors():
    for path in (PACKAGE / "runtime").glob("*.py"):
        outside = {t.relative_to(PACKAGE).as_posix() for t in imported(path) if t.parent != path.parent}
        assert outside <= {"errors.py"}, f"{path.name} imports {sorted(outside)}"


def test_the_check_sees_an_import_that_runs_back_up():
    """A lazy import inside a function counts too (the check can fail)."""
    game = PACKAGE / "engine" / "game.py"
    targets = list(imported(game, "def f():\n    from ..codegen import module\n"))
    assert PACKAGE / "codegen" / "module.py" in targets
    assert all(layer_of(t) > layer_of(game) for t in targets)
