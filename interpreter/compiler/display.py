"""Compile a ruleset's `display:` section (what players see, and how) -> a Display, with defaults without one."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..runtime.budget import LoadBudget
from ..errors import GameError
from ..expr.compiler import Scope
from ..expr.parser import ExprError, parse
from .context import Abort

DISPLAY_KEYS = ("names", "zones", "variables", "scores")
ZONE_DISPLAY_KEYS = ("label", "show", "group", "note", "narrate", "members", "called")
SHOW_WORDS = ("cards", "count")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class ZoneDisplay:
    """How one zone is drawn: its title, cards or only their number, grouped by an attribute with counts,
    and a note beside each group (numbers a player needs, worked out from the cards' attributes)."""

    name: str
    label: str
    show: str = "cards"         # cards, or count: only how many (even when the cards may be seen)
    group: str | None = None    # a card attribute: equal values are shown once with a count ('red ×4')
    notes: list | None = None   # per card id, the note shown beside its group ('6/9'), or None
    # false: a player moving cards between this zone and their own other zones is not told in the story
    # (staging that the ruleset's own log lines tell, such as an offer laid out and taken back)
    narrate: bool = True
    # a family: how many of its zones are shown, the first ones (a number, or a parameter's name); None: all
    members: int | str | None = None
    # what the story and the rulebook call it, as written ('the queue at perch'); None: its name in words
    called: str | None = None


@dataclass
class Display:
    """The compiled `display:` section: shown zones in order, shown variables and live score parts, and
    the words players read for ids."""

    zones: list = field(default_factory=list)        # [ZoneDisplay], in the order they are drawn
    variables: list = field(default_factory=list)    # names of the variables shown (the rest is bookkeeping)
    scores: list = field(default_factory=list)       # score parts shown during play
    names: dict = field(default_factory=dict)        # id -> the words shown for it
    written: bool = False                            # whether the ruleset has a display section

    def words(self, text: str) -> str:
        """A text for people: every id that has a name is replaced by it ('dark_blue' -> 'dark blue')."""
        names = self.names
        if not names or not isinstance(text, str):
            return text
        return WORD.sub(lambda m: names.get(m.group(0), m.group(0)), text)

    def zone(self, name: str) -> ZoneDisplay | None:
        for z in self.zones:
            if z.name == name:
                return z
        return None

    def called(self, zone, key=None) -> str:
        """What people call a zone in sentences (zone: a compiled Zone): a shared zone as 'the deck', a member
        of a family with its number from 1 or its key ('row 2', 'red stall'), a player's zone without its
        owner ('hand': the sentence says whose). `called:` in the zone's display entry replaces the words."""
        zd = self.zone(zone.name)
        name = zd.called if zd is not None and zd.called else self.words(zone.name)
        if key is not None and zone.count is not None:
            return f"{name} {key + 1}"
        if key is not None:   # a keyed family: 'the red stall', 'your red stall'
            keyed = f"{self.words(str(key)).replace('_', ' ')} {name}"
            return keyed if zone.per_player else f"the {keyed}"
        if zone.per_player or zone.is_family or (zd is not None and zd.called):
            return name
        return f"the {name}"


def compile_display(ctx, data: dict, zones: dict, var_specs: dict, score_parts: list, cards: list,
                    card_attrs: dict, functions) -> Display:
    """The `display:` section checked against the ruleset's names, or the defaults where it says nothing."""
    spec = data.get("display")
    out = Display(written=spec is not None)
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        ctx.error(("display",), "display is a map: names, zones, variables, scores", "type")
        spec = {}
    for k in spec:
        if k not in DISPLAY_KEYS:
            _guard(ctx.unknown, ("display", k), "display field", k, DISPLAY_KEYS, "unknown-field", True)
    out.names = _default_names(zones, card_attrs)
    out.names.update(_names(ctx, spec.get("names")))
    out.zones = _zones(ctx, spec.get("zones"), zones, cards, card_attrs, data.get("parameters") or {})
    out.variables = _list(ctx, "variables", spec.get("variables"), var_specs, "variable",
                          [n for n, v in var_specs.items() if v.visible != "nobody" and not v.counter])
    parts = [name for name, _ in score_parts]
    public = [name for name, expr in score_parts if _public(expr.text, zones, var_specs, functions)]
    out.scores = _list(ctx, "scores", spec.get("scores"), dict.fromkeys(parts), "score part", public)
    return out


def _guard(fn, *args):
    try:
        fn(*args)
    except Abort:
        pass


def _default_names(zones: dict, card_attrs: dict) -> dict:
    """Ids written with underscores read as words: 'dark_blue' -> 'dark blue'."""
    names = {}
    words = [v for values in card_attrs.values() for v in values if isinstance(v, str)] + list(zones)
    for w in words:
        if "_" in w and WORD.fullmatch(w):
            names[w] = w.replace("_", " ").strip()
    return names


def _names(ctx, spec) -> dict:
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        ctx.error(("display", "names"), "names is a map of id: the words shown for it, as in "
                  "'{dark_blue: dark blue}'", "type")
        return {}
    out = {}
    for k, v in spec.items():
        if not isinstance(v, (str, int)) or isinstance(v, bool):
            ctx.error(("display", "names", k), "expected the words shown for this id (a text)", "type")
            continue
        out[str(k)] = str(v)
    return out


def _zones(ctx, spec, zones: dict, cards: list, card_attrs: dict, params: dict) -> list:
    """The zones drawn: those listed, in their order; without a list, every zone someone may see."""
    if spec is None:
        return [_default_zone(z, card_attrs) for z in zones.values()
                if z.owner_sees != "none" or z.others_see != "none"]
    if not isinstance(spec, dict):
        ctx.error(("display", "zones"), "zones is a map of zone name: how it is shown ({} for the defaults)",
                  "type")
        return []
    out = []
    for name, zspec in spec.items():
        path = ("display", "zones", name)
        if name not in zones:
            _guard(ctx.unknown, path, "zone", name, zones, "unknown-zone", True)
            continue
        zd = _default_zone(zones[name], card_attrs)
        zspec = {} if zspec is None else zspec
        if not isinstance(zspec, dict):
            ctx.error(path, "expected how the zone is shown, as in {label: Your hand, group: colour}", "type")
            continue
        try:
            _zone_fields(ctx, path, zspec, zd, cards, card_attrs)
            _members_field(ctx, path, zspec, zd, zones[name], params)
        except Abort:
            continue
        out.append(zd)
    return out


def _default_zone(z, card_attrs) -> ZoneDisplay:
    zd = ZoneDisplay(z.name, z.name.replace("_", " "))
    if not z.ordered:
        zd.group = ""   # unordered: equal cards are counted, by their label
    return zd


def _zone_fields(ctx, path, zspec, zd, cards, card_attrs):
    for k in zspec:
        if k not in ZONE_DISPLAY_KEYS:
            ctx.unknown(path + (k,), "zone display field", k, ZONE_DISPLAY_KEYS, "unknown-field", key=True)
    if "label" in zspec:
        if not isinstance(zspec["label"], str):
            ctx.fail(path + ("label",), "expected a text, the zone's title for players", "type")
        zd.label = zspec["label"]
    if "called" in zspec:
        if not isinstance(zspec["called"], str) or not zspec["called"].strip():
            ctx.fail(path + ("called",), "expected a text, what the story calls the zone, as in 'the queue at "
                     "perch'", "type")
        zd.called = " ".join(zspec["called"].split())
    if "show" in zspec:
        if zspec["show"] not in SHOW_WORDS:
            ctx.fail(path + ("show",), f"unknown show '{zspec['show']}': use cards (the default) or count "
                     "(only how many)", "bad-value")
        zd.show = zspec["show"]
    if "narrate" in zspec:
        if not isinstance(zspec["narrate"], bool):
            ctx.fail(path + ("narrate",), "expected true or false: whether a player's moves between this zone "
                     "and their own other zones are told in the story", "type")
        zd.narrate = zspec["narrate"]
    if "group" in zspec:
        group = zspec["group"]
        if group is False or group is None:
            zd.group = None
        elif group == "label" or group is True:
            zd.group = ""
        elif group not in card_attrs:
            ctx.unknown(path + ("group",), "card attribute", group, [a for a in card_attrs if a != "type"],
                        "unknown-name")
        else:
            zd.group = group
    if "note" in zspec:
        template = ctx.template(path + ("note",), Scope({}, "card"))
        zd.notes = [None] * len(cards)
        budget = LoadBudget()   # notes are written at load: a budget, and no game to read
        for c in range(len(cards)):
            try:
                zd.notes[c] = "".join(p if isinstance(p, str) else str(p(budget, {}, c)) for p in template.parts)
            except (TypeError, ValueError, ZeroDivisionError, IndexError, GameError):
                zd.notes[c] = None   # a card of another type, without the attributes the note reads
            except (AttributeError, KeyError):
                ctx.error(path + ("note",), "a note reads the card's attributes and the ruleset's fixed values "
                          "only, not what changes in a game (me, current, turn, zones, variables)", "note")
                break


def _members_field(ctx, path, zspec, zd, zone, params: dict) -> None:
    """`members`: a family drawn with its first N zones only (N a number, or a parameter, which may be a
    table by player count): the places a smaller game does not use are not drawn."""
    if "members" not in zspec:
        return
    value = zspec["members"]
    if not zone.is_family:
        ctx.fail(path + ("members",), "members is for a family of zones (count: or keys:): how many of them "
                 "are shown", "bad-value")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        zd.members = value
    elif isinstance(value, str) and value in params:
        zd.members = value
    elif isinstance(value, str):
        ctx.unknown(path + ("members",), "parameter", value, params, "unknown-name")
    else:
        ctx.fail(path + ("members",), "expected a whole number, or the name of a parameter that gives it: how "
                 "many of the family's zones are shown, the first ones", "type")


def _list(ctx, key, spec, known, what, default) -> list:
    if spec is None:
        return list(default)
    path = ("display", key)
    if not isinstance(spec, list):
        ctx.error(path, f"{key} is a list of names, as in [{', '.join(list(known)[:2]) or 'score'}]", "type")
        return []
    out = []
    for i, name in enumerate(spec):
        if name not in known:
            _guard(ctx.unknown, path + (i,), what, name, known, "unknown-name", False)
            continue
        out.append(name)
    return out


def _public(text, zones, var_specs, functions) -> bool:
    """Whether an expression reads only what everyone sees (so a live score can be shown to all)."""
    try:
        tree = parse(text)
    except ExprError:
        return False
    names = {str(t) for t in tree.scan_values(lambda v: getattr(v, "type", None) == "NAME")} \
        if hasattr(tree, "scan_values") else {str(tree)}
    for n in names:
        z = zones.get(n)
        if z is not None and (z.owner_sees != "cards" or z.others_see != "cards"):
            return False
        v = var_specs.get(n)
        if v is not None and v.visible != "public":
            return False
        if n in functions:
            return False   # a function's body may read anything: list the part in display.scores to show it
    return True
