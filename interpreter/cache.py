"""What loading a ruleset found, kept on disk: a ruleset's files + the interpreter's code -> a stored result.

`rulebook list` and `rulebook validate` answer from here without importing the compiler (which is
what makes them slow to start). An entry is keyed by what was asked (the command, the path as
given, the working folder) and holds the hash of every file the ruleset was read from (itself and
each base it extends), the hash of the interpreter's own code, and a checksum of its content. It is
used only when all of these match today's files; a stale, damaged or foreign entry is ignored and
written again. Nothing in an entry is executed: it is JSON data.

The folder is $RULEBOOK_CACHE_DIR if set (empty or `off`: no cache), else $XDG_CACHE_HOME/rulebook,
else ~/.cache/rulebook.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

FORMAT = 1
_code: str | None = None


def cache_dir() -> Path | None:
    """Where entries are kept, or None when caching is off."""
    given = os.environ.get("RULEBOOK_CACHE_DIR")
    if given is not None:
        return None if given.strip() in ("", "off") else Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulebook"


def code_hash() -> str:
    """A hash of the interpreter's code (and the schema): any change to it makes every entry stale."""
    global _code
    if _code is None:
        from .bundled import schema_path
        root = Path(__file__).resolve().parent
        h = hashlib.sha256()
        files = sorted(p for p in root.rglob("*") if p.suffix in (".py", ".lark") and "_data" not in p.parts)
        for p in files + [schema_path()]:
            try:
                data = p.read_bytes()
            except OSError:
                continue
            h.update(str(p.relative_to(p.anchor)).encode() + b"\0" + hashlib.sha256(data).digest())
        _code = h.hexdigest()
    return _code


def file_hash(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _entry_path(kind: str, asked: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256("\0".join([kind, asked, os.getcwd(), code_hash()]).encode()).hexdigest()[:40]
    return folder / f"{kind}-{key}.json"


def _checksum(body: dict) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def lookup(kind: str, asked: str):
    """The stored result for `asked`, or None when there is none that is still true."""
    path = _entry_path(kind, asked)
    if path is None:
        return None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        body = entry["body"]
        if entry.get("format") != FORMAT or entry.get("code") != code_hash() or entry.get("check") != _checksum(body):
            return None
        for name, digest in body["files"]:
            if file_hash(name) != digest:
                return None
        return body["result"]
    except (OSError, ValueError, KeyError, TypeError):
        return None   # missing, damaged or of another shape: computed again


def store(kind: str, asked: str, files, result) -> None:
    """Keep `result` for `asked`, valid while `files` (the ruleset's chain) and the code stay as they are."""
    path = _entry_path(kind, asked)
    if path is None:
        return
    hashes = [[str(f), file_hash(str(f))] for f in files]
    if any(d is None for _, d in hashes):
        return
    body = {"files": hashes, "result": result}
    entry = {"format": FORMAT, "code": code_hash(), "body": body, "check": _checksum(body)}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass   # a cache that cannot be written is no cache


def diagnostic_data(d) -> dict:
    """A Diagnostic as JSON data that `diagnostic_of` turns back into the same Diagnostic."""
    loc = d.location
    return {"code": d.code, "message": d.message, "severity": d.severity, "hint": d.hint, "path": list(d.path),
            "location": None if loc is None else [loc.file, loc.line, loc.col, loc.source_line]}


def diagnostic_of(data: dict):
    from .errors import Diagnostic, Location
    loc = data["location"]
    return Diagnostic(data["code"], data["message"], None if loc is None else Location(*loc), data["severity"],
                      data["hint"], tuple(data["path"]))

