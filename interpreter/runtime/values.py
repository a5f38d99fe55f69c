"""Values that know what they are: cards and players as ints that carry their kind, and their JSON form.

A card is its id (its place in the ruleset's card table) and a player is their seat number, so that
both index tables directly; the subclasses only add what the value is, so that a card or a player
held in a variable, passed to a procedure or produced by `map(...)` still prints as a card label or
`P2`, and a save can tell them from numbers.
"""
from __future__ import annotations

from ..errors import GameError


class Card(int):
    """A card: its id in the ruleset's card table."""

    __slots__ = ()
    __str__ = int.__repr__   # str() and f-strings give the number, as for any int

    def __repr__(self):
        return f"Card({int(self)})"


class Player(int):
    """A player: their seat, from 0 (shown as P1)."""

    __slots__ = ()
    __str__ = int.__repr__

    def __repr__(self):
        return f"P{int(self) + 1}"


# the kind of a list's items, by the list's static kind (the expression compiler's words)
ELEMENT = {"cards": "card", "players": "player", "groups": "cards"}

MAX_SEATS = 64
PLAYERS = tuple(Player(i) for i in range(MAX_SEATS))


def seat_name(p) -> str:
    return f"P{int(p) + 1}"


_ONLY_PLAYERS = {Player}


def as_player(g, value, what: str = "a player"):
    """The player a value names: a Player, or a seat number from 0 to n-1; anything else is refused."""
    if type(value) is Player:
        if value < g.n:
            return value
    elif type(value) is int and 0 <= value < g.n:
        return PLAYERS[value]
    shown = seat_name(value) if type(value) is Player else repr(value)
    raise GameError(f"{what} must be a player of this game (P1 to P{g.n}), not {shown}", "not-a-player")


def as_players(g, value, what: str = "players"):
    """A list of players (a single player counts as a list of one)."""
    if type(value) is list and value and _ONLY_PLAYERS == set(map(type, value)) and max(value) < g.n:
        return value[:]   # players of this game all (the common case), checked at C speed
    if type(value) in (Player, int):
        return [as_player(g, value, what)]
    if not isinstance(value, (list, tuple)):
        raise GameError(f"{what} must be a list of players, not {value!r}", "not-a-player")
    return [as_player(g, v, what) for v in value]


# JSON: cards and players are tagged so that a saved game restores them as what they were --------

def encode(value):
    """A value as JSON-ready data: cards as {"$card": id}, players as {"$player": seat}."""
    t = type(value)
    if t is Card:
        return {"$card": int(value)}
    if t is Player:
        return {"$player": int(value)}
    if t is list or t is tuple:
        return [encode(v) for v in value]
    if t is dict:
        return {k: encode(v) for k, v in value.items()}
    return value


def decode(value, cards):
    """The inverse of `encode`; `cards` is the ruleset's table of Card values."""
    t = type(value)
    if t is dict:
        if len(value) == 1:
            if "$card" in value:
                return cards[value["$card"]]
            if "$player" in value:
                return PLAYERS[value["$player"]]
        return {k: decode(v, cards) for k, v in value.items()}
    if t is list:
        return [decode(v, cards) for v in value]
    return value


# the cards a value names, and where they lie (what a game records for its story) ----------------

def cards_in(pieces) -> tuple:
    """The ids of the cards the pieces of a text name (where a reader's line may mask them), in order."""
    out: dict = {}

    def walk(value, kind):
        t = type(value)
        if t is Player or (t is int and kind == "player"):
            return
        if t is Card or (t is int and kind == "card"):
            out[int(value)] = None
        elif t is list:
            if value and all(type(v) is Card for v in value):
                out.update(dict.fromkeys(map(int, value)))
                return
            inner = ELEMENT.get(kind, "any")
            for v in value:
                walk(v, inner)
    for piece in pieces:
        if type(piece) is not str:
            walk(piece[0], piece[1])
    return tuple(out)


def places(g, cards) -> tuple:
    """Where each of these cards lies now: (card, slot, position in its zone, seats it was shown to)."""
    if not cards:
        return ()
    wanted, found = set(cards), {}
    for slot, zone in enumerate(g.zones):
        if not wanted.isdisjoint(zone):
            for i, c in enumerate(zone):
                if c in wanted:
                    found[c] = (slot, i)
    known = g.known
    return tuple((c, *found.get(c, (-1, -1)), tuple(sorted(int(p) for p in known.get(c, ())))) for c in cards)


def cards_of(*values) -> tuple:
    """The ids of the cards these values hold (a card, or lists of them at any depth), in order."""
    return cards_in([(v, "any") for v in values])
