"""A new value for a parameter (a variant's, or `--param name=value`) -> what is wrong with it, or None.

One set of checks for both places, so a variant file and the command line refuse the same values
with the same words: an unknown name (with did-you-mean), a value of another kind than the
parameter's, a value outside its `choices`.
"""
from __future__ import annotations

from .errors import did_you_mean

KINDS = ((bool, "true or false"), (int, "a whole number"), (str, "a text"), (list, "a list"))


def kind(value) -> str | None:
    """The kind of a plain value in words ('a whole number'); None for a value of no declared kind."""
    for cls, words in KINDS:   # bool first: True is an int to Python, not to an author
        if isinstance(value, cls):
            return words
    return None


def entries(value) -> list:
    """The values of a table by player count, or the value itself."""
    return list(value.values()) if isinstance(value, dict) else [value]


def value_problem(name: str, value, old=None, choices=None) -> tuple[str, str | None] | None:
    """(message, hint) when `value` does not suit parameter `name`, whose value is now `old` (None: any
    kind) and whose allowed values are `choices` (None: any); a table by player count is checked entry
    by entry."""
    wanted = {kind(v) for v in entries(old) if v is not None}
    for v in entries(value):
        if wanted and kind(v) not in wanted:
            return f"parameter '{name}' takes {' or '.join(sorted(wanted))}, not {v!r}", None
        if choices is not None and v not in choices:
            return (f"parameter '{name}' may be " + ", ".join(map(str, choices)) + f", not {v!r}",
                    did_you_mean(str(v), map(str, choices)))
    return None


def override_problem(name: str, value, params: dict, choices: dict) -> tuple[str, str | None] | None:
    """(message, hint) when `name: value` cannot change one of `params` (name -> value or table)."""
    if name not in params:
        return f"unknown parameter '{name}'", did_you_mean(name, params)
    return value_problem(name, value, params[name], choices.get(name))
