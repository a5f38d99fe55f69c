"""Write generated Python safely: values -> namespace constants under validated names, lines -> compiled code.

Generated source never contains author text: a value a ruleset gives (a text, a list, a table of
card attributes, a label) is put in the module's namespace and the source names it; the only
pieces of a ruleset that appear in the source are identifiers that match IDENT (names of
variables and arguments, checked again here) and integers the compiler produced itself.
"""
from __future__ import annotations

import ast
import keyword
import linecache
import re
import textwrap
from pathlib import PurePath

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# Generated code sees these builtins and nothing else (no __import__, open, getattr, eval, ...).
SAFE_BUILTINS = {f.__name__: f for f in (len, list, range, sum, min, max, abs, any, all, sorted, reversed, map,
                                         isinstance, type, int, str, bool, tuple, dict, set, enumerate, zip)}
SAFE_BUILTINS.update({"TypeError": TypeError, "ValueError": ValueError, "IndexError": IndexError,
                      "KeyError": KeyError, "ZeroDivisionError": ZeroDivisionError})

# Names generated code uses for itself. Its globals all look like `X_name` (constants and helpers),
# its temporaries like `_name`; an author's name that is reserved or looks like either gets the
# prefix v_, so that every author name maps to a distinct Python name that shadows nothing.
RESERVED = {"g", "e", "it", "vm", "me", "out", "frame", "stack"} | set(SAFE_BUILTINS)


def ident(name: str) -> str:
    """An author's name as it may appear in source: a valid identifier, or a ValueError."""
    if not isinstance(name, str) or not IDENT.match(name):
        raise ValueError(f"not an identifier: {name!r}")
    return name


def local_name(name: str) -> str:
    """The Python variable of an author's local name (an action argument, a `let`, a loop's item)."""
    ident(name)
    if (keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in RESERVED or name.startswith("_")
            or name.startswith("v_") or re.match(r"[A-Z]_", name)):
        return "v_" + name
    return name


def key(name: str) -> str:
    """A dict key in source: an identifier, written as a quoted literal."""
    return repr(ident(name))


class Namespace:
    """The globals of generated code: helpers by name, and constants, each under a fresh valid name."""

    def __init__(self, helpers: dict | None = None):
        self.values: dict = {"__builtins__": SAFE_BUILTINS}
        if helpers:
            self.values.update(helpers)
        self._by_key: dict = {}
        self._keep: list = []
        self._count = 0
        self.defs: list = []    # source of helper functions (a ruleset's functions, one per call site)
        self.shown: list = []   # (name, value) of the constants, for people reading the source

    def fresh(self, hint: str = "t") -> str:
        """A new name for a temporary (locals of generated code all start with _)."""
        self._count += 1
        return f"_{_clean(hint)}{self._count}"

    def fresh_global(self, hint: str) -> str:
        """A new global name (for a generated helper function)."""
        name = _clean(hint)
        if not re.match(r"[A-Z]_", name):
            name = "K_" + name
        self._count += 1
        name = f"{name}_{self._count}"
        self.values[name] = None
        return name

    def const(self, value, hint: str = "K", same=None) -> str:
        """The name under which generated code reads `value` (the same value gets the same name; `same`:
        a key saying which values are the same, when identity does not)."""
        if same is not None:
            k = same
        elif type(value) in (str, int, float, bool):
            k = (type(value), value)
        elif type(value) is list and all(type(v) in (str, int) for v in value):
            k = ("list", tuple((type(v), v) for v in value))
        else:
            k = ("id", id(value))
        found = self._by_key.get(k)
        if found is not None:
            return found
        name = _clean(hint)
        if not re.match(r"[A-Z]_", name):
            name = "K_" + name
        base = name
        while name in self.values:
            self._count += 1
            name = f"{base}_{self._count}"
        self.values[name] = value
        self._by_key[k] = name
        self._keep.append(value)   # identity keys stay valid while the value lives
        self.shown.append((name, value))
        return name


def _clean(hint: str) -> str:
    """A hint for a name reduced to identifier characters (an author's text never reaches the source)."""
    text = re.sub(r"[^A-Za-z0-9_]", "_", str(hint))[:24] or "t"
    return text if not text[0].isdigit() else "n" + text


class Lines:
    """Indented source lines; remembers which node of the ruleset each line belongs to (for errors)."""

    def __init__(self):
        self.lines: list[str] = []
        self.owner: list = []   # per line: the node it was written for, or None
        self.loops: list = []   # per line: the innermost loop node it sits in, or None
        self.depth = 0
        self.node = None
        self.loop = None

    def add(self, text: str) -> None:
        for part in text.split("\n"):
            self.lines.append("    " * self.depth + part)
            self.owner.append(self.node)
            self.loops.append(self.loop)

    def mark(self) -> int:
        return len(self.lines)

    def reads(self, name: str, start: int) -> bool:
        """Whether a line from `start` on names the Python variable `name` (outside its quoted texts)."""
        word = re.compile(rf"(?<![\w'\"]){re.escape(name)}(?![\w'\"])")
        return any(word.search(line) for line in self.lines[start:])

    def drop(self, i: int) -> None:
        """Remove line i (written before it was known to be needed)."""
        del self.lines[i], self.owner[i], self.loops[i]

    def cut(self, start: int) -> None:
        """Remove every line from `start` on (to write them again another way)."""
        del self.lines[start:], self.owner[start:], self.loops[start:]

    def assigned(self, start: int) -> set:
        """The Python variables that the statements from `start` on (whole statements, at any depth) assign."""
        text = textwrap.dedent("\n".join(self.lines[start:]))
        return {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

    def insert(self, at: int, texts: list, owner=None) -> None:
        """Lines written before `at`, at the current depth, once what comes after them is known (`owner`:
        the node they are written for, as `node` is for `add`)."""
        self.lines[at:at] = ["    " * self.depth + t for t in texts]
        self.owner[at:at] = [owner] * len(texts)
        self.loops[at:at] = [None] * len(texts)

    def indent(self):
        return _Indent(self)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class _Indent:
    def __init__(self, lines):
        self.lines = lines

    def __enter__(self):
        self.lines.depth += 1

    def __exit__(self, *exc):
        self.lines.depth -= 1


def build(source: str, namespace: Namespace, filename: str, remember: bool = True) -> dict:
    """Compile generated source into its namespace (its functions become values there)."""
    code = compile(source, filename, "exec")
    if remember:
        # kept for tracebacks and debuggers: the lines of generated code can be shown
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(code, namespace.values)   # noqa: S102 - generated from checked trees; no author text inside
    return namespace.values


def where(loc) -> str:
    """A place in the ruleset for a comment: the file's name (its folder differs from one machine to
    another), line and column."""
    name = PurePath(loc.file).name
    return f"{name}:{loc.line}:{loc.col}" if loc.line else name


def comment(text: str) -> str:
    """A comment line for people reading generated source: printable ASCII only, so it cannot end early."""
    return "# " + re.sub(r"[^ -~]", "?", str(text))[:160]
