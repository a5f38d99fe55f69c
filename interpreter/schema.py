"""Check a ruleset's plain data against schema/ruleset.schema.json -> located diagnostics."""
from __future__ import annotations

import json
from functools import lru_cache

from jsonschema import Draft202012Validator
from jsonschema.exceptions import relevance

from .bundled import schema_path
from .errors import Diagnostic, RulesetError


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
        key = False
        if error.validator == "additionalProperties":
            extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
            if extra:
                path, key = path + (extra[0],), True
        out.append(Diagnostic("schema", _message(error), source.location(path, key=key), path=path))
    return out


def check_schema(source) -> None:
    diags = schema_diagnostics(source)
    if diags:
        raise RulesetError(diags)
