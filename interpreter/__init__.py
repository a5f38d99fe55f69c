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
from .errors import Diagnostic, GameError, IllegalChoice, RulebookError, RulesetError
from .ruleset import Ruleset
from .schema import check_schema
from .source import parse_text, read_file

__all__ = ["load", "load_text", "Game", "Decision", "Ruleset", "RulebookError", "RulesetError", "GameError",
           "IllegalChoice", "Diagnostic"]


def load_source(source) -> Ruleset:
    """Check a parsed source against the schema, then compile it."""
    check_schema(source)
    return compile_ruleset(source)


def load(name_or_path: str) -> Ruleset:
    """Load a bundled ruleset by name, or any ruleset file by path."""
    return load_source(read_file(resolve(name_or_path)))


def load_text(text: str, file: str = "<string>") -> Ruleset:
    """Load a ruleset from YAML text (for tests and tools)."""
    return load_source(parse_text(text, file))
