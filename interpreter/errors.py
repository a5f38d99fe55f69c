"""One family of errors: every problem a ruleset author or player can cause, with its source location."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A place in a source file: 1-based line and column, plus the text of that line for the caret."""

    file: str
    line: int
    col: int
    source_line: str = ""

    def __str__(self) -> str:
        # line 0: the file as a whole (it cannot be read), with no made-up position
        return f"{self.file}:{self.line}:{self.col}" if self.line else self.file


@dataclass
class Diagnostic:
    """One finding about a ruleset: where, what, how severe, and an optional hint."""

    code: str
    message: str
    location: Location | None = None
    severity: str = "error"
    hint: str | None = None
    path: tuple = ()   # where in the ruleset's data (for merging findings of several checks)

    def render(self) -> str:
        """Format as `file:line:col: error[code]: message`, then the line and a caret."""
        where = f"{self.location}: " if self.location else ""
        out = [f"{where}{self.severity}[{self.code}]: {self.message}"]
        loc = self.location
        if loc is not None and loc.source_line:
            line, col = clip_line(loc.source_line.rstrip("\n"), loc.col)
            out.append("    " + line)
            out.append("    " + " " * max(col - 1, 0) + "^")
        if self.hint:
            out.append(f"    hint: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict:
        loc = self.location
        return {
            "file": loc.file if loc else None,
            "line": loc.line if loc and loc.line else None,
            "col": loc.col if loc and loc.line else None,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


MAX_SHOWN = 120   # a source line longer than this is shown as a window around the column


def clip_line(line: str, col: int) -> tuple[str, int]:
    """A long source line cut to about MAX_SHOWN characters around `col` (1-based), '...' where cut;
    returns the text and the column of the caret in it."""
    if len(line) <= MAX_SHOWN:
        return line, col
    width = MAX_SHOWN - 6
    start = min(max(col - 1 - width // 2, 0), len(line) - width)
    head = "..." if start > 0 else ""
    tail = "..." if start + width < len(line) else ""
    return head + line[start:start + width] + tail, col - start + len(head)


class RulebookError(Exception):
    """Root of every error the project raises on purpose; the CLI turns these into exit code 1."""


class RulesetError(RulebookError):
    """A ruleset could not be loaded; carries every diagnostic found, best first."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class GameError(RulebookError):
    """A problem while a game runs: an illegal choice, a bad saved game, a stalled effect.

    One raised by the ruleset's own text (an expression that divides by zero, a loop past its budget) is
    told at a place of the ruleset (`placed`): its message starts with the file, line and column, and
    `location` keeps that place, so that the line and a caret can be shown under the message (`render`)."""

    location: Location | None = None   # where in the ruleset, for an error told at a place of it
    located = False                    # the message starts with its place: no caller places it again

    def __init__(self, message: str, code: str = "game"):
        self.code = code
        super().__init__(message)

    def render(self) -> str:
        """The message, then the ruleset's line and a caret under the column, where the error has a place."""
        source = self.source_lines()
        return f"{self}\n{source}" if source else str(self)

    def source_lines(self) -> str:
        """The ruleset's line and a caret under the column (two lines), or "" for an error without a place."""
        loc = self.location
        if loc is None or not loc.source_line:
            return ""
        line, col = clip_line(loc.source_line.rstrip("\n"), loc.col)
        return f"    {line}\n    {' ' * max(col - 1, 0)}^"


def placed(loc, text: str, code: str) -> GameError:
    """An error told at a place of the ruleset: `loc` (a Location, or '?' where none is known) and the text."""
    exc = GameError(f"{loc}: {text}", code)
    exc.located = True
    if isinstance(loc, Location):
        exc.location = loc
    return exc


class IllegalChoice(GameError):
    """A choice that is not among the legal options; the game is left unchanged."""

    def __init__(self, message: str):
        super().__init__(message, code="illegal-choice")


def did_you_mean(name: str, candidates) -> str | None:
    """Suggest the closest known name to a misspelt one, or None."""
    import difflib

    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{found[0]}'?" if found else None
