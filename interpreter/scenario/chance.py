"""Random outcomes as an author writes them: a `random:` step's list + each draw of the game -> the items drawn."""
from __future__ import annotations

from .words import SEAT, ScenarioError, expand, is_number, show

EXPLICIT = ("card", "player", "value")


class Outcomes:
    """The outcomes a `random:` step gives, in order, for the draws of the game's generator in the next step."""

    def __init__(self, game, entries: list, path: tuple):
        self.game, self.entries, self.path = game, entries, path
        self.used = 0    # outcomes taken so far
        self.draws = 0   # draws the game made, with or without an outcome

    def __call__(self, op: str, items: list, k: int):
        self.draws += 1
        if self.used >= len(self.entries):
            return None
        i = self.used
        self.used += 1
        return resolve(self.game, op, items, k, self.entries[i], self.path + (i,))

    def unused(self) -> list:
        return self.entries[self.used:]


def resolve(game, op: str, items: list, k: int, entry, path: tuple) -> list:
    """The items of a draw that an outcome names: one for `random(...)`, k for `sample(..., k)`, and for a
    shuffle the first cards of the new order."""
    wanted = expand(entry, path) if isinstance(entry, list) else [entry]
    what = {"choice": "draws one item", "sample": f"draws {k} items", "shuffle": f"shuffles {len(items)} cards"}[op]
    if op == "choice" and len(wanted) != 1 or op == "sample" and len(wanted) != k or len(wanted) > len(items):
        raise ScenarioError(f"the game {what} here, but this outcome names {len(wanted)}: {show(entry)}", path)
    pool, out = list(items), []
    for want in wanted:
        index = pick(game, pool, want, op, path, items)
        out.append(pool.pop(index))
    return out


def pick(game, pool: list, want, op: str, path: tuple, items: list) -> int:
    """The position in `pool` of the item an author's word names: a card label, a player, a value, or
    {card: ...}, {player: ...}, {value: ...}, or card attributes."""
    labels, n = game.rs.card_labels, game.state.n
    ways = {"card": lambda x, w: is_number(x) and 0 <= x < len(labels) and labels[x] == show(w),
            "player": lambda x, w: is_number(x) and isinstance(w, str) and bool(SEAT.match(w)) and x == int(w[1:]) - 1
            and x < n,
            "value": lambda x, w: x == w if is_number(w) else isinstance(x, str) and x == show(w)}
    if isinstance(want, dict) and len(want) == 1 and next(iter(want)) in EXPLICIT:
        (way, want), = want.items()
        ways = {way: ways[way]}
    elif isinstance(want, dict):
        attrs = game.rs.cards
        ways = {"card": lambda x, w: is_number(x) and 0 <= x < len(attrs)
                and all(attrs[x].get(a) == v for a, v in w.items())}
    elif op == "shuffle":
        ways = {"card": ways["card"]}
    found = {}
    for way, test in ways.items():
        index = next((i for i, x in enumerate(pool) if test(x, want)), None)
        if index is not None:
            found[way] = index
    if len(set(found.values())) > 1:
        raise ScenarioError(f"'{show(want)}' could be the " + " or the ".join(found) + " of that name: write "
                            + " or ".join(f"{{{way}: {show(want)}}}" for way in found), path)
    if not found:
        def shown(x):
            if is_number(x) and 0 <= x < len(labels) and (op == "shuffle" or "card" in ways and want in labels):
                return labels[x]
            return f"P{x + 1}" if is_number(x) and isinstance(want, str) and SEAT.match(want) else x
        raise ScenarioError(f"'{show(want)}' is not among what the game draws from here: "
                            f"{show([shown(x) for x in items])}" + (" (some are taken by the outcome already)"
                                                                   if len(pool) < len(items) else ""), path)
    return next(iter(found.values()))
