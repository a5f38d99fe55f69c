"""The game's log in words: the engine's records (engine/records.py) -> the lines each player may read.

A line is made when someone reads the log (the story, a transcript, a scenario's check, the web board),
never while the game runs, and once per game object (`entries` keeps what it made). An entry is a text
everyone reads, [readers, text] for some players only, or [readers, text, the others' text] for a
choice whose line names cards some other player may not know: the chooser reads them, the others read
"a card" in their place. A card is masked when some other player could see it neither where it lay
before the choice nor where it lies once the choice has taken effect (a card laid face up is public, a
card offered from a hand is not).
"""
from __future__ import annotations

from ..engine.choices import joined
from ..runtime.values import ELEMENT, Card, Player


def entries(game) -> list:
    """Every entry of the game's log, in words (made once per game object and kept)."""
    log = game.state.log
    kept = game.__dict__.get("_said")
    if kept is None or kept[0] is not log or len(kept[1]) > len(log):
        kept = game._said = (log, [])
    out = kept[1]
    for record in log[len(out):]:
        if record is None:   # a choice still taking effect (read from inside `apply`): nothing kept from here
            return out + [entry(game, r) if r is not None else "" for r in log[len(out):]]
        out.append(entry(game, record))
    return out


def entry(game, record):
    """One entry of the log in words (an entry already in words, from an older save, is given back)."""
    if type(record) is not tuple:
        return record
    kind = record[0]
    if kind == "choice":
        return _choice(game, record)
    if kind == "line":
        _, readers, pieces = record
        return _for(readers, joined(pieces, game.format))
    if kind == "shown":
        _, readers, viewers, groups = record
        rs, fmt = game.rs, game.format
        parts = [(rs.slot_name(slot, game.state.layout) + ": " if slot is not None else "") + fmt(list(cards))
                 for slot, cards in groups]
        return _for(readers, f"{fmt(list(viewers))} {'sees' if len(viewers) == 1 else 'see'} " + "; ".join(parts))
    if kind == "round":
        return f"round {record[1]}: P{record[2] + 1} starts"
    if kind == "round_end":
        return f"round {record[1]} ends: {record[2]}"
    if kind == "over":
        names = ", ".join(f"P{w + 1}" for w in record[2]) or "nobody"
        return f"game over ({record[1]}): winners {names}"
    raise ValueError(f"unknown record {kind!r}")   # pragma: no cover - saves are checked (engine/saves.py)


def _for(readers, text):
    return text if readers is None else [list(readers), text]


def _choice(game, record):
    _, player, head, pieces, secret, before, after = record
    lead = f"P{player + 1} reacts first: " if head == "reacts" else f"turn {head} P{player + 1}: "
    full = lead + joined(pieces, game.format)
    if secret:
        return [[player], full]
    if not before:
        return full
    hidden = set()
    for q in range(game.state.n):
        if q != player:
            hidden |= {p[0] for p, a in zip(before, after) if not _sees(game, q, p) and not _sees(game, q, a)}
    if not hidden:
        return full
    return [[player], full, lead + joined(pieces, masked(game, hidden))]


def _sees(game, player: int, place) -> bool:
    """Whether `player` could see a card at this place: every card of its zone shows to them, or the top
    one and it was on top, or it had been shown to them."""
    _, slot, position, shown = place
    if player in shown:
        return True
    z, owner, _ = game.state.layout.owner_of(slot)
    if z is None:
        return False
    level = z.level(player, owner)
    return level == "cards" or (level == "top" and position == 0)


def masked(game, hidden: set):
    """Game.format, with each card of `hidden` written as "a card" (in a list of cards, those shown first,
    then how many are masked)."""
    labels, plain = game.rs.card_labels, game.format

    def fmt(value, kind="any"):
        t = type(value)
        if t is Player or (t is int and kind == "player"):
            return plain(value, kind)
        if t is Card or (t is int and kind == "card"):
            return "a card" if value in hidden else labels[value]
        if t is list:
            if value and all(type(v) is Card for v in value):
                shown = [labels[c] for c in value if c not in hidden]
                k = len(value) - len(shown)
                if k:
                    shown.append("a card" if k == 1 else f"{k} cards")
                return ", ".join(shown)
            inner = ELEMENT.get(kind, "any")
            return ", ".join(fmt(v, inner) for v in value)
        return plain(value, kind)
    return fmt


def log_text(entry) -> str:
    """A log entry as text: a private line starts with who may read it, '(P1 only) ...'; a line that the
    others read with some cards masked is given twice, '(P1 only) ...' then '(others) ...'."""
    if type(entry) is str:
        return entry
    audience, text = entry[0], entry[1]
    who = ", ".join(f"P{p + 1}" for p in audience) or "nobody"
    line = f"({who} only) {text}"
    return line if len(entry) == 2 else f"{line}\n(others) {entry[2]}"


def log_for(entry, player) -> str | None:
    """The text of a log entry for `player` (None: not for them; player None: an onlooker, who reads what
    everybody may read)."""
    if type(entry) is str:
        return entry
    if player is not None and int(player) in entry[0]:
        return entry[1]
    return entry[2] if len(entry) == 3 else None


def lines(game, reader=None) -> list:
    """The log as `reader` may read it (None: every line, the private ones marked with their readers)."""
    if reader is None:
        return [log_text(e) for e in entries(game)]
    return [t for t in (log_for(e, reader) for e in entries(game)) if t is not None]
