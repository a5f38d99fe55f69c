"""The author's words: scenario text (P2, red 3*2, numbers, labels) <-> engine values (seats, card ids, lists)."""
from __future__ import annotations

import re

from ..runtime.values import PLAYERS, Card, Player
from ..errors import did_you_mean

SEAT = re.compile(r"P(\d+)$")
SEAT_PREFIX = re.compile(r"P(\d+)\.")
REPEAT = re.compile(r"(.+?)\s*[*×]\s*(\d+)$")


class ScenarioError(Exception):
    """A mistake in a scenario file: the message, its data path, an offset into it, and whether the key is meant."""

    def __init__(self, message: str, path: tuple = (), offset: int = 0, key: bool = False):
        super().__init__(message)
        self.message, self.path, self.offset, self.key = message, tuple(path), offset, key


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def seat(text, players: int, path: tuple = (), key: bool = True) -> int:
    """'P2' -> seat 1 (a mistake is located at the key of `path`, or at its value)."""
    m = SEAT.match(str(text))
    if not m or not 1 <= int(m.group(1)) <= players:
        raise ScenarioError(f"'{text}' is not a player: write P1 to P{players}", path, key=key)
    return PLAYERS[int(m.group(1)) - 1]


def players_prefix(text: str, players: int, path: tuple = ()) -> tuple[str, int]:
    """'P2.hand' -> ('players[1].hand', how many characters longer that is)."""
    m = SEAT_PREFIX.match(text)
    if not m:
        return text, 0
    spelled = f"players[{seat(text[:m.end() - 1], players, path)}]."
    return spelled + text[m.end():], len(spelled) - m.end()


def expand(items, path: tuple = ()) -> list:
    """A list of cards as written, where 'red 3*2' (or 'red 3 × 2') stands for two cards labelled 'red 3'."""
    if not isinstance(items, list):
        raise ScenarioError(f"expected a list of cards, not {show(items)}", path)
    out = []
    for item in items:
        m = REPEAT.match(item) if isinstance(item, str) else None
        if m and int(m.group(2)) > 10_000:
            raise ScenarioError(f"'{item}': that is more cards than a game has", path)
        out += [m.group(1)] * int(m.group(2)) if m else [item]
    return out


def card_ids(rules, spec, path: tuple = ()) -> list:
    """The ids of the cards a spec names: a label ('red 3'; 10 for a card labelled 10) or attributes ({colour: red})."""
    if isinstance(spec, dict):
        found = [c for c, attrs in enumerate(rules.cards) if all(attrs.get(k) == v for k, v in spec.items())]
        hint = None
    else:
        found = [c for c, label in enumerate(rules.card_labels) if label == show(spec)]
        hint = did_you_mean(show(spec), rules.card_labels)
    if not found:
        what = f"has {show(spec)}" if isinstance(spec, dict) else f"is labelled '{show(spec)}'"
        raise ScenarioError(f"no card {what}" + (f"; {hint}" if hint else ""), path)
    return found


def show(value) -> str:
    """A value as an author writes it: [a, b], true, none, {k: v}."""
    if isinstance(value, list):
        return "[" + ", ".join(map(show, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def kind_word(value) -> str:
    """What sort of value this is, for a message where two values read the same but differ."""
    if isinstance(value, bool):
        return "true or false"
    if is_number(value):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list of " + (", ".join(sorted({kind_word(v) for v in value})) or "nothing")
    return "a mapping" if isinstance(value, dict) else "none"


def spoken(game, value, kind: str):
    """An engine value in the author's words: cards by label, players as P1, P2, and lists of them."""
    t = type(value)
    if t is Player or (kind == "player" and t is int):
        return f"P{value + 1}"
    if t is Card or (kind == "card" and t is int):
        return game.rs.card_labels[value]
    inner = {"players": "player", "cards": "card", "groups": "cards"}.get(kind)
    return [spoken(game, v, inner) for v in value] if isinstance(value, list) else value


def same(found, want) -> bool:
    """Equal as the author means it: true is not 1, 'P2' is 1 where a variable holds a seat number, and a
    number written without quotes equals the same text (a card labelled 10 is 10 or '10')."""
    if isinstance(found, list) and isinstance(want, list):
        return len(found) == len(want) and all(map(same, found, want))
    if isinstance(found, bool) or isinstance(want, bool):
        return isinstance(found, bool) and isinstance(want, bool) and found == want
    if is_number(found) and isinstance(want, str):
        return f"P{found + 1}" == want if SEAT.match(want) and type(found) is not float else show(found) == want
    if isinstance(found, str) and is_number(want):
        return found == show(want)
    return found == want


def differs(what: str, want, found) -> str:
    """'expected X = a, found b', saying what sort each is when they read the same."""
    message = f"expected {what} = {show(want)}, found {show(found)}"
    if show(want) == show(found) and isinstance(want, list) and isinstance(found, list) and len(want) != len(found):
        message += (f" ({len(want)} items expected, {len(found)} found: in a YAML [ ] list a comma ends an item, "
                    "so quote an item that holds one, or write the list one item a line)")
    elif show(want) == show(found):
        message += f" ({kind_word(want)} expected, {kind_word(found)} found)"
    return message


def mapping(value, path: tuple, keys, what: str) -> dict:
    """Check that a part of the file is a mapping (of these keys, unless keys is None)."""
    if not isinstance(value, dict):
        listed = "" if keys is None else f" of {', '.join(keys) or 'nothing'}"
        raise ScenarioError(f"{what} is a mapping{listed}", path)
    for key in value:
        if keys is not None and key not in keys:
            hint = did_you_mean(str(key), keys)
            raise ScenarioError(f"unknown key '{key}' in {what}" + (f" ({hint})" if hint else "")
                                + f"; the keys are: {', '.join(keys) or 'none'}", path + (key,), key=True)
    return value
