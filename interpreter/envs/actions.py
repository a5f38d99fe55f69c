"""A ruleset at a player count -> a fixed numbering of every option a player can be offered (Discrete(N)); at
each decision, the legal indices and the option each one takes.

Every option belongs to a *kind*: a named action (wherever a step or a `choose` offers it), a `choose` with
arguments of its own, the items of a subset argument being picked, `pass` or `done`. A kind has a block of
indices, one per combination of its arguments' values, laid out by argument slots (mixed radix). Each slot
numbers the values its domain can give (domains.py): a player by seat relative to the chooser (0 is the
chooser, 1 the next player); a card the chooser can see by its face (cards alike share one), a card it cannot
see by the place it lies (zone and relative owner); a list of cards (a group) by its lowest face; numbers,
texts and written-out lists by value. So an index names the same move in every state: "lay the red
cards in row 2 on the left", "take the offer of the player after you, giving red".

Two options whose index and meaning are the same (two cards alike of one hand) are one index, and the first in
the engine's order is taken. An option that shares its index with a different one (a combination of cards
whose lowest face another combination has), or whose value lies outside its slot's vocabulary, takes the next
free index of the overflow, OVERFLOW indices at the end, in the engine's order. Beyond that an option cannot
be chosen (`Encoded.lost` counts them; no bundled ruleset comes near).
"""
from __future__ import annotations

from math import prod

from ..engine.nodes import Choose
from ..engine.view import seen_cards
from ..runtime.values import Card, Player
from .domains import Reader, Values, const_key

OVERFLOW = 64


class Places:
    """The places a player cannot see into, relative to that player: (zone, member, relative owner)."""

    def __init__(self, rs, layout, n: int):
        self.n = n
        self.names = []        # how each hidden place reads
        self.index = []        # seat -> slot -> hidden place index (-1: the seat sees the slot's cards)
        for me in range(n):
            self.index.append([-1] * layout.total)
        for z in rs.zone_list:
            for m, member in enumerate(z.member_keys(layout.size[z.zid])):
                for r in (range(n) if z.per_player else [None]):
                    level = z.others_see if r is None or r > 0 else z.owner_sees
                    if level == "cards":
                        continue
                    k = len(self.names)
                    where = z.name if member is None else f"{z.name}[{member}]"
                    self.names.append(where if r is None else f"{where} of {relative_name(r)}")
                    for me in range(n):
                        owner = None if r is None else (me + r) % n
                        self.index[me][layout.slot(z, owner, m)] = k


def relative_name(r: int) -> str:
    return "you" if r == 0 else "the next player" if r == 1 else f"the player {r} seats on"


class Slot:
    """One argument of a kind: the block where each sort of value starts in its numbering, and its size."""

    def __init__(self, name: str, values: Values, n: int, faces: int, hidden: int):
        self.name = name
        at = 0

        def block(present, size):
            nonlocal at
            if not present:
                return -1
            start, at = at, at + size
            return start
        self.players_at = block(values.players, n)
        self.cards_at = block(values.cards, faces + hidden)
        self.lists_at = block(values.lists, faces + hidden + 1)
        self.ints = values.ints
        self.ints_at = block(values.ints > 0, values.ints)
        consts = sorted((c for c in values.consts if not (type(c) is int and 0 <= c < self.ints)), key=_order)
        self.consts = {c: at + i for i, c in enumerate(consts)}
        self.const_list = consts
        self.size = max(at + len(consts), 1)
        self.faces = faces
        self.empty = faces + hidden   # the code of an empty list, in the lists block

    def code(self, v, d) -> int:
        """Where value `v` lies in this slot for decision `d`, or -1 (outside the vocabulary)."""
        t = type(v)
        if t is Card:
            if self.cards_at < 0:
                return -1
            c = d.card(v)
            return -1 if c < 0 else self.cards_at + c
        if t is Player:
            return self.players_at + (v - d.me) % d.n if self.players_at >= 0 else -1
        if t is int:
            if 0 <= v < self.ints:
                return self.ints_at + v
            return self.consts.get(v, -1)
        if t is str:
            return self.consts.get(v, -1)
        if t is list or t is tuple:
            # a list of cards (an empty one too, unless the empty list is one of the slot's constants)
            if self.lists_at >= 0 and ((v and type(v[0]) is Card) or (not v and () not in self.consts)):
                c = d.group(v, self.empty)
                return -1 if c < 0 else self.lists_at + c
        return self.consts.get(const_key(v), -1)

    def describe(self, i: int, layout) -> str:
        """What code `i` of this slot means, in words."""
        for start, size, what in ((self.players_at, layout.n, "player"), (self.cards_at, self.empty, "card"),
                                  (self.lists_at, self.empty + 1, "list"), (self.ints_at, self.ints, "int")):
            if start >= 0 and start <= i < start + size:
                k = i - start
                if what == "player":
                    return relative_name(k)
                if what == "int":
                    return str(k)
                if what == "list" and k == self.empty:
                    return "no cards"
                card = layout.face_name(k) if k < self.faces else f"an unseen card in {layout.places.names[k - self.faces]}"
                return card if what == "card" else f"cards from {card} up"
        for c, at in self.consts.items():
            if at == i:
                return _show(c)
        return "?"


def _order(c):
    """Constants in a stable order: by kind, numbers by value, the rest by their text."""
    number = isinstance(c, (int, float)) and not isinstance(c, bool)
    return (type(c).__name__, c if number else 0, "" if number else repr(c))


def _show(c) -> str:
    if isinstance(c, tuple) and len(c) == 2 and c[0] == "bool":
        return "true" if c[1] else "false"
    if isinstance(c, tuple):
        return "[" + ", ".join(_show(x) for x in c) + "]"
    return "none" if c is None else str(c)


class Kind:
    """A block of indices: one action (or choice, or pick) and its argument slots, laid out in mixed radix."""

    def __init__(self, name: str, slots: list, offset: int):
        self.name, self.slots, self.offset = name, tuple(slots), offset
        self.size = prod(s.size for s in self.slots) if self.slots else 1

    def code(self, args, d) -> int:
        if not self.slots:
            return self.offset
        i = 0
        for slot, v in zip(self.slots, args):
            t = type(v)   # the common values inline (this runs for every option of every decision)
            if t is str:
                c = slot.consts.get(v, -1)
            elif t is int and 0 <= v < slot.ints:
                c = slot.ints_at + v
            else:
                c = slot.code(v, d)
            if c < 0:
                return -1
            i = i * slot.size + c
        return self.offset + i

    def describe(self, i: int, layout) -> str:
        parts, rest = [], i - self.offset
        for slot in reversed(self.slots):
            rest, c = divmod(rest, slot.size)
            parts.append(f"{slot.name}={slot.describe(c, layout)}")
        return self.name + (" " + ", ".join(reversed(parts)) if parts else "")


class ActionLayout:
    """The numbering of a ruleset's options at one player count and set of parameters (see the module)."""

    def __init__(self, rs, players: int, params: dict):
        self.rs, self.n = rs, players
        layout = rs.layout(players, params)
        self.face = rs.faces
        self.face_count = max(rs.faces) + 1 if rs.faces else 0
        self.by_back = rs.by_back
        self.places = Places(rs, layout, players)
        reader = Reader(rs, layout, params)
        hidden = len(self.places.names)
        self.kinds = []
        offset = 0

        def add(name, slots_of):
            nonlocal offset
            slots = [Slot(a, reader.domain(d, d.kind), players, self.face_count, hidden) for a, d in slots_of]
            kind = Kind(name, slots, offset)
            self.kinds.append(kind)
            offset += kind.size
            return kind
        decisions = [node for node in rs.nodes if isinstance(node, Choose)]
        self.pass_kind = add("pass", []) if any(node.optional for node in decisions) else None
        subsets = [c for c in rs.actions.values() if c.subsets]
        subsets += [node.choice for node in decisions if node.actions is None and node.choice.subsets]
        self.done_kind = add("done", []) if subsets else None
        by_action = {}
        for action in rs.actions.values():
            if any(node.actions is not None and action in node.actions for node in decisions):
                by_action[id(action)] = add(action.name, zip(action.arg_names, action.domains))
        # node id -> the kind of each of its option's action indexes
        self.node_kinds = {}
        for node in decisions:
            if node.actions is not None:
                self.node_kinds[node.id] = [by_action[id(a)] for a in node.actions]
            else:
                name = f"choose ({_prompt(node)})"
                self.node_kinds[node.id] = [add(name, zip(node.choice.arg_names, node.choice.domains))]
        self.pick_kinds = {}
        for choice in subsets:
            for j, sub in enumerate(choice.subsets):
                name = f"{_choice_name(choice, decisions)}: pick {sub.name}"
                self.pick_kinds[(id(choice), j)] = add(name, [(sub.name, sub.domain)])
        self.overflow_at = offset
        self.size = offset + OVERFLOW
        # the points of decision an observation names: each decision node, and each subset being picked
        self.points = [node.id for node in decisions] + list(self.pick_kinds)
        self.point_names = [f"{type(node).__name__.lower()} {_prompt(node)}" for node in decisions] + \
                           [k.name for k in self.pick_kinds.values()]
        self.point_index = {p: i for i, p in enumerate(self.points)}

    def face_name(self, face: int) -> str:
        for c, f in enumerate(self.face):
            if f == face:
                return self.rs.card_labels[c]
        return f"face {face}"

    def describe(self, index: int) -> str:
        """What action `index` means, in words ("lay cards=red 3, row=1, side=left"; "overflow 3")."""
        if not 0 <= index < self.size:
            return f"no action {index} (there are {self.size})"
        if index >= self.overflow_at:
            return f"overflow {index - self.overflow_at} (an option with no index of its own, in the engine's order)"
        for kind in self.kinds:
            if kind.offset <= index < kind.offset + kind.size:
                return kind.describe(index, self)
        return "?"

    def picking(self, game):
        """(choice, subset index) of the subset being picked now, or None (read from the pick's hold frame)."""
        g = game.state
        if g.pending is None or g.pending[0] != self.rs.pick_node:
            return None
        data = g.stack[-1][4]
        choice = self.rs.nodes[data["origin"]].choice_of(data["i"])
        return choice, len(data["args"]) - len(choice.arg_names)

    def point(self, game) -> int:
        """The index of the point of decision pending now (see `points`), or -1."""
        g = game.state
        if g.pending is None:
            return -1
        picking = self.picking(game)
        if picking is not None:
            return self.point_index.get((id(picking[0]), picking[1]), -1)
        return self.point_index.get(g.pending[0], -1)

    def encode(self, game) -> "Encoded":
        """The pending decision's options by index."""
        g = game.state
        node_id, me, options = g.pending
        d = Decision(self, g, me)
        picking = self.picking(game)
        if picking is not None:
            table = [self.pick_kinds[(id(picking[0]), picking[1])]]
        else:
            table = self.node_kinds[node_id]
        taken, keys, over = {}, {}, self.overflow_at
        lost = 0
        for pos, option in enumerate(options):
            i, args = option
            if i < 0:
                kind = self.pass_kind if i == -1 else self.done_kind
            else:
                kind = table[i]
            index = kind.code(args, d) if kind is not None else -1
            if index >= 0:
                first = taken.get(index)
                if first is None:
                    taken[index] = pos
                    continue
                if d.key(options[first][1]) == d.key(args):
                    continue   # the same move as an option already numbered: one index
            key = (kind.offset if kind is not None else i, d.key(args))
            if key in keys:
                continue
            if over < self.size:
                keys[key] = over
                taken[over] = pos
                over += 1
            else:
                lost += 1
        return Encoded(me, taken, lost, over - self.overflow_at)


class Encoded:
    """A decision's options by index: `positions` maps each legal index to the engine's option number."""

    __slots__ = ("player", "positions", "lost", "overflow")

    def __init__(self, player, positions: dict, lost: int, overflow: int):
        self.player, self.positions, self.lost, self.overflow = player, positions, lost, overflow


class Decision:
    """What the chooser of one decision can tell apart: the faces of the cards it sees, the places of the others."""

    __slots__ = ("me", "n", "seen", "face", "faces", "by_back", "places", "g", "_where", "_groups")

    def __init__(self, layout: ActionLayout, g, me):
        self.me, self.n, self.g = int(me), layout.n, g
        self.seen = seen_cards(g, self.me)
        self.face, self.faces, self.by_back = layout.face, layout.face_count, layout.by_back
        self.places = layout.places.index[self.me]
        self._where = None
        self._groups = {}   # id of a list -> its code: an option list repeats one list in many options

    def slot_of(self, c) -> int:
        if self._where is None:
            self._where = {card: s for s, zone in enumerate(self.g.zones) for card in zone}
        return self._where.get(c, -1)

    def card(self, c) -> int:
        """A card's code: its face when the chooser sees it (or its back tells it), else its hidden place."""
        if c in self.seen or c in self.by_back:
            return self.face[c]
        s = self.slot_of(c)
        k = self.places[s] if s >= 0 else -1
        return -1 if k < 0 else self.faces + k

    def group(self, cards, empty: int) -> int:
        """A list of cards' code: the lowest face among them (faces come before places), or `empty`."""
        code = self._groups.get(id(cards))
        if code is None:
            if not cards:
                code = empty
            elif self.seen.issuperset(cards):
                code = min(map(self.face.__getitem__, cards))
            else:
                code = min(self.card(c) for c in cards)
                code = code if all(self.card(c) >= 0 for c in cards) else -1
            self._groups[id(cards)] = code
        return code

    def key(self, args) -> tuple:
        """What an option means to its chooser, whole: options with equal keys are the same move."""
        return tuple(self._value_key(v) for v in args)

    def _value_key(self, v):
        t = type(v)
        if t is Card:
            # a card seen: its face where it lies; a card unseen: only the place it lies in
            s = self.slot_of(v)
            if v in self.seen or v in self.by_back:
                return ("card", self.face[v], s)
            return ("unseen", self.places[s] if s >= 0 else -1)
        if t is Player:
            return ("player", (v - self.me) % self.n)
        if t is list or t is tuple:
            return ("list",) + tuple(sorted((self._value_key(x) for x in v), key=repr))
        return const_key(v)


def _prompt(node) -> str:
    prompt = node.prompt
    text = prompt if isinstance(prompt, str) else getattr(prompt, "text", "")
    return text or f"at {node.loc}"


def _choice_name(choice, decisions) -> str:
    for node in decisions:
        if node.actions is None and node.choice is choice:
            return f"choose ({_prompt(node)})"
    return choice.name
