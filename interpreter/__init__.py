"""rulebook's interpreter: load a YAML ruleset and run games of it.

    from interpreter import load, Game
    rules = load("my-game.yaml")   # or a bundled name from `rulebook list`
    game = Game.new(rules, players=3, seed=1)
    while not game.is_over:
        game.apply(0)

Importing the package is cheap: the compiler, the schema checker and the engine are imported when
first used (so that `rulebook list` and `validate` answer from the cache without them).
"""
from __future__ import annotations

from .errors import Diagnostic, GameError, IllegalChoice, RulebookError, RulesetError

__all__ = ["load", "load_text", "Game", "Decision", "Ruleset", "RulebookError", "RulesetError", "GameError",
           "IllegalChoice", "Diagnostic"]

# names the package gave before its imports were lazy (kept for callers that import them from here)
_LAZY = {"Game": ".engine.game", "Decision": ".engine.game", "Ruleset": ".ruleset",
         "parse_text": ".source", "read_file": ".source", "resolve": ".bundled",
         "compile_ruleset": ".compiler", "explain_removals": ".extends", "load_merged": ".extends",
         "schema_diagnostics": ".schema"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'interpreter' has no attribute {name!r}")


def load_source(source):
    """Compile a parsed source and check it against the schema; report every problem, best first.

    The compiler's diagnostics speak the author's language ("unknown effect 'shufle'"), so they come
    first; schema findings are added where the compiler said nothing on the same line."""
    from .compiler import compile_ruleset
    from .compiler.ruleset import Unreadable
    from .extends import explain_removals
    from .schema import schema_diagnostics
    schema_diags = schema_diagnostics(source)
    rules, found = None, []
    try:
        rules = compile_ruleset(source)
    except Unreadable as exc:
        # the cards or the zones are not what the compiler can read: the schema says more precisely why
        found = [] if schema_diags else list(exc.diagnostics)
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
    if rules is None and not found:   # never without a word
        from .errors import Diagnostic, Location
        found = [Diagnostic("ruleset", "this ruleset could not be read", Location(source.file, 0, 0))]
    if found:
        raise RulesetError(explain_removals(source, found))
    rules.chain = list(getattr(source, "chain", [source.file]))
    return rules


def load(name_or_path: str):
    """Load a bundled ruleset by name, or any ruleset file by path (with the base it extends)."""
    from .bundled import resolve
    from .extends import load_merged
    return load_source(load_merged(resolve(name_or_path)))


def load_text(text: str, file: str = "<string>"):
    """Load a ruleset from YAML text (for tests and tools)."""
    from .source import parse_text
    return load_source(parse_text(text, file))
