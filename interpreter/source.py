"""Read a ruleset file: YAML text -> plain data plus a table of source positions for every value."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .errors import Diagnostic, Location, RulesetError

# Limits that keep a hostile file from exhausting the machine.
MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_NODES = 50_000
MAX_INT = 10 ** 18          # the largest number a game may hold (see runtime/budget.py)
PLAIN_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}
SCALAR_TAGS = {"tag:yaml.org,2002:" + t for t in ("null", "bool", "int", "float", "str", "timestamp")}
INT_TAG, TIMESTAMP_TAG = "tag:yaml.org,2002:int", "tag:yaml.org,2002:timestamp"


class _TooDeep(Exception):
    """Raised by the guarded loader where the nesting passes MAX_DEPTH (at the mark of that value)."""

    def __init__(self, mark):
        self.mark = mark


class _GuardedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing to compose deeper than MAX_DEPTH: its composer recurses once per
    level, so a file nested a few hundred levels deep would exhaust Python's stack before any check."""

    def __init__(self, stream):
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH + 1:   # the document itself is level 0
                raise _TooDeep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class Origin:
    """One file's name and lines; every mark points at the origin it was read from."""

    __slots__ = ("file", "lines")

    def __init__(self, file: str, text: str):
        self.file, self.lines = file, text.splitlines()


@dataclass(frozen=True)
class Mark:
    """Where a YAML value starts, in which file, and how its scalar was quoted (for columns in expressions)."""

    line: int  # 0-based, as PyYAML counts
    col: int
    style: str | None = None  # None plain, "'" or '"' quoted, "|" or ">" block
    origin: Origin | None = None
    value: object = None      # the scalar's text, for block scalars


@dataclass
class Source:
    """A loaded YAML document: its data, its file name, its lines, and the position of every path."""

    file: str
    text: str
    data: object
    marks: dict[tuple, Mark] = field(default_factory=dict)
    key_marks: dict[tuple, Mark] = field(default_factory=dict)

    def __post_init__(self):
        self.origin = Origin(self.file, self.text)

    def location(self, path: tuple, offset: int = 0, key: bool = False) -> Location:
        """The location of the value at `path` (or of its key), `offset` characters into an expression."""
        table = self.key_marks if key else self.marks
        mark = None
        p = tuple(path)
        while mark is None and p:
            mark = table.get(p) or self.marks.get(p)
            if mark is None:
                p = p[:-1]
        if mark is None:
            mark = Mark(0, 0, origin=self.origin)
            offset = 0
        origin = mark.origin or self.origin
        lines = origin.lines
        line, col = mark.line, mark.col
        if p != tuple(path):
            offset = 0
        if mark.style in ("'", '"'):
            col += 1
        if mark.style in ("|", ">"):
            # Block scalars start on the next line, indented; walk the offset line by line.
            line += 1
            text = mark.value if isinstance(mark.value, str) else ""
            head = text[:offset]
            line += head.count("\n")
            src = lines[line] if line < len(lines) else ""
            indent = len(src) - len(src.lstrip(" "))
            col = indent + len(head) - (head.rfind("\n") + 1)
        else:
            col += offset
        src = lines[line] if line < len(lines) else ""
        return Location(origin.file, line + 1, col + 1, src)


def _error(file: str, text: str, mark, code: str, message: str, hint: str | None = None) -> RulesetError:
    """A one-diagnostic RulesetError at a PyYAML mark."""
    lines = text.splitlines()
    line = mark.line if mark is not None else 0
    col = mark.column if mark is not None else 0
    src = lines[line] if 0 <= line < len(lines) else ""
    return RulesetError([Diagnostic(code, message, Location(file, line + 1, col + 1, src), hint=hint)])


class _Builder:
    """Turns a composed YAML node tree into plain data, refusing duplicate keys and huge expansions."""

    def __init__(self, file: str, text: str):
        self.file, self.text = file, text
        self.origin = Origin(file, text)
        self.constructor = SafeConstructor()
        self.marks: dict[tuple, Mark] = {}
        self.key_marks: dict[tuple, Mark] = {}
        self.count = 0

    def build(self, node, path: tuple, depth: int):
        self.count += 1
        if self.count > MAX_NODES:
            raise _error(self.file, self.text, node.start_mark, "too-large",
                         f"the document expands to more than {MAX_NODES} values (aliases?)")
        if depth > MAX_DEPTH:
            raise _error(self.file, self.text, node.start_mark, "too-deep",
                         f"the document nests deeper than {MAX_DEPTH} levels")
        style = node.style if isinstance(node, ScalarNode) else None
        self.marks[path] = Mark(node.start_mark.line, node.start_mark.column, style, self.origin,
                                node.value if style in ("|", ">") else None)
        if isinstance(node, ScalarNode):
            if node.tag not in SCALAR_TAGS:
                raise _error(self.file, self.text, node.start_mark, "yaml",
                             f"the tag '{node.tag}' is not allowed: a ruleset holds plain maps, lists and values")
            if node.tag == TIMESTAMP_TAG:
                return node.value    # a date is text to a ruleset: keep it as written
            try:
                value = self.constructor.construct_object(node, deep=True)
            except yaml.YAMLError as exc:
                raise _error(self.file, self.text, node.start_mark, "yaml", str(exc).splitlines()[0])
            except ValueError:   # Python's limit on the digits of an integer
                value = None
            if node.tag == INT_TAG and (value is None or abs(value) > MAX_INT):
                raise _error(self.file, self.text, node.start_mark, "number-too-large",
                             f"the number {_clip(node.value, 30)} is too large: numbers in a ruleset are at most "
                             f"10^18 (a game refuses larger ones too)")
            return value
        if not isinstance(node, ScalarNode) and node.tag not in PLAIN_TAGS:
            raise _error(self.file, self.text, node.start_mark, "yaml",
                         f"the tag '{node.tag}' is not allowed: a ruleset holds plain maps, lists and values")
        if isinstance(node, SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            try:
                self.constructor.flatten_mapping(node)
            except yaml.YAMLError as exc:
                raise _error(self.file, self.text, node.start_mark, "yaml", str(exc).splitlines()[0])
            out: dict = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, ScalarNode):
                    raise _error(self.file, self.text, key_node.start_mark, "yaml", "a mapping key must be a plain value")
                key = self.constructor.construct_object(key_node)
                if isinstance(key, (list, dict)):
                    raise _error(self.file, self.text, key_node.start_mark, "yaml", "a mapping key must be a plain value")
                if key in out:
                    first = self.key_marks[path + (key,)]
                    raise _error(self.file, self.text, key_node.start_mark, "duplicate-key",
                                 f"duplicate key '{key}' (first given on line {first.line + 1})",
                                 hint="YAML keeps only one of them; remove or rename one")
                self.key_marks[path + (key,)] = Mark(key_node.start_mark.line, key_node.start_mark.column,
                                                     origin=self.origin)
                out[key] = self.build(value_node, path + (key,), depth + 1)
            return out
        raise _error(self.file, self.text, node.start_mark, "yaml", "unsupported YAML node")


# In a short map or list ({...} or [...]), these characters end or split a plain value.
FLOW_STOPS = {
    "?": "inside { } or [ ], '? ' starts a key: put quotes around a value that contains '?'",
    ":": "inside { } or [ ], ': ' separates a key from its value: put quotes around a value that contains ': '",
    "[": "inside { } or [ ], brackets are YAML's: put quotes around a value that contains '[' or '{'",
    "{": "inside { } or [ ], brackets are YAML's: put quotes around a value that contains '[' or '{'",
}


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def flow_hint(problem: str) -> str | None:
    """A hint naming the cause of YAML's "expected ',' or '}', but got X" inside a short map or list."""
    if problem.startswith("expected ',' or ") and problem[-2:-1] in FLOW_STOPS and problem.endswith("'"):
        return FLOW_STOPS[problem[-2]]
    return None


def comma_hint(location: Location | None, value) -> str | None:
    """A hint when an unexpected key is the tail of a value that a comma split inside { }.

    `{text: cards face down, face up}` is the map {text: cards face down, face up: null} to YAML."""
    if location is None or value is not None or not location.source_line:
        return None
    before = location.source_line[:max(location.col - 1, 0)].rstrip()
    if before.endswith(",") and before.count("{") > before.count("}"):
        return "inside { }, a comma ends a value: put quotes around a value that contains a comma"
    return None


def parse_text(text: str, file: str = "<string>") -> Source:
    """Parse YAML text safely into a Source; raise RulesetError with a location on any problem."""
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise RulesetError([Diagnostic("too-large", f"the file is larger than {MAX_FILE_BYTES} bytes",
                                       Location(file, 0, 0))])
    try:
        loader = _GuardedLoader(text)   # it reads the text at once: a character YAML refuses stops it here
    except yaml.reader.ReaderError as exc:
        raise _unreadable(file, text, exc) from None
    try:
        node = loader.get_single_node()
    except _TooDeep as exc:
        raise _error(file, text, exc.mark, "too-deep", f"the document nests deeper than {MAX_DEPTH} levels")
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or exc.context or "invalid YAML"
        hint = None
        if message == "but found another document":
            raise _error(file, text, mark, "yaml", "a second YAML document starts here",
                         "a ruleset is one YAML document, and '---' starts another: remove the '---' line "
                         "(and what follows it, or move that into a file of its own)")
        if exc.context and exc.context_mark is not None and exc.problem_mark is not None \
                and exc.context_mark.line != exc.problem_mark.line:
            # the real mistake is often where the context began: an unclosed { or [
            hint = (f"{exc.context}, which starts at line {exc.context_mark.line + 1}, "
                    f"column {exc.context_mark.column + 1}: is a bracket left open there?")
        hint = hint or flow_hint(message)   # an unclosed bracket on an earlier line comes first
        raise _error(file, text, mark, "yaml", f"YAML syntax: {message}", hint)
    except yaml.reader.ReaderError as exc:
        raise _unreadable(file, text, exc) from None
    except yaml.YAMLError as exc:
        raise RulesetError([Diagnostic("yaml", f"YAML: {exc}", Location(file, 1, 1))])
    finally:
        loader.dispose()
    if node is None:
        return Source(file, text, None)
    builder = _Builder(file, text)
    data = builder.build(node, (), 0)
    src = Source(file, text, data, builder.marks, builder.key_marks)
    return src


def _unreadable(file: str, text: str, exc) -> RulesetError:
    """A character YAML does not allow (a NUL, a control character), told at its place."""
    before = text[:exc.position]
    line = before.count("\n") + 1
    col = exc.position - (before.rfind("\n") + 1) + 1
    source_line = text.splitlines()[line - 1] if text.splitlines() else ""
    shown = source_line.replace("\x00", "\\0")
    what = "a NUL" if exc.character == 0 else "a control character"
    return RulesetError([Diagnostic("yaml", f"the file holds {what} (U+{exc.character:04X}), which YAML does not "
                                    "allow", Location(file, line, col, "".join(ch if ch.isprintable() else "?"
                                                                                for ch in shown)),
                                    hint="remove it: a ruleset is plain text")])


def read_file(path: str | Path) -> Source:
    """Read and parse a ruleset file; unreadable files become a located RulesetError."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RulesetError([Diagnostic("too-large", f"the file is larger than {MAX_FILE_BYTES} bytes",
                                           Location(str(path), 0, 0))])
        text = path.read_text(encoding="utf-8")
    except RulesetError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesetError([Diagnostic("io", f"cannot read file: {exc.strerror if isinstance(exc, OSError) else exc}",
                                       Location(str(path), 0, 0))])
    return parse_text(text, str(path))
