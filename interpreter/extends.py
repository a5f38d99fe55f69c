"""Variants by extension: a ruleset file with `extends:` + its base -> one merged Source.

Merge rules (documented in docs/language.md): maps merge by key, lists and scalars replace,
`null` removes. Every merged value keeps the position of the file where it was written, so an
error points at the base or at the variant, wherever the offending text is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .bundled import resolve
from .errors import Diagnostic, Location, RulesetError, did_you_mean
from .source import Source, read_file

MAX_CHAIN = 16


@dataclass(frozen=True)
class Override:
    """A parameter a variant gives: whether its base has it, and the base's value (a kind to keep)."""

    in_base: bool
    old: object = None


@dataclass(frozen=True)
class Removal:
    """A `null` in a variant: what it removes (the names that may still be used) and where it is."""

    path: tuple
    names: frozenset
    location: Location


def load_merged(path: str | Path, _chain: tuple = ()) -> Source:
    """Read a ruleset file and, if it extends a base, merge it over the base (recursively)."""
    path = Path(path)
    source = read_file(path)
    data = source.data
    if not isinstance(data, dict) or "extends" not in data:
        return source
    base_name = data["extends"]
    where = source.location(("extends",))
    if not isinstance(base_name, str) or not base_name:
        raise RulesetError([Diagnostic("extends", "extends names a bundled ruleset or a file path", where)])
    key = str(path.resolve())
    chain = _chain + (key,)
    if len(chain) > MAX_CHAIN:
        raise RulesetError([Diagnostic("extends", f"more than {MAX_CHAIN} rulesets extend each other", where)])
    base_path = _find_base(base_name, path, where)
    if str(base_path.resolve()) in chain:
        names = " -> ".join(Path(c).name for c in chain + (str(base_path.resolve()),))
        raise RulesetError([Diagnostic("extends-cycle", f"rulesets extend each other in a circle: {names}", where)])
    base = load_merged(base_path, chain)
    return merge(base, source)


def _find_base(name: str, child: Path, where) -> Path:
    """A base is a path relative to the variant's folder, or else a bundled name."""
    relative = child.parent / name
    if name.endswith((".yaml", ".yml")) or "/" in name:
        if not name.endswith((".yaml", ".yml")):
            # not read at all: a file that is not a ruleset must not be quoted in an error
            raise RulesetError([Diagnostic("extends", f"'{name}' is not a ruleset file: a base is a bundled name or "
                                           "a .yaml file", where)])
        if relative.is_file():
            return relative
        raise RulesetError([Diagnostic("extends-missing", f"the base ruleset '{name}' does not exist", where)])
    try:
        return resolve(name)
    except RulesetError as exc:
        from .bundled import bundled
        raise RulesetError([Diagnostic("extends-missing", f"no bundled ruleset named '{name}' to extend", where,
                                       hint=did_you_mean(name, bundled()))]) from exc


def merge(base: Source, over: Source) -> Source:
    """The variant `over` laid on `base`: a new Source whose marks point into both files."""
    marks = dict(base.marks)
    key_marks = dict(base.key_marks)
    removed = list(getattr(base, "removed", []))
    overrides = dict(getattr(base, "overrides", {}))
    overrides.update(_overrides(base.data, over.data))
    data = _merge(base.data, over, (), marks, key_marks, removed)
    data.pop("extends", None)
    merged = Source(over.file, over.text, data, marks, key_marks)
    merged.chain = getattr(base, "chain", [base.file]) + [over.file]
    merged.overrides, merged.removed = overrides, removed
    return merged


def _overrides(base, over) -> dict:
    """Each parameter the variant gives (not removes) -> an Override naming what the base had."""
    theirs = base.get("parameters") if isinstance(base, dict) else None
    mine = over.get("parameters") if isinstance(over, dict) else None
    theirs = theirs if isinstance(theirs, dict) else {}
    out = {}
    for name, value in (mine if isinstance(mine, dict) else {}).items():
        if value is None:
            continue
        old = theirs.get(name)
        if isinstance(old, dict) and "value" in old:
            old = old["value"]
        out[name] = Override(name in theirs, old)
    return out


def _take(path, over: Source, marks, key_marks):
    """Replace everything under `path` with the variant's marks."""
    for table, mine in ((marks, over.marks), (key_marks, over.key_marks)):
        for p in [p for p in table if p[:len(path)] == path]:
            del table[p]
        for p, m in mine.items():
            if p[:len(path)] == path:
                table[p] = m


def _merge(base, over: Source, path, marks, key_marks, removed):
    value = over.data if not path else _at(over.data, path)
    if not isinstance(base, dict) or not isinstance(value, dict):
        _take(path, over, marks, key_marks)
        return value
    out = dict(base)
    for k, v in value.items():
        p = path + (k,)
        if v is None and k != "extends":
            # A whole section removed takes every name in it; anything else takes its own name.
            gone = out.get(k)
            names = set(gone) if not path and isinstance(gone, dict) else set()
            removed.append(Removal(p, frozenset(names | {k}), over.location(p, key=True)))
            out.pop(k, None)
            _take(p, over, {}, {})
            for table in (marks, key_marks):
                for q in [q for q in table if q[:len(p)] == p]:
                    del table[q]
            continue
        if path == ("parameters",) and isinstance(out.get(k), dict) and "value" in out[k] \
                and not (isinstance(v, dict) and "value" in v):
            # A plain value over a parameter declared in the long form turns its value and keeps
            # its choices and text: `refill_end: left` in a variant.
            out[k] = dict(out[k], value=v)
            _take(p + ("value",), over, marks, key_marks)
            if p in over.marks:
                marks[p + ("value",)] = over.marks[p]
            continue
        if k in out and isinstance(out[k], dict) and isinstance(v, dict):
            out[k] = _merge(out[k], over, p, marks, key_marks, removed)
            if p in over.marks:
                marks[p] = over.marks[p]
            if p in over.key_marks:
                key_marks[p] = over.key_marks[p]
        else:
            out[k] = v
            _take(p, over, marks, key_marks)
    return out


def _at(data, path):
    for k in path:
        data = data[k]
    return data


NAMED = re.compile(r"'([^']+)'")


def explain_removals(source, diagnostics: list) -> list:
    """Errors caused by a variant's `null` (a name it removed is still used) -> one error at that `null`.

    Without this, an empty `parameters:` in a variant reports every use of every parameter in the
    base file, and never the line that caused them."""
    out, explained = [], set()
    for removal in getattr(source, "removed", []):
        caused = [d for d in diagnostics if d.code.startswith("unknown")
                  and any(n in removal.names for n in NAMED.findall(d.message))]
        if not caused:
            continue
        explained.update(map(id, caused))
        used, first = [], None
        for d in sorted(caused, key=lambda d: (d.location.file, d.location.line, d.location.col)
                        if d.location else ("", 0, 0)):
            first = first or d.location
            used += [n for n in NAMED.findall(d.message) if n in removal.names and n not in used]
        what = removal.path[-1]
        uses = ", ".join(used) + (f" (first at {first})" if first else "")
        if len(removal.path) == 1 and removal.names != {what}:
            message = (f"'{what}:' is empty (null), which removes every entry of the base's '{what}'; "
                       f"still used: {uses}")
            hint = f"write the entries to change under '{what}:', or delete the line to keep the base's"
        else:
            message = f"this removes '{what}' (null removes), but it is still used (first at {first})"
            hint = "remove its uses as well, or keep it"
        out.append(Diagnostic("removed-in-use", message, removal.location, hint=hint, path=removal.path))
    return out + [d for d in diagnostics if id(d) not in explained]
