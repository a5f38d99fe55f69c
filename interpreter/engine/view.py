"""Project a game state through the zones' and variables' visibility: state + player -> what that player may know."""
from __future__ import annotations

from ..runtime.values import Card, Player, seat_name

# What one player is shown of a zone: every card, the count and the top card, only the count, or nothing.
LEVELS = ("cards", "top", "count", "none")
# The words of `visibility:` (see the compiler for their meaning per zone kind).
VISIBILITIES = ("public", "owner", "count", "top", "hidden")
HIDDEN = {"hidden": True}


class Viewer:
    """Shows cards for one player: labels (or ids), with the card variables they may see."""

    def __init__(self, game, player: int | None, ids: bool):
        self.onlooker = player is None
        # an onlooker has no seat's number: owns nothing, was shown nothing
        self.game, self.player, self.ids = game, -1 if player is None else player, ids
        rs = game.rs
        self.labels = rs.card_labels
        self.card_vars = rs.card_vars
        self._visible = None

    def visible(self) -> set:
        """The cards this player may see where they lie now (and the cards shown to them)."""
        if self._visible is None:
            g, seen = self.game.state, set()
            for z in self.game.rs.zones.values():
                for slot, owner, _ in g.layout.slots(z):
                    level = self.level(z, owner)
                    if level == "cards":
                        seen.update(g.zones[slot])
                    elif level == "top":
                        seen.update(g.zones[slot][:1])
            seen.update(c for c, who in g.known.items() if self.player in who)
            self._visible = seen
        return self._visible

    def level(self, z, owner) -> str:
        """What this player is shown of a zone (of `owner`'s copy). An onlooker is shown of a player's zone
        what both its owner and the others are (a card that only the others see is not public)."""
        if self.onlooker and owner is not None:
            return max(z.owner_sees, z.others_see, key=LEVELS.index)
        return z.level(self.player, owner)

    def card(self, c, seen: bool = True):
        """One card as shown: its label (or id); a map with its variables where the ruleset has any."""
        shown = int(c) if self.ids else self.labels[c]
        if not self.card_vars:
            return shown
        out = {"card": shown}
        cvars = self.game.state.cvars
        for name, spec in self.card_vars.items():
            if seen or spec.visible == "public":
                out[name] = self.value(cvars[name][c])
        return out

    def cards(self, cards, ordered: bool = True):
        shown = [self.card(c) for c in cards]
        if ordered or self.ids:
            return shown
        return sorted(shown, key=lambda x: x["card"] if isinstance(x, dict) else x)

    def value(self, v):
        """A variable's value as shown: players as P2, cards by label, lists item by item. A card is shown
        only to a player who may see it where it lies (or was shown it): a variable never leaks a card."""
        t = type(v)
        if t is Player:
            return seat_name(v)
        if t is Card:
            if v not in self.visible():
                return dict(HIDDEN)
            return int(v) if self.ids else self.labels[v]
        if t is list or t is tuple:
            return [self.value(x) for x in v]
        return v

    def zone(self, z, cards, owner):
        level = self.level(z, owner)
        if level == "cards":
            return self.cards(cards, z.ordered)
        if level == "none":
            out = dict(HIDDEN)
        else:
            out = {"count": len(cards)}
            if level == "top":
                out["top"] = [self.card(c) for c in cards[:1]]
        known = self.game.state.known
        if known:
            mine = [[i, self.card(c)] for i, c in enumerate(cards)
                    if self.player in known.get(c, ()) and not (level == "top" and i == 0)]
            if mine:
                out["known"] = mine
        public = [name for name, spec in self.card_vars.items() if spec.visible == "public"]
        if public and level != "none" and cards:
            # values everyone sees on the cards' backs (tokens), in zone order
            out["backs"] = [{name: self.value(self.game.state.cvars[name][c]) for name in public} for c in cards]
        return out


def view(game, player: int | None, ids: bool = False) -> dict:
    """Everything `player` may see: visible cards as labels (or ids), other zones as counts or nothing.

    Player None is an onlooker, who sits at no seat: shown only what every player may see (what
    `others_see` allows, no owner's share, no card revealed to someone, no private variable)."""
    rs, g = game.rs, game.state
    v = Viewer(game, player, ids)
    onlooker, player = v.onlooker, v.player
    zones = {}
    layout = g.layout
    for zone in rs.zones.values():
        keyed = zone.keys is not None
        if zone.per_player:
            shown = {seat_name(p): {} if keyed else [] for p in range(g.n)}
            for slot, p, key in layout.slots(zone):
                entry = v.zone(zone, g.zones[slot], p)
                if not zone.is_family:
                    shown[seat_name(p)] = entry
                elif keyed:
                    shown[seat_name(p)][key] = entry
                else:
                    shown[seat_name(p)].append(entry)
            zones[zone.name] = shown
        elif zone.is_family:
            members = [(key, v.zone(zone, g.zones[slot], None)) for slot, _, key in layout.slots(zone)]
            zones[zone.name] = dict(members) if keyed else [entry for _, entry in members]
        else:
            zones[zone.name] = v.zone(zone, g.zones[zone.slot], None)
    specs = rs.var_specs
    out = {
        "player": None if onlooker else seat_name(player),
        "current": seat_name(g.current),
        "round": g.round,
        "turn": g.turn,
        "zones": zones,
        "vars": {k: v.value(x) for k, x in g.vars.items() if _visible(specs, k) != "nobody"},
        "player_vars": {
            k: {seat_name(p): v.value(x[p]) if _visible(specs, k) == "public" or p == player else dict(HIDDEN)
                for p in range(g.n)}
            for k, x in g.pvars.items() if _visible(specs, k) != "nobody"},
    }
    if g.result is not None:
        out["result"] = g.result
    return out


def _visible(specs, name) -> str:
    spec = specs.get(name)
    return "public" if spec is None else spec.visible


# what a seat can identify, how it is told its options, what it is shown (for bots' replays) ------------

def seen_cards(g, player) -> set:
    """The cards `player` can identify where they lie now: every card of a zone it sees, the top card of a
    zone whose top it sees, and the cards shown to it (a bot asks it at every decision of its search)."""
    if not isinstance(player, int) or not 0 <= player < g.n:
        return set()
    zones = g.zones
    every, tops, _ = g.layout.seen[player]
    out = set().union(*[zones[s] for s in every])
    for s in tops:
        out.update(zones[s][:1])
    if g.known:
        out.update(c for c, who in g.known.items() if player in who)
    return out


def place_of(g, card) -> tuple | None:
    """(slot, position) of the zone a card lies in, or None."""
    for slot, zone in enumerate(g.zones):
        if card in zone:
            return slot, zone.index(card)
    return None


def place_text(game, slot: int, position: int) -> str:
    """A card by where it lies, for a player who cannot see which card it is: "card 2 of P2's hand"."""
    return f"card {position + 1} of {game.rs.slot_name(slot, game.state.layout)}"


def told_format(game, player, unseen_as: str | None = None):
    """`Game.format` as `player` is told its options and prompts: a card it cannot identify where it lies
    is written as its place ("card 2 of P2's hand"), never by its label, so that two games the player
    cannot tell apart offer it the same labels. A card whose back tells which card it is (every card of
    its type alike) keeps its label. Where the cards lie is read once, when the first card is formatted
    (labels that name no card cost nothing more). A seat that is no player's sees nothing it is not shown.
    `unseen_as`: a text for every such card instead of its place (the log's "a card")."""
    plain = type(game).format.__get__(game)
    seen = None

    def fmt(value, kind="any"):
        nonlocal seen
        t = type(value)
        if t is Card or (t is int and kind == "card"):
            if seen is None:
                seen = seen_cards(game.state, player)
            if value not in seen and value not in game.rs.by_back:
                if unseen_as is not None:
                    return unseen_as
                where = place_of(game.state, value)
                if where is not None:
                    return place_text(game, *where)
        return plain(value, kind)
    return fmt


def observation(g, player: int, rs) -> tuple:
    """What `player` is shown now, as a value to compare: the faces of the cards of the zones it sees
    (sorted where their order does not matter; cards alike look the same), the count and top card of the
    others, the cards shown to it and where they lie, the turn, and the variables and card variables it
    may read. Cheaper than the view, for the replays of engine/belief.py."""
    zones = g.zones
    every, tops, counted = g.layout.seen[player]
    face = rs.faces.__getitem__   # cards alike look the same: compared by face, not by id
    shown = []
    for s in every:
        cards = tuple(map(face, zones[s]))
        shown.append(cards if g.layout.ordered[s] else tuple(sorted(cards)))
    for s in tops:
        shown.append(tuple(map(face, zones[s][:1])))
    counts = tuple(len(zones[s]) for s in counted)
    known = tuple(sorted((place_of(g, c), face(c)) for c, who in g.known.items() if player in who)) if g.known else ()
    seen = None
    if rs.card_vars or any(type(v) not in _PLAIN for v in g.vars.values()) or \
            any(type(x) not in _PLAIN for t in g.pvars.values() for x in t):
        seen = seen_cards(g, player)

    def value(v):
        t = type(v)
        if t in _PLAIN:
            return v
        if t is Card:
            return face(v) if v in seen else None
        if t is list or t is tuple:
            return tuple(value(x) for x in v)
        if t is dict:
            return tuple((k, value(x)) for k, x in v.items())
        return v
    specs = rs.var_specs
    variables = tuple(value(v) for k, v in g.vars.items() if _visible(specs, k) != "nobody")
    mine = tuple(tuple(value(x) if _visible(specs, k) == "public" or p == player else None
                       for p, x in enumerate(t)) for k, t in g.pvars.items() if _visible(specs, k) != "nobody")
    cvars = ()
    if rs.card_vars:
        # what lies on the cards: on the backs of those in the zones it is shown (public variables), on
        # the faces of those it sees (the others)
        cvars = []
        for name, spec in rs.card_vars.items():
            values = g.cvars[name]
            if spec.visible == "public":
                cvars.append(tuple(tuple(value(values[c]) for c in zones[s]) for s in every + counted))
            else:
                cvars.append(tuple(sorted((face(c), repr(value(values[c]))) for c in seen)))
        cvars = tuple(cvars)
    return (g.current, g.round, g.turn, tuple(shown), counts, known, variables, mine, cvars, g.result is None)


_PLAIN = frozenset((int, str, bool, float, type(None), Player))