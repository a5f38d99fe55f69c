"""What one seat is shown: a game + a seat -> a board (JSON-ready), drawn from that seat's view and the display hints.

This is the one place where presentation touches a game: it reads the seat's view (`Game.view`), the
narration for that seat, the seat's own decision and the live score parts the ruleset shows (parts
that read only what everyone sees, or that the author listed). The terminal screen and the web page
draw boards, never the state.
"""
from __future__ import annotations

from ..runtime.values import Player, seat_name
from .narrate import grouped, story
from .steps import option_parts

STORY_LINES = 200   # the last lines of narration a board carries


def board(game, seat: int | None, names=None, story_from: int = 0) -> dict:
    """Everything `seat` is shown now (seat None: an onlooker, who sees only what everyone sees)."""
    rs, g = game.rs, game.state
    display = rs.display
    words = display.words
    view = game.view(seat, ids=True)
    # variables as people read them (cards in them by label); the zones above keep ids for their attributes
    named = game.view(seat)
    names = list(names or [])
    out = {
        "title": rs.title, "ruleset": rs.name, "players": g.n,
        "seat": seat_name(seat) if seat is not None else None,
        "names": [names[p] if p < len(names) and names[p] else seat_name(p) for p in range(g.n)],
        "round": g.round, "turn": g.turn, "current": view["current"],
        "piles": [], "zones": [], "seats": [], "vars": [],
        # each score part's words (the display's name for it, else its id as words): pages show these
        "score_names": {name: words(name).replace("_", " ") for name, _ in rs.scoring.parts},
    }
    shown_vars = set(display.variables)

    def who(p) -> str:
        """A player as this seat reads it: "you", or the player's name."""
        return "you" if p == seat else out["names"][p]
    for zd in display.zones:
        z = rs.zones[zd.name]
        value = view["zones"][zd.name]
        if z.per_player:
            continue
        entry = _members(game, zd, z, value)
        if zd.show == "count" or _count_only(entry):
            out["piles"].append({"label": words(zd.label), "count": _total(entry)})
        else:
            out["zones"].append({"zone": zd.name, "label": words(zd.label), "members": entry})
    scores = _scores(game, display.scores) if display.scores else None
    for p in range(g.n):
        name = seat_name(p)
        row = {"seat": name, "name": out["names"][p], "you": p == seat, "zones": [], "vars": [],
               "scores": scores[p] if scores else {}}
        for zd in display.zones:
            z = rs.zones[zd.name]
            if not z.per_player:
                continue
            members = _members(game, zd, z, view["zones"][zd.name][name])
            if zd.show == "count":
                members = [dict(m, cards=None, groups=None) for m in members]
            row["zones"].append({"zone": zd.name, "label": words(zd.label), "members": members,
                                 "private": z.others_see != "cards"})
        for k, table in named["player_vars"].items():
            if k in shown_vars:
                row["vars"].append({"name": words(k).replace("_", " "),
                                    "value": _value(words, table[name], g.pvars[k][p], who)})
        out["seats"].append(row)
    for k, v in named["vars"].items():
        if k in shown_vars and v is not None:   # a shown variable that holds nothing (none) is not drawn
            out["vars"].append({"name": words(k).replace("_", " "), "value": _value(words, v, g.vars[k], who)})
    lines = story(game, seat, story_from, names=[n if n != seat_name(p) else "" for p, n in enumerate(out["names"])])
    out["story"] = lines[-STORY_LINES:]
    out["decision"] = _decision(game, seat, words)
    out["palette"] = _shown_palette(rs, out)
    out["waiting_for"] = sorted({seat_name(d.player) for d in game.decisions()})
    # a simultaneous decision: everyone it asks is choosing, not the one whose answer is read next
    choosers = game.choosers()
    out["together"] = [seat_name(p) for p in choosers] if len(choosers) > 1 else None
    if g.result is not None:
        out["result"] = _result(game, g.result, words)
    return out


def _shown_palette(rs, out: dict) -> dict:
    """The hues of the kinds of card this board shows on its tiles, and of no other: which kinds the game
    holds where the seat cannot see is not for the page to know."""
    words = set()
    for z in out["zones"] + [z for s in out["seats"] for z in s["zones"]]:
        for m in z["members"]:
            for label in (m.get("cards") or []) + [g["label"] for g in (m.get("groups") or [])]:
                words.add(kind_of(label))
    return {k: v for k, v in palette(rs).items() if k in words}


def kind_of(label) -> str:
    """A card's kind as its shown label tells it: the first word ('reed' of 'reed warbler 3'), as the web
    page's hue() reads it."""
    return str(label).split(" ")[0].split("[")[0]


def palette(rs) -> dict:
    """A hue (0-359) for each kind of card, its label's first word: the ruleset's kinds in order, spread
    evenly round the colour wheel, so that no two kinds share a colour (a hash of the word made two
    kinds alike). It names the ruleset's kinds, all of them, whatever is in play."""
    words = rs.display.words   # as the labels are shown ('reed warbler'), whose first word the page reads
    kinds = sorted({kind_of(words(str(label))) for label in rs.card_labels if label})
    return {kind: round(i * 360 / len(kinds)) % 360 for i, kind in enumerate(kinds)}


def _members(game, zd, z, value) -> list[dict]:
    """A zone (or a family: one entry per member, numbered from 1 or by key) as shown entries."""
    if z.is_family:
        items = list(value.items() if isinstance(value, dict) else enumerate(value, 1))
        if zd.members is not None:   # only the first ones: those this game uses
            shown = zd.members if isinstance(zd.members, int) else game.state.params.get(zd.members)
            if isinstance(shown, int) and not isinstance(shown, bool):
                items = items[:max(0, shown)]
        return [_entry(game, zd, v, str(k) if not isinstance(k, str) else game.rs.display.words(k)) for k, v in items]
    return [_entry(game, zd, value, None)]


def _entry(game, zd, value, key) -> dict:
    """One zone as shown: its cards (in order, or grouped with counts) or only how many."""
    rs = game.rs
    words = rs.display.words
    entry = {"key": key, "count": 0, "cards": None, "groups": None}
    if isinstance(value, dict):
        if value.get("hidden"):
            entry["hidden"] = True
            entry["count"] = None
        else:
            entry["count"] = value["count"]
            if value.get("top"):
                entry["top"] = _card(game, value["top"][0])
        if value.get("known"):
            entry["known"] = [[i + 1, _card(game, c)] for i, c in value["known"]]
        return entry
    entry["count"] = len(value)
    cards = [_card_id(c) for c in value]
    if zd.group is None:
        entry["cards"] = [_card(game, c) for c in value]
        return entry
    groups: dict = {}
    for c in cards:
        key_value = rs.card_attrs.get(zd.group, [None] * len(rs.cards))[c] if zd.group else None
        label = words(str(key_value)) if key_value is not None else words(rs.card_labels[c])
        note = zd.notes[c] if zd.notes is not None else None
        g = groups.setdefault(label, {"label": label, "count": 0, "note": note})
        g["count"] += 1
    entry["groups"] = list(groups.values())
    return entry


def _card_id(c) -> int:
    return c["card"] if isinstance(c, dict) else c


def _card(game, c) -> str:
    """A card as text: its label, with the card variables shown on it ('red 5 [backers P1]')."""
    rs = game.rs
    words = rs.display.words
    if isinstance(c, dict):
        extra = [f"{words(k)} {_value(words, v)}" for k, v in c.items() if k != "card" and v not in (None, 0, [], False)]
        label = words(rs.card_labels[c["card"]])
        return f"{label} [{', '.join(extra)}]" if extra else label
    return words(rs.card_labels[c])


def _value(words, v, raw=None, who=None) -> str:
    """A variable's value as people read it: `v` as the seat's view gives it; `raw`, the value itself, tells a
    player (named by `who`: "you", or its name) from a text that reads the same."""
    if isinstance(v, dict) and v.get("hidden"):
        return "?"
    if who is not None and type(raw) is Player:
        return who(int(raw))
    if isinstance(v, list):
        raws = raw if type(raw) is list and len(raw) == len(v) else [None] * len(v)
        return ", ".join(_value(words, x, r, who) for x, r in zip(v, raws)) or "none"
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "none"
    return words(str(v))


def _count_only(members) -> bool:
    return all(m.get("cards") is None and m.get("groups") is None for m in members)


def _total(members) -> int | None:
    counts = [m.get("count") for m in members]
    return None if any(c is None for c in counts) else sum(counts)


def _scores(game, parts) -> list[dict]:
    """The live score parts the ruleset shows (see compiler/display.py: they read only what everyone sees,
    unless the author listed them)."""
    rows = game.rs.scoring.score(game, game.state)
    return [{p: row[p] for p in parts} for row in rows]


def _decision(game, seat, words) -> dict | None:
    if seat is None:
        return None
    for d in game.decisions():
        if d.player == seat:
            parts = option_parts(game, seat)
            return {"prompt": words(d.prompt),
                    "now": game.current_player == seat,
                    "at": d.asked_at,   # a choice names the decision it answers (see Decision.asked_at)
                    "options": [{"label": words(label), "parts": [words(x) for x in part]}
                                for label, part in zip(d.options, parts)]}
    return None


def _result(game, result, words) -> dict:
    parts = [name for name, _ in game.rs.scoring.parts]
    return {"reason": words(result["reason"]), "winners": [seat_name(w) for w in result["winners"]],
            "parts": parts, "part_names": [words(p).replace("_", " ") for p in parts], "scores": [{p: row[p] for p in parts + ["total"]} for row in result["scores"]],
            "turns": result["turns"], "rounds": result["rounds"], "stalled": result["stalled"]}


def cards_text(entry) -> str:
    """A shown zone entry as one line: 'red ×3 (6/9) · blue ×2', 'red 1 · blue 4', '7 cards'."""
    if entry.get("hidden"):
        return "(hidden)"
    if entry.get("groups") is not None:
        return " · ".join(f"{g['label']}{' ×' + str(g['count']) if g['count'] > 1 else ''}"
                          + (f" ({g['note']})" if g.get("note") else "") for g in entry["groups"]) or "—"
    if entry.get("cards") is not None:
        return " · ".join(entry["cards"]) or "—"
    n = entry.get("count")
    text = f"{n} card{'s' if n != 1 else ''}"
    if entry.get("top"):
        text += f", top {entry['top']}"
    if entry.get("known"):
        text += ", you know " + ", ".join(f"#{i} {c}" for i, c in entry["known"])
    return text


__all__ = ["board", "cards_text", "grouped"]
