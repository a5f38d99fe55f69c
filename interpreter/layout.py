"""Where each zone lives in a game's list of zones: a ruleset + player count + parameters -> slots.

Shared zones whose size never changes come first, at slots fixed when the ruleset is compiled (the
compiled expressions use those numbers directly). Then, per game, the families whose size depends on
a parameter or on the player count, and the zones of each player: a per-player zone (or each member
of a per-player family) takes one slot per player, `base + member * players + seat`.
"""
from __future__ import annotations

from .errors import GameError

MAX_FAMILY = 1000


class Layout:
    """The slots of every zone for one player count and one set of parameter values."""

    __slots__ = ("n", "base", "size", "total", "fixed", "zones", "unseen", "seen", "ordered", "refill")

    # A layout is made once for a ruleset and player count (Ruleset.layout) and never changed: games,
    # clones and bots' worlds share it.

    def __init__(self, rs, n: int, params: dict):
        self.n = n
        base, size = [0] * len(rs.zone_list), [1] * len(rs.zone_list)
        slot = rs.fixed_slots
        for z in rs.zone_list:
            k = family_size(z, n, params)
            size[z.zid] = k
            if not z.per_player and z.slot >= 0:
                base[z.zid] = z.slot          # fixed when the ruleset was compiled
        for z in rs.zone_list:
            if not z.per_player and z.slot < 0:
                base[z.zid] = slot
                slot += size[z.zid]
        for z in rs.zone_list:
            if z.per_player:
                base[z.zid] = slot
                slot += size[z.zid] * n
        self.base, self.size, self.total = tuple(base), tuple(size), slot
        self.fixed = rs.fixed_slots
        self.zones = rs.zone_list
        # slot -> the slot whose cards are shuffled into it when it runs short (`refill_from`): a shared
        # zone's from a shared zone; each player's zone from that player's own, or from a shared one
        by_name = {z.name: z for z in rs.zone_list}
        self.refill = {}
        for z in rs.zone_list:
            r = by_name.get(z.refill_from) if z.refill_from else None
            if r is None:
                continue
            if not z.per_player:
                self.refill[base[z.zid]] = base[r.zid]
            else:
                for p in range(n):
                    self.refill[base[z.zid] + p] = base[r.zid] + p if r.per_player else base[r.zid]
        types = tuple(c["type"] for c in rs.cards)
        # for each player: the slots whose cards they may not all see, each with the first position hidden
        # (1 when the top card shows), the type of every card, and whether all cards are of one type
        # (a bot's worlds deal those cards again, engine/lookahead.py)
        # for each player: the slots whose every card they see, those whose top card they see, and those
        # they are shown the size of (engine/view.py, seen_cards and observation)
        self.seen = tuple(self._seen_by(p) for p in range(n))
        self.unseen = tuple((self._hidden_from(p), types, len(set(types)) <= 1) for p in range(n))
        ordered = [True] * self.total
        for z in self.zones:
            for slot, _, _ in self.slots(z):
                ordered[slot] = z.ordered
        self.ordered = tuple(ordered)   # slot -> whether its order matters (views sort the others)

    def _hidden_from(self, player: int) -> tuple:
        every, tops, _ = self.seen[player]
        shown = set(every)
        return tuple((slot, 1 if slot in tops else 0) for z in self.zones for slot, _, _ in self.slots(z)
                     if slot not in shown)

    def _seen_by(self, player: int) -> tuple:
        every, tops, counted = [], [], []
        for z in self.zones:
            for slot, owner, _ in self.slots(z):
                level = z.level(player, owner)
                if level == "cards":
                    every.append(slot)
                elif level == "top":
                    tops.append(slot)
                if level in ("top", "count"):
                    counted.append(slot)
        return tuple(every), tuple(tops), tuple(counted)

    def slot(self, z, owner=None, member: int = 0) -> int:
        if z.per_player:
            return self.base[z.zid] + member * self.n + owner
        return self.base[z.zid] + member

    def slots(self, z):
        """Every slot of a zone: [(slot, owner or None, key or None)], members first, then players."""
        keys = z.member_keys(self.size[z.zid])
        out = []
        for m, key in enumerate(keys):
            if z.per_player:
                out += [(self.base[z.zid] + m * self.n + p, p, key) for p in range(self.n)]
            else:
                out.append((self.base[z.zid] + m, None, key))
        return out

    def owner_of(self, slot: int):
        """(zone, owner or None, key or None) of a slot."""
        for z in self.zones:
            b, k = self.base[z.zid], self.size[z.zid]
            width = k * self.n if z.per_player else k
            if b <= slot < b + width:
                m, p = divmod(slot - b, self.n) if z.per_player else (slot - b, None)
                return z, p, z.member_keys(k)[m]
        return None, None, None


def family_size(z, n: int, params: dict) -> int:
    """How many zones a family has in this game (1 for a single zone)."""
    if z.keys is not None:
        return len(z.keys)
    if z.count is None:
        return 1
    if isinstance(z.count, int):
        return z.count
    k = n if z.count == "player_count" else params.get(z.count)
    if type(k) is not int or not 1 <= k <= MAX_FAMILY:
        raise GameError(f"zone family '{z.name}' takes its size from '{z.count}', which is {k!r} here: "
                        f"it must be a whole number from 1 to {MAX_FAMILY}", "zone-family")
    return k
