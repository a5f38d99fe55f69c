"""Check a ruleset's plain data against schema/ruleset.schema.json -> located diagnostics."""
from __future__ import annotations

import copy
import json
from functools import lru_cache

from jsonschema import Draft202012Validator
from jsonschema.exceptions import relevance

from .bundled import schema_path
from .errors import Diagnostic, RulesetError
from .source import comma_hint


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def _message(error) -> str:
    if error.validator == "additionalProperties":
        return error.message.replace("Additional properties are not allowed", "unknown key")
    if error.validator == "required":
        return error.message.replace("is a required property", "is missing")
    return error.message


def schema_diagnostics(source) -> list[Diagnostic]:
    """Every schema error, best first, each located at the YAML value it concerns."""
    errors = sorted(validator().iter_errors(source.data), key=relevance)
    out = []
    for error in errors:
        path = tuple(error.absolute_path)
        key, hint = False, None
        if error.validator == "additionalProperties":
            extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
            if extra:
                path, key = path + (extra[0],), True
                hint = comma_hint(source.location(path, key=True), error.instance[extra[0]])
        out.append(Diagnostic("schema", _message(error), source.location(path, key=key), hint=hint, path=path))
    return out


def check_schema(source) -> None:
    diags = schema_diagnostics(source)
    if diags:
        raise RulesetError(diags)


# Definitions made from others --------------------------------------------------------------------
# The effects' definitions are written from the effects themselves (interpreter/effects/), and the variant
# definitions are derived from the rest; both are stored in the schema file, so that an editor can use
# them (`python tests/regenerate_schema.py` writes them).
#
# The variant definitions:
# A variant (a file with `extends:`) is checked by the same definitions made partial: in every map,
# any key may be left out and `null` (which removes) is allowed; lists are whole, as they replace.
# They are derived here and stored in the schema file, so that an editor can use them.
VARIANT = "variant_"


def _partial(node: dict, defs: dict, made: dict) -> dict:
    """The form of `node` at a place a variant's map may leave out, change in part or remove."""
    if "$ref" in node:
        name = node["$ref"].removeprefix("#/$defs/")
        if name not in made:
            made[name] = {}   # reserve the name first: a definition may refer to itself
            made[name] = _partial(defs[name], defs, made)
        return {**node, "$ref": f"#/$defs/{VARIANT}{name}"}
    if "oneOf" in node:
        # each form made partial; several may now accept null, so any of them will do
        out = {k: v for k, v in node.items() if k != "oneOf"}
        out["anyOf"] = [_partial(alt, defs, made) for alt in node["oneOf"]]
        return out
    if any(k in node for k in ("anyOf", "allOf", "not", "const")):
        raise ValueError(f"no partial form for {sorted(node)}: extend interpreter/schema.py")
    out = {k: v for k, v in node.items() if k not in ("required", "minProperties")}
    if "properties" in out:
        out["properties"] = {k: _partial(v, defs, made) for k, v in out["properties"].items()}
    if isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = _partial(out["additionalProperties"], defs, made)
    for k in ("then", "else"):
        if k in out:
            out[k] = _partial(out[k], defs, made)
    if "type" in out:
        types = out["type"] if isinstance(out["type"], list) else [out["type"]]
        out["type"] = types + ["null"] if "null" not in types else types
    elif "enum" in out and None not in out["enum"]:
        out["enum"] = out["enum"] + [None]
    elif "else" not in out:
        raise ValueError(f"no partial form for {sorted(node)}: extend interpreter/schema.py")
    if "properties" in out or isinstance(out.get("additionalProperties"), dict):
        out["description"] = out.get("description", "") + " In a variant: any key may be left out, and null removes it."
    return out


def with_variants(schema: dict) -> dict:
    """The schema with its `variant_*` definitions derived afresh from the others."""
    out = copy.deepcopy(schema)
    defs = {k: v for k, v in out["$defs"].items() if not k.startswith(VARIANT)}
    made: dict = {}
    _partial({"$ref": "#/$defs/ruleset"}, defs, made)
    variant = made["ruleset"]
    variant["description"] = ("A variant: a file with 'extends:' that gives only what changes. Maps merge by "
                              "key (any key may be left out), lists and values replace, null removes.")
    variant["properties"]["extends"] = defs["ruleset"]["properties"]["extends"]
    variant["required"] = ["extends"]
    out["$defs"] = {**defs, **{VARIANT + k: v for k, v in made.items()}}
    return out


def with_effects(schema: dict) -> dict:
    """The schema with the definitions the effects make (each effect's own, which names an effect list may
    hold, ...) written afresh from the effects' definitions (interpreter/effects/); a definition of an
    effect that is no longer one goes."""
    from .effects import schema_defs
    out = copy.deepcopy(schema)
    made = schema_defs()
    defs = {k: v for k, v in out["$defs"].items()
            if not (k.startswith("effect_") and k != "effect_list" and k not in made)}
    defs.update(copy.deepcopy(made))
    out["$defs"] = defs
    return out


def schema_text(schema: dict) -> str:
    """The schema as stored in schema/ruleset.schema.json."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"

