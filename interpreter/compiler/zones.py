"""Compile the `zones` section -> zone definitions: visibility per audience, families and their sizes.

A mixin of the ruleset builder (ruleset.py): it uses the builder's context, names and cards.
"""
from __future__ import annotations

from ..layout import MAX_FAMILY
from ..engine.view import LEVELS, VISIBILITIES
from ..errors import did_you_mean
from ..ruleset import Zone
from .context import Abort, valid_name

ZONE_KEYS = {"per_player", "count", "keys", "visibility", "ordered", "refill_from", "text"}
VISIBILITY_KEYS = ("owner", "others")
# what a word of `visibility:` means: (what the owner sees, what the others see)
VISIBILITY_WORDS = {"public": ("cards", "cards"), "owner": ("cards", "count"), "count": ("count", "count"),
                    "top": ("top", "top"), "hidden": ("none", "none")}


class ZonesBuilder:
    """The `zones` section: single zones, numbered and keyed families, per player or shared."""

    def zones(self):
        ctx = self.ctx
        zones = self.section("zones", {})
        if not isinstance(zones, dict) or not zones:
            ctx.fail(("zones",), "expected a map of zone name: {visibility: ...}", "type")
        defs = {}
        slot = 0
        for name, spec in zones.items():
            path = ("zones", name)
            if not valid_name(name):
                self.guard(self._name, path, name)
                continue   # reported; the other zones are still checked
            spec = spec or {}
            if not isinstance(spec, dict):
                ctx.error(path, "a zone is a map such as {visibility: public}", "type")
                continue
            for k in spec:
                if k not in ZONE_KEYS:
                    ctx.unknown(path + (k,), "zone field", k, ZONE_KEYS, key=True)
            vis = spec.get("visibility", "public")
            z = Zone(name, bool(spec.get("per_player", False)), None, vis,
                     bool(spec.get("ordered", True)), spec.get("refill_from"), str(spec.get("text", "")))
            z.zid = len(defs)
            try:
                z.owner_sees, z.others_see = self._visibility(path + ("visibility",), vis, z.per_player)
            except Abort:
                pass   # reported; the zone stays public so that the rest can be checked
            try:
                z.count, z.keys = self._family(path, spec)
            except Abort:
                pass
            static = z.keys is not None or z.count is None or isinstance(z.count, int)
            if not z.per_player and static:
                z.slot = slot
                slot += z.size
            defs[name] = z
        for z in defs.values():
            if z.refill_from is not None:
                other = defs.get(z.refill_from)
                if other is None:
                    hint = did_you_mean(str(z.refill_from), list(defs))
                    ctx.error(("zones", z.name, "refill_from"), f"refill_from names no zone: there is no zone "
                              f"'{z.refill_from}'", "zone", hint)
                elif other is z:
                    # shuffling a zone into itself adds no card (and the engine would have to say what it does)
                    ctx.error(("zones", z.name, "refill_from"), f"a zone cannot refill from itself: name the zone "
                              f"whose cards are shuffled into '{z.name}' when it runs short (a discard pile)", "zone")
                elif other.is_family or z.is_family or (other.per_player and not z.per_player):
                    ctx.error(("zones", z.name, "refill_from"), "refill_from links a zone to a single zone: a "
                              "shared zone to a shared one, a player's zone to that player's own or to a shared "
                              f"one; '{z.refill_from}' cannot refill '{z.name}'", "zone")
        names = ctx.names
        names.shared_zones = {z.name: z.slot for z in defs.values() if not z.per_player and not z.is_family}
        names.families = {z.name: z for z in defs.values() if not z.per_player and z.is_family}
        names.player_zones = {z.name: z for z in defs.values() if z.per_player and not z.is_family}
        names.player_families = {z.name: z for z in defs.values() if z.per_player and z.is_family}
        names.fixed_slots = slot
        self.zone_defs = defs
        self.initial = {}
        for ctype, first, last, home, path in self.card_homes:
            if home is None:
                ctx.error(path, f"say where the cards of type '{ctype}' start, as in 'in: deck'", "missing-field")
            elif home not in names.shared_zones:
                ctx.unknown(path + ("in",), "shared zone", home, names.shared_zones, "unknown-zone")
            else:
                self.initial.setdefault(names.shared_zones[home], []).extend(self.card_values[first:last])

    def _family(self, path, spec):
        """`count:` (a number, a parameter or player_count) or `keys:` (a list, or {attribute: name}) ->
        (count, keys) of a family of zones; (None, None) for a single zone."""
        ctx = self.ctx
        if "count" in spec and "keys" in spec:
            ctx.fail(path + ("keys",), "a family has either a count or keys, not both", "zone", key=True)
        if "keys" in spec:
            keys = spec["keys"]
            kpath = path + ("keys",)
            if isinstance(keys, dict):
                if list(keys) != ["attribute"]:
                    ctx.fail(kpath, "keys is a list of values, or {attribute: name} for one zone per value of "
                             "a card attribute", "type")
                attr = keys["attribute"]
                table = ctx.names.card_attrs
                if attr not in table:
                    ctx.unknown(kpath + ("attribute",), "card attribute", attr, table)
                keys = [v for v in dict.fromkeys(table[attr]) if v is not None]
            if not isinstance(keys, list) or not keys or not all(isinstance(k, (int, str)) and not isinstance(k, bool)
                                                                  for k in keys):
                ctx.fail(kpath, "keys is a list of numbers or texts (or {attribute: name})", "type")
            if len(set(keys)) != len(keys):
                ctx.fail(kpath, "the keys of a family must be different", "zone")
            if len(keys) > MAX_FAMILY:
                ctx.fail(kpath, f"a family has at most {MAX_FAMILY} zones", "too-large")
            return None, list(keys)
        count = spec.get("count")
        if count is None:
            return None, None
        cpath = path + ("count",)
        if isinstance(count, bool) or not isinstance(count, (int, str)):
            ctx.fail(cpath, "count is a whole number, a parameter or player_count", "type")
        if isinstance(count, int):
            if not 1 <= count <= MAX_FAMILY:
                ctx.fail(cpath, f"count must be a whole number from 1 to {MAX_FAMILY}", "type")
            return count, None
        if count != "player_count":
            if count not in self.params:
                ctx.unknown(cpath, "parameter", count, list(self.params) + ["player_count"], "unknown-name")
            ctx.names.used.add(("param", count))
            values = self.params[count].values() if isinstance(self.params[count], dict) else [self.params[count]]
            if not all(type(v) is int and 1 <= v <= MAX_FAMILY for v in values):
                ctx.fail(cpath, f"the parameter '{count}' must be a whole number from 1 to {MAX_FAMILY} "
                         "to give the size of a family", "type")
        return count, None

    def _visibility(self, path, vis, per_player):
        """`visibility:` -> (what the owner sees, what the others see), each cards/top/count/none."""
        ctx = self.ctx
        if isinstance(vis, dict):
            if not per_player:
                ctx.fail(path, "a shared zone has no owner: its visibility is one word "
                         "(public, count, top or hidden)", "zone")
            for k in vis:
                if k not in VISIBILITY_KEYS:
                    ctx.unknown(path + (k,), "visibility field", k, VISIBILITY_KEYS, "unknown-field", key=True)
            levels = []
            for k in VISIBILITY_KEYS:
                level = vis.get(k, "cards")
                if level not in LEVELS:
                    ctx.unknown(path + (k,), "visibility level", level, LEVELS, "bad-value")
                levels.append(level)
            return tuple(levels)
        if vis not in VISIBILITY_WORDS:
            hint = did_you_mean(str(vis), VISIBILITIES)
            ctx.fail(path, f"unknown visibility '{vis}': use public, owner, count, top or hidden, or a map "
                     "{owner: ..., others: ...} of cards, top, count or none", "bad-value", hint)
        owner, others = VISIBILITY_WORDS[vis]
        return (others, others) if vis == "owner" and not per_player else (owner, others)
