"""Project a game state through the zones' visibility: state + player -> what that player may know."""
from __future__ import annotations

# public: everyone sees the cards; owner: the owner sees them, others see how many; count: everyone
# sees how many (a face-down deck); top: how many, and the first card; hidden: nothing at all.
VISIBILITIES = ("public", "owner", "count", "top", "hidden")


def _show(game, cards, ids):
    return list(cards) if ids else [game.rs.card_labels[c] for c in cards]


def _zone_view(game, zone, cards, owner, player, ids):
    vis = zone.visibility
    if vis == "public" or (vis == "owner" and owner == player):
        shown = _show(game, cards, ids)
        return shown if zone.ordered or ids else sorted(shown)
    if vis == "top":
        return {"count": len(cards), "top": _show(game, cards[:1], ids)}
    if vis == "hidden":
        return {"hidden": True}
    return {"count": len(cards)}   # count, and owner seen by others: only how many


def view(game, player: int, ids: bool = False) -> dict:
    """Everything `player` may see: visible cards as labels (or ids), other zones as counts."""
    rs, g = game.rs, game.state
    zones = {}
    for zone in rs.zones.values():
        if zone.per_player:
            zones[zone.name] = {
                f"P{p + 1}": _zone_view(game, zone, g.zones[rs.fixed_slots + zone.index * g.n + p], p, player, ids)
                for p in range(g.n)
            }
        elif zone.count is not None:
            zones[zone.name] = [_zone_view(game, zone, g.zones[zone.slot + i], None, player, ids)
                                for i in range(zone.count)]
        else:
            zones[zone.name] = _zone_view(game, zone, g.zones[zone.slot], None, player, ids)
    out = {
        "player": f"P{player + 1}",
        "current": f"P{g.current + 1}",
        "round": g.round,
        "turn": g.turn,
        "zones": zones,
        "vars": dict(g.vars),
        "player_vars": {k: {f"P{p + 1}": v[p] for p in range(g.n)} for k, v in g.pvars.items()},
    }
    if g.result is not None:
        out["result"] = g.result
    return out
