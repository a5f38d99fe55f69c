"""Rules in words: small helpers that put values and expressions of a ruleset into sentences (the effects'
`explain`, and explain/detail.py's reference)."""
from __future__ import annotations

from ..runtime.effects import BACK_WORDS, FRONT_WORDS

END_WORDS = FRONT_WORDS | BACK_WORDS


def flat(text) -> str:
    """Collapse the line breaks and runs of spaces of a YAML text into single spaces."""
    return " ".join(str(text).split())


def plain(value) -> str:
    """A parameter value in words: true/false, lists in brackets, tables by player count."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ", ".join(f"{n}: {plain(v)}" for n, v in value.items()) + " (by player count)"
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    return "none" if value is None else str(value)


def code(value) -> str:
    """A value for the reader: numbers and true/false as they are, expressions in backticks."""
    return plain(value) if value is None or isinstance(value, (int, list)) else f"`{flat(value)}`"


def words(items, last="and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1] if len(items) > 1 else "".join(items)


def cards(count) -> str:
    """How many cards, in words: 1 card, 2 cards, all the cards, `n` cards."""
    return "all the cards" if count == "all" else "1 card" if count == 1 else f"{code(count)} cards"


def end_of(where, zone) -> str:
    """An end of a zone in words: the top of `pile`, the `side` end of `row[r]`."""
    return f"the {where} of {code(zone)}" if where in END_WORDS else f"the {code(where)} end of {code(zone)}"


def arg_in_words(name, domain) -> str:
    """One argument: `x` from `list`, or several items (`cards`: 2 of `me.hand`, picked one at a time)."""
    if isinstance(domain, dict):
        size = code(domain["count"]) if "count" in domain else \
            f"{code(domain.get('min', 0))} to {code(domain['max']) if 'max' in domain else 'all'}"
        return f"{code(name)}: {size} of {code(domain.get('pick'))}, picked one at a time"
    return f"{code(name)} from {code(domain)}"
