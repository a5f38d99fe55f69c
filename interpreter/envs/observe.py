"""A player's view (Game.view, with card ids) -> a fixed-size vector of numbers, laid out once per ruleset and
player count; `blocks` names every part of it.

The parts, in order (every seat's own first, then the others by seat after it):
- `decision`: which point of decision the player is asked at now (one-hot; all zero when it is not asked);
- `seat`: the player's own seat (one-hot); `current`: whose turn it is, relative to the player (one-hot);
  `round`, `turn`: the numbers;
- for each zone (each member of a family; a per-player zone once per seat, relative to the player), as the
  player is shown it: `cards` - how many cards of each face it holds (cards alike share a face), and for an
  ordered zone the face of its first and of its last card (one-hot); `top` - its size and the face of its
  top card; `count` - its size; `none` - nothing. Where the ruleset reveals cards, a zone the player does
  not see also gets the faces of the cards it was shown there (`known`);
- each variable the player may read, one number: a number as it is, true 1, false 0, a player 1 + its seat
  relative to the player, a card 1 + its face (0 when hidden), a text 1 + its place in the ruleset's texts
  (0 for none, -1 for a text the ruleset does not name), a list its length; a player variable once per seat,
  0 where it is hidden;
- `picked`: while the items of a subset are picked, the faces picked so far.
Card variables are not in the vector (they are in the view).
"""
from __future__ import annotations

import numpy as np

from ..runtime.values import Player, seat_name
from .domains import const_key


class ObservationLayout:
    """Where each part of a view goes in the vector of one ruleset at one player count (see the module)."""

    def __init__(self, rs, players: int, params: dict, points: list):
        self.rs, self.n = rs, players
        self.face = rs.faces
        F = self.faces = max(rs.faces) + 1 if rs.faces else 0
        layout = rs.layout(players, params)
        self.blocks = []      # (name, start, size)
        self.size = 0
        self.bounds = []      # (start, size, high) of the parts that are counts or one-hots

        def block(name, size, high=None):
            start = self.size
            self.blocks.append((name, start, size))
            if high is not None:
                self.bounds.append((start, size, high))
            self.size += size
            return start
        cards = len(rs.card_values)
        self.decision_at = block("decision", len(points), 1)
        self.seat_at = block("seat", players, 1)
        self.current_at = block("current", players, 1)
        self.round_at = block("round", 1)
        self.turn_at = block("turn", 1)
        reveals = _reveals(rs.data)
        # (zone name, member key or position or None, relative owner or None, level, where) per part
        self.zones = []
        for z in rs.zone_list:
            keys = z.member_keys(layout.size[z.zid])
            for m, key in enumerate(keys):
                for r in (range(players) if z.per_player else [None]):
                    level = z.others_see if r is None or r > 0 else z.owner_sees
                    member = None if key is None else (key if z.keys is not None else m)
                    where = z.name + ("" if member is None else f"[{member}]") + ("" if r is None else f" of +{r}")
                    faces = first = count = top = known = -1
                    if level == "cards":
                        faces = block(f"{where}: faces", F, cards)
                        if z.ordered:   # the first card's face, then the last card's
                            first = block(f"{where}: first card", F, 1)
                            block(f"{where}: last card", F, 1)
                    elif level in ("top", "count"):
                        count = block(f"{where}: count", 1, cards)
                        if level == "top":
                            top = block(f"{where}: top card", F, 1)
                    if level != "cards" and reveals:
                        known = block(f"{where}: known", F, cards)
                    self.zones.append((z.name, member, r, faces, first, count, top, known))
        self.seats = [[seat_name((me + r) % players) for r in range(players)] for me in range(players)]
        self.strings = _texts(rs, layout)
        names = rs.names
        specs = rs.var_specs
        self.globals = []
        for k in rs.global_vars:
            if specs[k].visible != "nobody":
                self.globals.append((k, _sort(names, "var", specs[k]), block(f"variable {k}", 1)))
        self.player_vars = []
        for k in rs.player_vars:
            if specs[k].visible != "nobody":
                at = block(f"player variable {k}", players)
                self.player_vars.append((k, _sort(names, "pvar", specs[k]), at))
        self.picks = bool(rs.pick_node >= 0 and any(c.subsets for c in rs.actions.values())) or \
            any(getattr(node, "choice", None) is not None and node.choice.subsets for node in rs.nodes)
        self.picked_at = block("picked", F, cards) if self.picks else -1

    def low_high(self):
        """The bounds of every number of the vector (for its gymnasium Box)."""
        low = np.full(self.size, -np.inf, dtype=np.float32)
        high = np.full(self.size, np.inf, dtype=np.float32)
        for start, size, top in self.bounds:
            low[start:start + size] = 0
            high[start:start + size] = top
        return low, high

    def vector(self, view: dict, me: int, point: int = -1, picked=()) -> np.ndarray:
        """The vector of `view`, seen from seat `me`; `point`: the point of decision it is asked at (-1: none);
        `picked`: the cards picked so far in a subset (ids)."""
        n, face = self.n, self.face
        ones = [self.seat_at + me, self.current_at + (int(view["current"][1:]) - 1 - me) % n]   # one more here
        if point >= 0:
            ones.append(self.decision_at + point)
        spots = [self.round_at, self.turn_at]   # ... and a number of their own there
        numbers = [view["round"], view["turn"]]
        shown = view["zones"]
        seats = self.seats[me]
        plain = not self.rs.card_vars   # with card variables, a card shows as {"card": id, ...}
        for name, member, r, faces_at, first_at, count_at, top_at, known_at in self.zones:
            entry = shown[name]
            if r is not None:
                entry = entry[seats[r]]
            if member is not None:
                entry = entry[member]
            if entry.__class__ is list:
                if entry:
                    ids = entry if plain else [c["card"] for c in entry]
                    ones += [faces_at + face[c] for c in ids]
                    if first_at >= 0:
                        ones.append(first_at + face[ids[0]])
                        ones.append(first_at + self.faces + face[ids[-1]])
                continue
            if count_at >= 0:
                spots.append(count_at)
                numbers.append(entry.get("count", 0))
            if top_at >= 0:
                top = entry.get("top")
                if top:
                    ones.append(top_at + face[top[0] if plain else top[0]["card"]])
            if known_at >= 0:
                known = entry.get("known")
                if known:
                    ones += [known_at + face[c if plain else c["card"]] for _, c in known]
        shown_vars = view["vars"]
        for k, sort, at in self.globals:
            spots.append(at)
            numbers.append(self._number(shown_vars.get(k), sort, me))
        player_vars = view["player_vars"]
        for k, sort, at in self.player_vars:
            table = player_vars.get(k, {})
            for r in range(n):
                spots.append(at + r)
                numbers.append(self._number(table.get(seats[r]), sort, me))
        if picked and self.picked_at >= 0:
            ones += [self.picked_at + face[c] for c in picked]
        out = np.bincount(ones, minlength=self.size).astype(np.float32)
        out[spots] = numbers
        return out

    def _number(self, v, sort: str, me: int) -> float:
        """One variable's value as one number (see the module)."""
        t = type(v)
        if t is bool:
            return 1.0 if v else 0.0
        if t is int or t is float:
            if sort == "card":
                return 1.0 + self.face[v] if 0 <= v < len(self.face) else 0.0
            return float(v)
        if v is None:
            return 0.0
        if t is str:
            if sort == "player" and v[:1] == "P" and v[1:].isdigit():
                return 1.0 + (int(v[1:]) - 1 - me) % self.n
            return float(self.strings.get(v, -2) + 1)
        if t is list:
            return float(len(v))
        return 0.0   # hidden ({"hidden": true}) or a value with no number


def _sort(names, where: str, spec) -> str:
    """How a variable's values read as numbers: as cards, as players, or as they are."""
    assigned = names.assigned.get((where, spec.name), set()) | {names.var_kinds.get((where, spec.name))}
    if "card" in assigned:
        return "card"
    if "player" in assigned or type(spec.value) is Player:
        return "player"
    return "value"


def _texts(rs, layout) -> dict:
    """Every text the ruleset names (card attributes, family keys, parameters), in order: text -> position."""
    found = set()
    for values in rs.card_attrs.values():
        found.update(v for v in values if type(v) is str)
    for z in rs.zone_list:
        found.update(k for k in (z.keys or ()) if type(k) is str)
    for v in rs.params.values():
        items = v.values() if isinstance(v, dict) else v if isinstance(v, list) else [v]
        found.update(x for x in items if type(x) is str)
    for choices in rs.param_choices.values():
        found.update(x for x in choices if type(x) is str)
    return {text: i for i, text in enumerate(sorted(found, key=const_key))}


def _reveals(data) -> bool:
    """Whether a ruleset's data has a `reveal` effect anywhere (cards shown to some players only)."""
    stack = [data]
    while stack:
        d = stack.pop()
        if isinstance(d, dict):
            if "reveal" in d:
                return True
            stack.extend(d.values())
        elif isinstance(d, list):
            stack.extend(d)
    return False
