"""Changing the situation: a `setup:` or `set:` mapping + a game -> the same game with its zones, variables,
counters and current player as written. Cards are moved, never made; the runner's staging zone holds
the cards it takes out of play."""
from __future__ import annotations

from ..errors import GameError
from ..expr.compiler import ExprError, compile_zone
from .words import ScenarioError, card_ids, expand, mapping, seat, show, players_prefix

SITUATION_KEYS = ("current", "turn", "round", "reservoir", "zones", "vars", "player_vars")
STAGING = "staging"   # the runner's own zone for cards out of play (a ruleset zone of this name wins)
STAGED = -1           # its slot number: no slot of the game's state has it


def zone_slot(game, key, me: int = 0, path: tuple = ()) -> int:
    """The state slot a zone key names: 'deck', 'row[1]', 'P1.hand', 'me.hand' ..."""
    text, shift = players_prefix(str(key), game.state.n, path)
    try:
        return compile_zone(text, game.rs.names)(game.state, {"me": me}, None)
    except ExprError as exc:
        try:
            if "not a zone" in exc.message:
                game.rs.expression(text)    # the expression compiler says which name is unknown
        except ExprError as better:
            exc = better
        raise ScenarioError(f"'{key}' is not a zone: {exc.message}", path, max(exc.offset - shift, 0), True) from None
    except (GameError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(str(exc), path, key=True) from None


def slot_places(game) -> dict:
    """Each state slot's zone: its name and where it is in a view of the zones (a player as 'P2', then a
    member's number or key; empty for a single shared zone)."""
    places = {}
    for zone in game.rs.zones.values():
        for slot, owner, key in game.state.layout.slots(zone):
            places[slot] = (zone.name, (() if owner is None else (f"P{owner + 1}",)) + (() if key is None else (key,)))
    return places


def place_name(name: str, place: tuple) -> str:
    """A zone as a scenario writes it: deck, row[1], P2.hand, P2.stall["red"]."""
    out = name
    for part in place:
        if isinstance(part, str) and part.startswith("P") and part[1:].isdigit() and out == name:
            out = f"{part}.{out}"
        else:
            out += f"[{part}]" if isinstance(part, int) else f'["{part}"]'
    return out


class Table:
    """The game's zones as the runner handles them: slots by key, their cards, and the staging zone."""

    def __init__(self, game):
        self.game, self.rules = game, game.rs
        self.staged = []   # card ids taken out of play by the scenario
        self.places = slot_places(game)
        self.names = {s: place_name(*place) for s, place in self.places.items()}
        self.names[STAGED] = STAGING
        self.home = {c: s for s, cards in game.rs.initial_cards.items() for c in cards}

    def is_staging(self, key) -> bool:
        return str(key) == STAGING and STAGING not in self.rules.zones

    def slot(self, key, me: int, path: tuple) -> int:
        return STAGED if self.is_staging(key) else zone_slot(self.game, key, me, path)

    def cards(self, slot: int) -> list:
        return self.staged if slot == STAGED else self.game.state.zones[slot]

    def set_cards(self, slot: int, cards: list) -> None:
        if slot == STAGED:
            self.staged = cards
        else:
            self.game.state.zones[slot] = cards

    def labels(self, slot: int) -> list:
        return [self.rules.card_labels[c] for c in self.cards(slot)]

    def where(self, ids) -> str:
        """Where cards are: 'row[0] has 3, P1.hand has 7'."""
        counts = {}
        for s in [STAGED] + list(range(len(self.game.state.zones))):
            k = sum(1 for c in self.cards(s) if c in ids)
            if k:
                counts[self.names.get(s, f"slot {s}")] = k
        return ", ".join(f"{name} has {k}" for name, k in counts.items()) or "nowhere"

    def arrange(self, slot: int, wanted: list, top: bool, reservoir, placed: set, path: tuple) -> None:
        """Give a zone these cards (or put them on its top), taken from their reservoir, the staging zone, or any
        other zone, but never one of the cards `placed` already (which this adds to); the zone's old cards go back
        to their reservoir (to staging if that is this zone)."""
        def source(c):
            return self.home.get(c, STAGED) if reservoir is None else reservoir

        if not top:
            old = self.cards(slot)
            self.set_cards(slot, [])
            for c in old:
                back = source(c)
                if back == slot:
                    back = STAGED if slot != STAGED else self.home.get(c, STAGED)
                self.cards(back).append(c)
        chosen = []
        for text, ids in wanted:
            ids = set(ids)
            first = source(min(ids))
            order = [first, STAGED] + [s for s in range(len(self.game.state.zones)) if s not in (slot, first)]
            for s in order + ([slot] if top else []):
                card = next((c for c in self.cards(s) if c in ids and c not in placed), None)
                if card is not None:
                    self.cards(s).remove(card)
                    chosen.append(card)
                    placed.add(card)
                    break
            else:
                here = sum(1 for c in chosen if c in ids)
                if here == len(ids):
                    raise ScenarioError(f"no free card {show(text)} is left: this zone takes all {here} already", path)
                raise ScenarioError(f"no free card {show(text)} is left: all {len(ids)} are placed already ("
                                    + self.where(ids) + (f", and this zone takes {here}" if here else "") + ")", path)
        self.set_cards(slot, chosen + (self.cards(slot) if top else []))


def situate(run, spec, path: tuple) -> None:
    """Apply a `setup:` or `set:` mapping in the documented order, then ask the pending decision again."""
    spec = mapping(spec, path, SITUATION_KEYS, path[-1] if path[-1] == "setup" else "set")
    game, table = run.game, run.table
    g = game.state
    # the arranging changes the zones' lists in place: lists of this game's own, not those a clone of it may
    # share (elsewhere a zone's list is replaced by a write, never changed: runtime/effects.py)
    g.zones = [zone[:] for zone in g.zones]
    if "current" in spec:
        make_current(game, seat(spec["current"], g.n, path + ("current",), key=False))
    for counter in ("turn", "round"):
        if counter in spec:
            value = spec[counter]
            if type(value) is not int or value < 0:
                raise ScenarioError(f"{counter}: expected a whole number, 0 or more", path + (counter,))
            setattr(g, counter, value)
    for name, value in mapping(spec.get("vars", {}), path + ("vars",), tuple(g.vars), "vars").items():
        g.vars[name] = seat_value(g, g.vars[name], value, path + ("vars", name))
    pvars = mapping(spec.get("player_vars", {}), path + ("player_vars",), [f"P{i + 1}" for i in g.players],
                    "player_vars")
    for who, values in pvars.items():
        where = path + ("player_vars", who)
        for name, value in mapping(values, where, tuple(g.pvars), f"player_vars of {who}").items():
            p = seat(who, g.n, where)
            g.pvars[name][p] = seat_value(g, g.pvars[name][p], value, where + (name,))
    reservoir = None
    if "reservoir" in spec:
        reservoir = table.slot(spec["reservoir"], run.me, path + ("reservoir",))
    placed = set()    # the cards this setup or set has placed: no later zone of it takes them
    for key, want in mapping(spec.get("zones", {}), path + ("zones",), None, "zones").items():
        where = path + ("zones", key)
        slot = table.slot(key, run.me, where)
        top = isinstance(want, dict)
        if top:
            mapping(want, where, ("top",), f"zone {key}")
            where, want = where + ("top",), want.get("top", [])
        wanted = [(s, card_ids(run.rules, s, where + (i,))) for i, s in enumerate(expand(want, where))]
        table.arrange(slot, wanted, top, reservoir, placed, where)
    try:
        game.reconsider()
    except GameError as exc:
        raise ScenarioError(f"the game stopped after this {'setup' if path == ('setup',) else 'set'}: {exc}",
                            path) from None


def seat_value(g, old, new, path: tuple):
    """A variable's new value; a player is written P1, P2 ... where the variable holds a seat number."""
    if isinstance(old, int) and not isinstance(old, bool) and isinstance(new, str):
        return seat(new, g.n, path, key=False)
    return new


def make_current(game, player: int) -> None:
    """Make `player` the current one: the frames of the turn that named the old one now name them."""
    g = game.state
    old, g.current = g.current, player
    for frame in g.stack:
        if frame[2].get("me") == old:
            frame[2]["me"] = player
