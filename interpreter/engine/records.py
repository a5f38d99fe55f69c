"""What a game records for its log while it runs -> plain data ("records"); the words are made from them by
present/log.py, when someone reads the log.

A record is a tuple that starts with its kind:

- ("choice", seat, head, pieces, secret, before, after): a choice, its label as pieces (see below); head
  is the turn it was made in, or "reacts" (the first to act in a reaction window); for the lines that
  mask cards some other player may not know, `before` and `after` tell where each card the label names
  lay before the choice and once it had taken effect (`places`; in `after`, the seats a card was shown to
  include those who saw it where a move took it while the choice took effect);
- ("line", readers, pieces, places): a `log` effect's line (readers: a tuple of seats, or None for
  everyone; for everyone, where the cards it names lay, so that each reader is told only those they may
  see);
- ("shown", readers, viewers, groups): the line of a `reveal` without a text of its own: who was shown
  which cards, grouped by the slot they lay in;
- ("round", number, seat), ("round_end", number, reason), ("over", reason, winners): the flow's lines.

Pieces are a text's parts in order: literal texts, and (value, kind) pairs of the values of its holes
(cards, players, numbers, lists), formatted when the text is read. A game that records nothing (bots'
worlds, simulations) makes none of this; a recorded game makes no words while it runs.

The log holds records and, from saves made before records existed, lines already in words (a text, or
[readers, text] or [readers, text, the others' text]); saves keep records as {"$log": [...]}.
"""
from __future__ import annotations

from ..runtime.values import cards_in, decode, encode, places  # noqa: F401  (cards_in, places: named here too)

KINDS = ("choice", "line", "shown", "round", "round_end", "over")


def readers(g, audience):
    """The seats a line is for (sorted), or None when it is for every player."""
    if audience is None:
        return None
    seats = tuple(sorted({int(p) for p in audience}))
    return None if len(seats) == g.n else seats


# saves ----------------------------------------------------------------------------------------------

def to_json(entry):
    """A log entry as JSON-ready data: a record as {"$log": [...]}, a line in words as it is."""
    if type(entry) is tuple:
        return {"$log": encode(list(entry))}
    return entry


def from_json(entry, cards):
    """The inverse of `to_json` (`cards`: the ruleset's table of Card values)."""
    if type(entry) is dict:
        data = decode(entry["$log"], cards)
        kind = data[0]
        if kind == "choice":
            _, seat, head, pieces, secret, before, after = data
            return (kind, seat, head, _pieces(pieces), secret, _places(before), _places(after))
        if kind == "line":
            return (kind, _seats(data[1]), _pieces(data[2]), _places(data[3] if len(data) > 3 else []))
        if kind == "shown":
            return (kind, _seats(data[1]), tuple(data[2]), tuple((slot, tuple(cs)) for slot, cs in data[3]))
        if kind == "over":
            return (kind, data[1], tuple(data[2]))
        return tuple(data)
    return entry


def _pieces(pieces) -> tuple:
    return tuple(p if type(p) is str else (p[0], p[1]) for p in pieces)


def _places(found) -> tuple:
    return tuple((c, slot, i, tuple(seats)) for c, slot, i, seats in found)


def _seats(seats):
    return None if seats is None else tuple(seats)


def check(entry, n: int, slots: int, values, damaged) -> None:
    """Refuse a saved record that is not one (`damaged(what)` makes the error; `values.check` checks the
    values inside, as every value of a save is checked)."""
    data = entry.get("$log") if len(entry) == 1 else None
    if type(data) is not list or not data or data[0] not in KINDS:
        raise damaged("an entry of 'log' is not a record of what happened")
    kind, rest = data[0], data[1:]
    shapes = {"choice": (6,), "line": (2, 3), "shown": (3,), "round": (2,), "round_end": (2,), "over": (2,)}
    if len(rest) not in shapes[kind]:
        raise damaged(f"a '{kind}' record of 'log' has {len(rest)} fields, not {' or '.join(map(str, shapes[kind]))}")
    values.check(data, "'log'")

    def seat(p):
        if type(p) is dict and len(p) == 1 and "$player" in p:
            p = p["$player"]
        if type(p) is not int or not 0 <= p < n:
            raise damaged(f"a seat in 'log' must be a whole number from 0 to {n - 1}, not {p!r:.40}")

    def pieces(ps):
        if type(ps) is not list or not all(type(p) is str or (type(p) is list and len(p) == 2 and type(p[1]) is str)
                                           for p in ps):
            raise damaged("a text of 'log' is not made of texts and values")

    def found(fs):
        if type(fs) is not list:
            raise damaged("the places of cards in 'log' are not a list")
        for f in fs:
            if type(f) is not list or len(f) != 4 or type(f[1]) is not int or not -1 <= f[1] < slots \
                    or type(f[2]) is not int or type(f[3]) is not list:
                raise damaged("a place of a card in 'log' is not a slot, a position and seats")
            for p in f[3]:
                seat(p)

    if kind == "choice":
        seat(rest[0])
        if rest[1] != "reacts" and type(rest[1]) is not int:
            raise damaged("a choice of 'log' was made in no turn")
        pieces(rest[2])
        found(rest[4])
        if rest[5] is not None:
            found(rest[5])
    elif kind in ("line", "shown"):
        if rest[0] is not None:
            for p in _list_or_fail(rest[0], damaged):
                seat(p)
        if kind == "line":
            pieces(rest[1])
            if len(rest) > 2:
                found(rest[2])
        else:
            for p in _list_or_fail(rest[1], damaged):
                seat(p)
            for group in _list_or_fail(rest[2], damaged):
                if type(group) is not list or len(group) != 2 or not (group[0] is None or
                                                                       type(group[0]) is int and 0 <= group[0] < slots):
                    raise damaged("a group of shown cards in 'log' is not a slot and cards")
    elif kind == "round":
        seat(rest[1])
    elif kind == "over":
        for p in _list_or_fail(rest[1], damaged):
            seat(p)


def _list_or_fail(value, damaged) -> list:
    if type(value) is not list:
        raise damaged("a list in 'log' is not a list")
    return value
