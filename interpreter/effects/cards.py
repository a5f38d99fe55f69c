"""The effects on cards: `move`, `deal`, `shuffle` and `sort`."""
from __future__ import annotations

from lark import Tree

from ..errors import did_you_mean
from ..expr.compiler import ExprError, Scope, has_tree, member_of
from ..runtime.effects import FREE_COPY, FRONT_WORDS
from ..expr.parser import parse
from .base import Effect, ref
from .text import END_WORDS, cards, code, end_of

END = ("start/left/top/first/front or end/right/bottom/last/back, or an expression giving one")


class Move(Effect):
    """`move`: cards between zones, a count from one end or given cards; refill an empty source first."""

    key = "move"
    text = "Move cards from one zone to another: a number of cards from one end, or given cards."
    about = "Where from, where to, and which cards."
    fields_text = "What a 'move' does: from, to, and either count or cards."
    fields = {
        "from": ref("zone_ref", "The zone the cards leave, as in deck or 'row[r]'."),
        "to": ref("zone_ref", "The zone the cards go to, as in me.hand."),
        "count": ref("expression", "How many cards, taken from one end: a number, an expression or all. Default 1. "
                                   "Not together with cards."),
        "cards": ref("expression", "Exactly which cards to move, as in chosen or 'take(pile, 2)'. Not together "
                                   "with count."),
        "take": ref("expression", f"The end of 'from' the cards come from: {END}. Default start."),
        "at": ref("expression", f"The end of 'to' the cards go to: {END}. Default end."),
        "if_empty": ref("effect_list", "Effects run when 'from' (even after refilling) had too few cards; the cards "
                                       "there were are still moved."),
    }
    required = ("from", "to")
    pushes = True

    def __init__(self, src, dst, count, cards, take, at, if_empty_block):
        self.src, self.dst, self.count, self.cards = src, dst, count, cards
        self.take, self.at, self.if_empty = take, at, if_empty_block
        # what `cards` gives is checked to be cards unless its kind says so when the ruleset loads
        self.unsure = cards is not None and getattr(cards, "kind", "any") not in ("card", "cards")

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + ("move",)
        f = c.fields(p, value, cls.fields, ("to",))
        ctx = c.ctx
        if "from" not in f:
            ctx.fail(p, "missing 'from': say which zone the cards leave", "missing-field")
        if "count" in f and "cards" in f:
            ctx.fail(p + ("cards",), "give either 'count' or 'cards', not both", "effect", key=True)
        src = ctx.zone(p + ("from",), scope)
        dst = ctx.zone(p + ("to",), scope)
        count = None
        if "cards" not in f:
            k = f.get("count", 1)
            count = None if k == "all" else ctx.expr(p + ("count",), scope, value=k)
        chosen = ctx.expr(p + ("cards",), scope) if "cards" in f else None
        take = end_word(c, p + ("take",), f["take"], scope) if "take" in f else None
        at = end_word(c, p + ("at",), f["at"], scope) if "at" in f else None
        if_empty = c.block(p + ("if_empty",), scope) if "if_empty" in f else None
        return cls(src, dst, count, chosen, take, at, if_empty)

    def blocks(self):
        return () if self.if_empty is None else (self.if_empty,)

    def emit(self, w, py):
        s, d = w.expr(self.src, py), w.expr(self.dst, py)
        at = "None" if self.at is None else w.const(self.at, "K_at")
        if self.cards is not None:
            text = w.const(self.text, 'S_text')
            word = getattr(self.at, "word", None)
            if self.unsure or (self.at is not None and word is None and not has_tree(self.at)):
                w.add(f"N_move_cards(vm, g, {s}, {d}, {w.expr(self.cards, py)}, {at}, {w.env(py)}, {text}, {bool(self.unsure)})")
                return
            self.emit_inline(w, py, s, d, at, text, word)
            return
        k = "None" if self.count is None else w.expr(self.count, py)
        take = "None" if self.take is None else w.const(self.take, "K_take")
        taken = getattr(self.take, "word", None)
        word = getattr(self.at, "word", None)
        if ((self.take is not None and taken is None) or (self.at is not None and word is None and not has_tree(self.at))
                or (self.count is None and self.if_empty is not None)):
            w.call_or_else(f"N_move_top(vm, g, {s}, {d}, {k}, {take}, {at}, {w.env(py)}, g.layout.refill)",
                           self.if_empty, py)
            return
        # the shortest way of runtime/effects.move_top inline: k cards there (no refill), or all of them,
        # nothing recorded; anything else is left to move_top
        vs, vd, vk, zs, vc = w.fresh("s"), w.fresh("d"), w.fresh("k"), w.fresh("z"), w.fresh("c")
        w.add(f"{vs} = {s}")
        w.add(f"{vd} = {d}")
        if self.count is None:   # all the cards: never short, nothing to refill, nothing done for none
            w.add(f"{zs} = g.zones[{vs}]")
            w.add("if vm.record:")
            w.add(f"    N_move_top(vm, g, {vs}, {vd}, None, {take}, {at}, {w.env(py)}, g.layout.refill)")
            w.add(f"elif {zs}:")
            with w.indent():
                w.add(f"{vc} = {zs}")
                w.add(f"g.zones[{vs}] = []")
                self.place(w, py, vd, vc, word)
                self.forgotten(w, vs, vd, vc)
            return
        w.add(f"{zs} = g.zones[{vs}]")
        if k.isdigit() and int(k) > 0:
            # a count written in the ruleset: a whole number above 0, so only whether there are enough is asked
            vk = k
            w.add(f"if vm.record or len({zs}) < {vk}:")
        else:
            w.add(f"{vk} = {k}")
            w.add(f"if vm.record or type({vk}) is not int or not 0 < {vk} <= len({zs}):")
        with w.indent():
            w.call_or_else(f"N_move_top(vm, g, {vs}, {vd}, {vk}, {take}, {at}, {w.env(py)}, g.layout.refill)",
                           self.if_empty, py)
        w.add("else:")
        with w.indent():
            if taken is None or taken in FRONT_WORDS:
                w.add(f"{vc} = {zs}[:{vk}]")
                w.add(f"g.zones[{vs}] = {zs} = {zs}[{vk}:]")
            else:
                w.add(f"{vc} = {zs}[-{vk}:]")
                w.add(f"g.zones[{vs}] = {zs} = {zs}[:-{vk}]")
            self.paid(w, zs)
            self.place(w, py, vd, vc, word)
            self.forgotten(w, vs, vd, vc)

    def emit_inline(self, w, py, s, d, at, text, word) -> None:
        """Given cards moved by generated code where runtime/effects.move_cards would take its shortest way (a
        short list of cards from a short zone, nothing recorded): the same cards removed and placed, the same
        error for a card not there, the same cards forgotten; anything else is left to move_cards."""
        vs, vd, vc, zs = w.fresh("s"), w.fresh("d"), w.fresh("c"), w.fresh("z")
        w.add(f"{vs} = {s}")
        w.add(f"{vd} = {d}")
        w.add(f"{vc} = {w.expr(self.cards, py)}")
        w.add(f"{zs} = g.zones[{vs}]")
        w.add(f"if type({vc}) is not list or vm.record or len({vc}) > 8 or len({zs}) > 64 or {vc} is {zs}:")
        w.add(f"    N_move_cards(vm, g, {vs}, {vd}, {vc}, {at}, {w.env(py)}, {text}, False)")
        w.add(f"elif {vc}:")
        with w.indent():
            x = w.fresh("x")
            w.add(f"g.zones[{vs}] = {zs} = {zs}[:]")
            w.add("try:")
            w.add(f"    for {x} in {vc}:")
            w.add(f"        {zs}.remove({x})")
            w.add("except ValueError:")
            w.add(f"    raise N_card_not_in_zone({text}) from None")
            self.place(w, py, vd, vc, word)
            self.forgotten(w, vs, vd, vc)

    @staticmethod
    def forgotten(w, vs, vd, vc) -> None:
        """Cards that changed zone: their card variables back to their defaults (where the ruleset has some
        that reset) and whoever was shown them forgets them, as runtime/effects._place does."""
        w.add(f"if {'' if w.rs.card_resets else 'g.known and '}{vs} != {vd}:")
        w.add(f"    N_moved(vm, g, {vc})")

    @staticmethod
    def paid(w, zone) -> None:
        """A zone's new list `zone` paid for past FREE_COPY cards, as runtime/effects pays it."""
        w.add(f"if len({zone}) > {FREE_COPY}:")
        w.add(f"    g.work = _w = g.work - len({zone})")
        w.add("    if _w < 0:")
        w.add("        raise R_over_items()")

    def place(self, w, py, vd, vc, word) -> None:
        """The moved cards `vc` put at the end of slot `vd` that `at` names, in a new list (as
        runtime/effects._place puts them, and pays for them; `word`: the end, when the ruleset writes it)."""
        new = w.fresh("t")
        if self.at is None or (word is not None and word not in FRONT_WORDS):
            w.add(f"g.zones[{vd}] = {new} = g.zones[{vd}] + {vc}")
        elif word is not None:
            w.add(f"g.zones[{vd}] = {new} = {vc} + g.zones[{vd}]")
        else:   # a word given by an expression: read here as is_front reads it (a word for no end refused)
            word = w.fresh("w")
            w.add(f"{word} = {w.expr(self.at, py)}")
            w.add(f"if {word} in R_BACK_WORDS:")
            w.add(f"    g.zones[{vd}] = {new} = g.zones[{vd}] + {vc}")
            w.add(f"elif N_is_front({word}):")
            w.add(f"    g.zones[{vd}] = {new} = {vc} + g.zones[{vd}]")
        self.paid(w, new)

    @classmethod
    def explain(cls, f, _):
        """How many cards (or which), from where, to where."""
        what = f"the cards {code(f['cards'])}" if "cards" in f else cards(f.get("count", 1))
        src = end_of(f["take"], f["from"]) if "take" in f else code(f["from"])
        dst = end_of(f["at"], f["to"]) if "at" in f else code(f["to"])
        short = " If there are too few cards:" if f.get("if_empty") else ""
        return f"Move {what} from {src} to {dst}.{short}", [(None, f.get("if_empty"))]


def end_word(c, path, value, scope):
    """`at`/`take`: a word naming an end (compiled to a function giving it), or an expression giving one (a
    parameter's values are known: each must name an end)."""
    names = c.ctx.names
    if isinstance(value, str) and value in END_WORDS:
        fn = lambda g, e, it, v=value: v  # noqa: E731
        fn.word = value   # known at load: generated code places the cards without asking it
        return fn
    if isinstance(value, str) and c.valid_name(value) and value not in scope.locals and value not in names.all_names():
        c.ctx.fail(path, f"'{value}' names no end of a zone: use start, left, top, first, front "
                   "or end, right, bottom, last, back", "bad-end", did_you_mean(value, END_WORDS))
    if isinstance(value, str) and value in names.params and value not in scope.locals:
        for v in names.param_values.get(value, ()):
            if v not in END_WORDS:
                c.ctx.fail(path, f"parameter '{value}' may be {v!r}, which names no end of a zone: use start, "
                           "left, top, first, front or end, right, bottom, last, back", "bad-end",
                           did_you_mean(str(v), END_WORDS))
    return c.ctx.expr(path, scope)


class Deal(Effect):
    """`deal`: a number of cards to each of some players, one card at a time around the table."""

    key = "deal"
    text = "Deal cards one at a time around the table into each player's zone."
    about = "Where from, into which player zone, and how many each."
    fields_text = "What a 'deal' does: from, to, count, and optionally which players."
    fields = {
        "from": ref("zone_ref", "The zone the cards come from, as in deck."),
        "to": {"type": "string", "description": "A zone of each player, by name (hand), or one member of a family "
                                                "of each player (stall[\"red\"])."},
        "count": ref("expression", "How many cards each player gets."),
        "players": ref("expression", "Who gets cards, in order (default: every player)."),
        "if_empty": ref("effect_list", "Effects run when 'from' (even after refilling) runs out; dealing stops "
                                       "there."),
    }
    required = ("from", "to", "count")
    pushes = True

    def __init__(self, src, zid, member, count, players, if_empty_block):
        self.src, self.zid, self.member, self.count, self.players = src, zid, member, count, players
        self.if_empty = if_empty_block

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + ("deal",)
        f = c.fields(p, value, cls.fields, cls.required)
        ctx = c.ctx
        src = ctx.zone(p + ("from",), scope)
        zone, member = cls._target(c, p + ("to",), f["to"], scope)
        count = ctx.expr(p + ("count",), scope)
        players = ctx.who(p + ("players",), scope) if "players" in f else None
        if_empty = c.block(p + ("if_empty",), scope) if "if_empty" in f else None
        return cls(src, zone.zid, member, count, players, if_empty)

    @staticmethod
    def _target(c, path, to, scope):
        """`to: hand` (a zone of each player) or `to: 'stall["red"]'` (one member of a family of each
        player) -> (the zone, a callable giving the member or None)."""
        ctx, names = c.ctx, c.ctx.names
        if isinstance(to, str) and to in names.player_zones:
            names.used.add(("zone", to))
            return names.player_zones[to], None
        tree = None
        if isinstance(to, str):
            try:
                tree = parse(to)
            except ExprError:
                tree = None
        if isinstance(tree, Tree) and tree.data == "index" and isinstance(tree.children[0], Tree) \
                and tree.children[0].data == "name" and str(tree.children[0].children[0]) in names.player_families:
            zone = names.player_families[str(tree.children[0].children[0])]
            key_text = to[tree.children[1].meta.start_pos:tree.children[1].meta.end_pos]
            key = ctx.expr(path, scope, value=key_text)
            names.used.add(("zone", zone.name))
            return zone, member_of(zone, key)
        if isinstance(to, str) and to in names.player_families:
            ctx.fail(path, f"'{to}' is a family of zones of each player: say which one, as in '{to}[...]'",
                     "unknown-zone")
        zones = set(names.player_zones) | set(names.player_families)
        ctx.fail(path, f"'deal' gives to a zone of each player; '{to}' is not one", "unknown-zone",
                 did_you_mean(str(to), zones))

    def blocks(self):
        return () if self.if_empty is None else (self.if_empty,)

    def emit(self, w, py):
        s, k = w.expr(self.src, py), w.expr(self.count, py)
        who = "g.players" if self.players is None else \
            f"N_as_players(g, {w.expr(self.players, py)}, \"deal's players\")"
        member = ""
        if self.member is not None:   # one member of a family of each player (expr/compiler.py, member_of)
            member = f" + {w.member_of(self.member.zone, w.expr(self.member.key, py))} * g.n"
        w.call_or_else(f"N_deal(vm, g, {s}, g.zbase[{int(self.zid)}]{member}, {k}, {who}, "
                       f"g.layout.refill)", self.if_empty, py)

    @classmethod
    def explain(cls, f, _):
        """How many cards each player gets, one at a time around the table."""
        who = f"each of {code(f['players'])} in turn" if "players" in f else "each player in turn"
        short = " If the cards run out:" if f.get("if_empty") else ""
        return (f"Deal {cards(f['count'])} from {code(f['from'])} to the {code(f['to'])} of {who}, "
                f"one card at a time.{short}"), [(None, f.get("if_empty"))]


class Shuffle(Effect):
    """`shuffle`: one zone, with the game's random generator."""

    key = "shuffle"
    text = "Shuffle a zone, as in 'shuffle: deck'."
    value = ref("zone_ref", "The zone to shuffle.")

    def __init__(self, zone):
        self.zone = zone

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        return cls(c.ctx.zone(path + ("shuffle",) if fields else path, scope))

    def emit(self, w, py):
        w.add(f"N_shuffle(g, {w.expr(self.zone, py)})")

    @classmethod
    def explain(cls, zone, _):
        return f"Shuffle {code(zone)}.", []


class Sort(Effect):
    """`sort`: a zone's cards put in order of a key of each card (equal keys keep their order)."""

    key = "sort"
    text = "Put the cards of a zone in order of a value of each card, as in 'sort: {zone: me.hand, by: value}'."
    about = "Which zone, by what, and which way."
    fields_text = "What a 'sort' orders: a zone, by a value of each of its cards."
    fields = {
        "zone": ref("zone_ref", "The zone whose cards are put in order, as in me.hand or 'row[r]'."),
        "by": ref("expression", "The value of each card to order by: an attribute (value), or an expression of "
                                "the card as it (as in 'value * 10 + rank')."),
        "descending": {"type": "boolean", "description": "true: the greatest value first (default false: the "
                                                         "smallest first)."},
    }
    required = ("zone", "by")

    def __init__(self, zone, by, descending):
        self.zone, self.by, self.descending = zone, by, descending

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + ("sort",)
        f = c.fields(p, value, cls.fields, cls.required)
        descending = f.get("descending", False)
        if not isinstance(descending, bool):
            c.ctx.fail(p + ("descending",), "expected true or false", "type")
        zone = c.ctx.zone(p + ("zone",), scope)
        by = c.ctx.expr(p + ("by",), Scope(dict(scope.locals), "card"), random_ok=False)
        return cls(zone, by, descending)

    def emit(self, w, py):
        slot, card = w.fresh("slot"), w.fresh("c")
        w.add(f"{slot} = {w.expr(self.zone, py)}")
        w.add(f"N_sort_zone(g, {slot}, [{w.expr(self.by, py, card)} for {card} in R_walk(g, g.zones[{slot}])], "
              f"{self.descending})")

    @classmethod
    def explain(cls, f, _):
        order = "the greatest first" if f.get("descending") else "the smallest first"
        return f"Sort {code(f.get('zone'))} by {code(f.get('by'))}, {order}.", []
