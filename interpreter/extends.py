"""Variants by extension: a ruleset file with `extends:` + its base -> one merged Source.

Merge rules (documented in docs/language.md): maps merge by key, lists and scalars replace,
`null` removes. Every merged value keeps the position of the file where it was written, so an
error points at the base or at the variant, wherever the offending text is.
"""
from __future__ import annotations

from pathlib import Path

from .bundled import resolve
from .errors import Diagnostic, RulesetError, did_you_mean
from .source import Source, read_file

MAX_CHAIN = 16


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
    data = _merge(base.data, over, (), marks, key_marks)
    data.pop("extends", None)
    merged = Source(over.file, over.text, data, marks, key_marks)
    merged.chain = getattr(base, "chain", [base.file]) + [over.file]
    return merged


def _take(path, over: Source, marks, key_marks):
    """Replace everything under `path` with the variant's marks."""
    for table, mine in ((marks, over.marks), (key_marks, over.key_marks)):
        for p in [p for p in table if p[:len(path)] == path]:
            del table[p]
        for p, m in mine.items():
            if p[:len(path)] == path:
                table[p] = m


def _merge(base, over: Source, path, marks, key_marks):
    value = over.data if not path else _at(over.data, path)
    if not isinstance(base, dict) or not isinstance(value, dict):
        _take(path, over, marks, key_marks)
        return value
    out = dict(base)
    for k, v in value.items():
        p = path + (k,)
        if v is None and k != "extends":
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
            out[k] = _merge(out[k], over, p, marks, key_marks)
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
