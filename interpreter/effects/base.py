"""What an effect definition is: its YAML form (as JSON Schema), how it is compiled, the Python it becomes,
and its words for `explain` -> one class per effect (the registry is effects/__init__.py).

A definition is the class of the node its effect compiles to. Effects that never wait for a decision are
data only: code generation writes them out (codegen/effects.py calls `emit`) and nothing else runs them.
An effect that waits (`choose`), or that loops around effects that wait (`while`, `for_each`), is also a
node of the VM: its class derives from the engine's node as well, which runs it (engine/nodes.py).

What a definition gives, and who reads it:

- `key`, `beside`, `bare`, `text` and the schema of its value (`value`, or `fields` for a map of fields,
  with `required`): the schema (schema/ruleset.schema.json is written from them, tests/regenerate_schema.py)
  and the compiler's checks of which keys an effect may have (compiler/effects.py);
- `compile(c, path, fields, value, scope)`: the node, every expression in it checked and compiled (`c` is
  the effect compiler: its context, blocks, choices and helpers);
- `blocks()`, `waits` and `pushes`: what code generation may fuse (codegen/effects.py);
- `emit(w, py)`: the statements of its generated code (`w` is the segment writer);
- `explain(value, item)`: its sentence in the reference, and the effects inside it (explain/detail.py; the rulebook's plain sentences are explain/tell.py's).
"""
from __future__ import annotations

from ..engine.nodes import Node


def ref(name: str, description: str) -> dict:
    """A part of the schema that is one of its definitions."""
    return {"$ref": f"#/$defs/{name}", "description": description}


class Effect(Node):
    """One effect of the language (see the module's docstring)."""

    key = ""          # the YAML key: `- move: {...}`
    text = ""         # what it does, in the schema's words
    beside = {}       # keys written beside the effect's own in its map (if: then, else), with their schema
    required = ()     # which of `beside`, or of `fields`, must be there
    bare = False      # may be written as a bare word (`- end_turn`)
    value = None      # the schema of the effect's own value, when it is not a map of `fields`
    fields = None     # {field: schema}: the effect's value is a map of these
    about = ""        # the effect's own value (a map of fields), in the schema's words
    fields_text = ""  # what the map of fields is, in the schema's words
    fields_extra = {}  # more of the map's schema (forms it takes: oneOf)
    null_ok = False   # the map may be left empty (`end_game:`)
    defs = {}         # definitions of the schema this effect owns (shared with another effect: named there)
    waits = False     # it asks a decision itself: never generated code
    pushes = False    # the blocks it runs, it runs once, after its own part: it may end a segment (a tail)

    # what the schema says ------------------------------------------------------------------------
    @classmethod
    def schema(cls) -> dict:
        """The definitions of the schema for this effect: `effect_<key>`, and `<key>_fields` for a map."""
        own = ref(f"{cls.key}_fields", cls.about) if cls.fields is not None else dict(cls.value or {})
        properties = {cls.key: own, **cls.beside}
        out = {f"effect_{cls.key}": {
            "description": f"The '{cls.key}' effect. {cls.text}",
            "type": "object",
            "required": [cls.key] + [k for k in cls.required if k in cls.beside],
            "properties": properties,
            "additionalProperties": False}}
        if cls.fields is not None:
            out[f"{cls.key}_fields"] = {
                "description": cls.fields_text,
                "type": ["object", "null"] if cls.null_ok else "object",
                **({"required": [k for k in cls.required if k in cls.fields]}
                   if any(k in cls.fields for k in cls.required) else {}),
                "additionalProperties": False,
                "properties": dict(cls.fields),
                **cls.fields_extra}
        return {**out, **cls.defs}

    @classmethod
    def is_map(cls) -> bool:
        """Whether the effect's own value is a map of fields."""
        return cls.fields is not None

    # what code generation reads ------------------------------------------------------------------
    def blocks(self) -> tuple:
        """The blocks of effects this one runs (its branches, its body, its `if_empty`, its procedure)."""
        return ()

    def emit(self, w, py) -> None:  # pragma: no cover - every effect that can be fused overrides
        raise NotImplementedError(self.key)

    # what the rules document reads ---------------------------------------------------------------
    @classmethod
    def explain(cls, value, item) -> tuple[str, list]:  # pragma: no cover - every effect overrides
        """(its sentence, [(heading or None, the effects inside it)]) from the effect as written."""
        raise NotImplementedError(cls.key)
