"""The effects of the language, one class each (effects/base.py says what a class gives): the registry by
YAML key, in the order of the language reference, and the part of the schema they make.

To add an effect: write its class in the module of its kind (or a new one), add it to EFFECTS, write what
it changes in the game state in runtime/effects.py (generated code calls it), document it in
docs/language.md, and run `python tests/regenerate_schema.py`.
"""
from __future__ import annotations

from .base import Effect
from .cards import Deal, Move, Shuffle, Sort
from .choices import Choose, React
from .control import Call, ForEach, If, Until, While
from .ends import EndGame, EndRound, EndTurn
from .log import Log, Reveal
from .values import Add, Let, Set

EFFECTS: dict[str, type[Effect]] = {cls.key: cls for cls in (
    Move, Deal, Shuffle, Sort, Set, Add, Let, If, While, Until, ForEach, Choose, EndTurn, EndRound, EndGame, Call,
    Log, Reveal, React)}
BARE = tuple(k for k, cls in EFFECTS.items() if cls.bare)


def schema_defs() -> dict:
    """The definitions of schema/ruleset.schema.json that the effects make: each effect's own, which names
    an item of an effect list may hold, which may be bare words, and which definition checks which."""
    out = {
        "bare_effect": {"description": "An effect that needs nothing more, written as a bare word: "
                                       + ", ".join(BARE[:-1]) + " or " + BARE[-1] + ".",
                        "enum": list(BARE)},
        "effect_name": {"description": "The effects a list item may hold.", "enum": list(EFFECTS)},
        "effect_map": {
            "description": "An effect written as a map: exactly one effect key (move, deal, if, ...) and the keys "
                           "that go with that effect (then/else for if, do/max for while and until, in/do for "
                           "for_each, with for call).",
            "allOf": [{"if": {"type": "object", "required": [k]}, "then": {"$ref": f"#/$defs/effect_{k}"}}
                      for k in EFFECTS] + [
                # a map that holds no effect at all: each of its keys is named as not one
                {"if": {"type": "object", "propertyNames": {"not": {"$ref": "#/$defs/effect_name"}}},
                 "then": {"minProperties": 1, "propertyNames": {"$ref": "#/$defs/effect_name"}}}]},
    }
    for cls in EFFECTS.values():
        out.update(cls.schema())
    return out
