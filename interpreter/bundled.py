"""Find rulesets: a bundled name -> its file; any other argument is a path."""
from __future__ import annotations

from pathlib import Path

from .errors import Diagnostic, Location, RulesetError, did_you_mean


def rulesets_dir() -> Path:
    """The bundled rulesets: beside the package in a source checkout, inside it once installed."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "rulesets", here / "_data" / "rulesets"):
        if candidate.is_dir():
            return candidate
    return here.parent / "rulesets"


def schema_path() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "schema", here / "_data" / "schema"):
        if (candidate / "ruleset.schema.json").is_file():
            return candidate / "ruleset.schema.json"
    return here.parent / "schema" / "ruleset.schema.json"


def bundled() -> dict[str, Path]:
    """Every bundled ruleset by name (its file name without .yaml), variants included."""
    root = rulesets_dir()
    out = {}
    for path in sorted(root.rglob("*.yaml")):
        out[path.stem] = path
    return out


def resolve(name_or_path: str) -> Path:
    """The file for a bundled name or a path; a clear error when it is neither."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.exists() or "/" in name_or_path:
        if not path.is_file():
            what = "a folder, not a ruleset file" if path.is_dir() else "no such file"
            raise RulesetError([Diagnostic("io", what, Location(name_or_path, 0, 0))])
        return path
    table = bundled()
    if name_or_path in table:
        return table[name_or_path]
    hint = did_you_mean(name_or_path, table)
    raise RulesetError([Diagnostic("unknown-ruleset",
                                   f"no bundled ruleset named '{name_or_path}' (try 'rulebook list')",
                                   None, hint=hint)])
