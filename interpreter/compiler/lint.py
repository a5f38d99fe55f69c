"""Design lint over a ruleset's plain data -> warnings: a deck dealt from before it is shuffled, a score
part that cannot change.

Static looks at the YAML, not proofs: each rule errs on the side of saying nothing.
"""
from __future__ import annotations

import re

from lark import Token

from ..expr.parser import ExprError, parse

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NESTED = ("then", "else", "do", "if_empty")   # keys of an effect that hold effect lists
CHANGING_BUILTINS = {"current", "turn", "round"}


def _effects(items, path, procedures, seen=()):
    """Every effect in a list, in order, nested ones after their parent; a `call` walks into its procedure."""
    if not isinstance(items, list):
        return
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        p = path + (i,)
        yield p, item
        for key in NESTED:
            for sub in (item, *(v for v in item.values() if isinstance(v, dict))):
                if isinstance(sub.get(key), list):
                    yield from _effects(sub[key], p + ((key,) if sub is item else (_head(item), key)),
                                        procedures, seen)
        name = item.get("call")
        if isinstance(name, str) and name in procedures and name not in seen:
            body = procedures[name]
            body, where = (body.get("do"), ("procedures", name, "do")) if isinstance(body, dict) \
                else (body, ("procedures", name))
            yield from _effects(body, where, procedures, seen + (name,))


def _head(item: dict):
    return next(iter(item))


def _zone(ref) -> str | None:
    """The zone a reference names: `deck`, `row[0]` -> row, `me.hand` -> hand."""
    if not isinstance(ref, str):
        return None
    names = IDENT.findall(ref.split("[")[0])
    return names[-1] if names else None


def _procedures(data) -> dict:
    procs = data.get("procedures")
    return procs if isinstance(procs, dict) else {}


def _section(data, *keys):
    for k in keys:
        data = data.get(k) if isinstance(data, dict) else None
    return data


def unshuffled_deals(data: dict, homes: set) -> list:
    """(path, zone) of the first deal or move by count, in setup and a round's start, from a zone whose
    cards are still in the order of the file (where they start, or moved from there card by card or as a
    whole pile)."""
    ordered, procs = set(homes), _procedures(data)
    lists = ((data.get("setup"), ("setup",)), (_section(data, "flow", "round", "start"), ("flow", "round", "start")))
    for items, where in lists:
        for path, item in _effects(items, where, procs):
            head = _head(item)
            fields = item.get(head)
            if head == "shuffle":
                ordered.discard(_zone(fields))
            elif head in ("deal", "move") and isinstance(fields, dict):
                source = _zone(fields.get("from"))
                if source not in ordered:
                    continue
                picked = fields.get("cards")
                if head == "move" and picked is None and fields.get("count") == "all":
                    ordered.add(_zone(fields.get("to")))   # the whole pile, in its order: nothing taken yet
                    continue
                if head == "deal" or picked is None:
                    return [(path + (head,), source)]
                if "sample(" not in str(picked):   # chosen by a condition: still in file order
                    ordered.add(_zone(fields.get("to")))
    return []


def _changed(data: dict) -> tuple[set, set]:
    """The zones some effect moves cards into, out of or shuffles, and the variables some effect sets."""
    zones, variables, procs = set(), set(), _procedures(data)
    lists = [(data.get("setup"), ("setup",))]
    lists += [((spec or {}).get("do"), ("actions", n)) for n, spec in (data.get("actions") or {}).items()
              if isinstance(spec, dict)]
    lists += [(body.get("do") if isinstance(body, dict) else body, ("procedures", n)) for n, body in procs.items()]
    flow = data.get("flow") if isinstance(data.get("flow"), dict) else {}
    for part in (flow, flow.get("round"), _section(flow, "round", "turn")):
        if isinstance(part, dict):
            lists += [(part.get(k), ()) for k in ("start", "end")]
            lists += [(e.get("do"), ()) for e in part.get("ends") or [] if isinstance(e, dict)]
    for items, where in lists:
        for _, item in _effects(items, where, procs):
            head, fields = _head(item), item.get(_head(item))
            if head == "shuffle":
                zones.add(_zone(fields))
            elif head in ("move", "deal") and isinstance(fields, dict):
                zones |= {_zone(fields.get("from")), _zone(fields.get("to"))}
            elif head in ("set", "add") and isinstance(fields, dict):
                variables |= {IDENT.findall(str(k))[-1] for k in fields if IDENT.findall(str(k))}
    for name, spec in (data.get("zones") or {}).items():
        if isinstance(spec, dict) and spec.get("refill_from"):
            zones |= {name, spec["refill_from"]}
    return zones, variables


def constant_score_parts(data: dict) -> list:
    """The names of score parts that read nothing the game changes (no changed zone or variable, no
    `current`, `turn` or `round`): the same for every game, whatever is played."""
    parts = _section(data, "scoring", "parts")
    if not isinstance(parts, dict):
        return []
    zones, variables = _changed(data)
    changing = (zones | variables | CHANGING_BUILTINS) - {None}
    functions = _section(data, "functions")
    functions = functions if isinstance(functions, dict) else {}

    def reads(text, seen=()) -> set:
        """The names an expression reads, and those of the ruleset's functions it calls."""
        try:
            tree = parse(text)
        except ExprError:
            return set(changing)     # unreadable: say nothing about it
        found = {str(t) for t in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME")}
        for called in found & set(functions) - set(seen):
            body = functions[called]
            found |= reads(body.get("value", "") if isinstance(body, dict) else body, seen + (called,))
        return found

    return [name for name, text in parts.items() if not reads(text) & changing]


# labels that would name a card its chooser cannot see ---------------------------------------------

_DOMAIN = re.compile(r"^\s*(?:(?P<owner>[A-Za-z_][\w\[\]() ]*?)\s*\.\s*)?(?P<zone>[A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?"
                     r"(?:\bwhere\b.*)?$", re.S)
_HOLE = re.compile(r"\{([^{}]*)\}")


def _inside_call(text: str) -> str:
    """The first argument of a call that is the whole text (`sort(next(me).hand where v > 0)`, `groups(me.hand,
    suit)`): the cards it is made of, whose zone says who may see them; else the text itself."""
    m = re.match(r"\s*[A-Za-z_]\w*\s*\(", text)
    if m is None:
        return text
    depth, comma = 0, None   # comma: where the first argument ends
    for i in range(m.end() - 1, len(text)):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                if text[i + 1:].strip():
                    return text   # the call is followed by more (`next(me).hand`): not a call around it all
                return _inside_call(text[m.end():comma if comma is not None else i])
        elif ch == "," and depth == 1 and comma is None:
            comma = i
    return text


def _unseen_by(zones: dict, owner: str | None, zone: str) -> bool:
    """Whether the chooser (`me`) may be unable to see the cards of `zone` (a compiled Zone), named through
    `owner` (None: a shared zone): the level it is shown is only a count or nothing ("top" may show it)."""
    z = zones.get(zone)
    if z is None or z.per_player != (owner is not None):
        return False
    level = z.owner_sees if owner is not None and owner.strip() == "me" else z.others_see
    return level in ("count", "none")


def hidden_in_labels(data: dict, zones: dict) -> list:
    """(path of a label, its hole, the argument, the zone) for every action whose label reads more of an
    argument than the card itself (an attribute, a function of it), where the argument is a card of a zone
    its chooser may not see (`zones`: the compiled zones by name): the label would name a hidden card. A
    bare `{card}` is told by its place to a chooser who cannot see it; only the argument's own zone is
    looked at (each rule says nothing when unsure)."""
    actions = data.get("actions") if isinstance(data.get("actions"), dict) else {}
    found = []
    for name, spec in actions.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("args"), dict) or not isinstance(spec.get("label"), str):
            continue
        unseen = {}
        for arg, domain in spec["args"].items():
            m = _DOMAIN.match(_inside_call(domain)) if isinstance(domain, str) else None
            owner = m.group("owner") if m else None
            if owner is not None and owner.count("(") != owner.count(")"):
                continue   # not a path to a zone: unsure, so nothing said
            if m and _unseen_by(zones, owner, m.group("zone")):
                unseen[str(arg)] = m.group("zone")
        if not unseen:
            continue
        for hole in _HOLE.findall(spec["label"]):
            try:
                tree = parse(hole)
            except ExprError:
                continue
            names = {str(t) for t in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME")}
            for arg in sorted(names & unseen.keys()):
                if hole.strip() != arg:
                    found.append((("actions", name, "label"), hole.strip(), arg, unseen[arg]))
    return found
