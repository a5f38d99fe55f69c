"""rulebook's interpreter: load a YAML ruleset and run games of it.

    from interpreter import load, Game
    rules = load("my-game.yaml")   # or a bundled name from `rulebook list`
    game = Game.new(rules, players=3, seed=1)
    while not game.is_over:
        game.apply(0)
"""
from __future__ import annotations

from .bundled import resolve
from .compiler import compile_ruleset
from .engine.game import Decision, Game
from .extends import explain_removals, load_merged
from .errors import Diagnostic, GameError, IllegalChoice, RulebookError, RulesetError
from .ruleset import Ruleset
from .schema import schema_diagnostics
from .source import parse_text, read_file

__all__ = ["load", "load_text", "Game", "Decision", "Ruleset", "RulebookError", "RulesetError", "GameError",
           "IllegalChoice", "Diagnostic"]


def load_source(source) -> Ruleset:
    """Compile a parsed source and check it against the schema; report every problem, best first.

    The compiler's diagnostics speak the author's language ("unknown effect 'shufle'"), so they come
    first; schema findings are added where the compiler said nothing on the same line."""
    schema_diags = schema_diagnostics(source)
    rules, found = None, []
    try:
        rules = compile_ruleset(source)
    except RulesetError as exc:
        found = list(exc.diagnostics)
    except (TypeError, AttributeError, KeyError, ValueError, IndexError):
        # A shape the compiler does not expect; the schema has said what is wrong with it.
        if not schema_diags:
            raise
    lines = {(d.location.file, d.location.line) for d in found if d.location}
    parents = {d.path[:-1] for d in found if d.path}

    def said(d):
        """The compiler already spoke about this place: the same line, or a sibling key of it."""
        on_line = d.location is not None and (d.location.file, d.location.line) in lines
        return on_line or (len(d.path) > 1 and d.path[:-1] in parents)
    found += [d for d in schema_diags if not said(d)]
    if found:
        raise RulesetError(explain_removals(source, found))
    rules.chain = list(getattr(source, "chain", [source.file]))
    return rules


def load(name_or_path: str) -> Ruleset:
    """Load a bundled ruleset by name, or any ruleset file by path (with the base it extends)."""
    return load_source(load_merged(resolve(name_or_path)))


def load_text(text: str, file: str = "<string>") -> Ruleset:
    """Load a ruleset from YAML text (for tests and tools)."""
    return load_source(parse_text(text, file))
