"""The game's log in words: the engine's records (engine/records.py) -> the lines each player may read.

A line is made when someone reads the log (the story, a transcript, a scenario's check, the web board),
never while the game runs, and once per game object (`entries` keeps what it made). An entry is a text
everyone reads, [readers, text] for some players only, or [readers, text, the others' text] for a line
that names cards some readers may not know: the chooser of a choice, and every player who could see each
card it names, read them; the other players and an onlooker (the watch link) read "a card" in their
place. A choice's card counts as seen where it lay before the choice, where it lies once the choice
has taken effect (a card laid face up is public, a card offered from a hand is not), or anywhere it was
moved to while the choice took effect (a card played to the open table, then gathered face down with its
trick: the engine counts the seats that saw it there as seats it was shown to); the card of a line
that everyone reads (a `log` without `to`), where it lay when the line was written. A line whose readers
the ruleset names (`to`, a reveal's line) tells them what it says.
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
        readers, pieces, where = record[1], record[2], record[3] if len(record) > 3 else ()
        if readers is not None or not where:
            return _for(readers, joined(pieces, game.format))
        # a line for everyone: each reader is told the cards they could see where they lay
        return _masked(game, "", pieces, (where,))
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
    if secret:
        return [[player], lead + joined(pieces, game.format)]
    if not before:
        return lead + joined(pieces, game.format)
    # the chooser too is told whole only the cards it could see before or after: it may have chosen a
    # card it could not see (one from another player's face-down hand, by its place)
    return _masked(game, lead, pieces, (before, after))


def _masked(game, lead, pieces, wheres):
    """A line in words for each reader: every seat that could see each card the line names at one of its
    places (`wheres`: the cards' places at the moments the line covers; a choice's chooser too) reads it
    whole; the seats that could not see a card, and an onlooker (who reads what every player may), read
    "a card" for each card one of them could not see there (a card its back names is never masked).
    -> a text for everyone, or [the seats that read it whole, it, the others' text]."""
    by_back = game.rs.by_back
    hidden = {q: {ps[0][0] for ps in zip(*wheres) if ps[0][0] not in by_back and not any(sees(game, q, p) for p in ps)}
              for q in range(game.state.n)}
    full = lead + joined(pieces, game.format)
    if not any(hidden.values()):
        return full
    whole = [q for q in range(game.state.n) if not hidden[q]]
    others_read = lead + joined(pieces, masked(game, set().union(*hidden.values())))
    return [whole, full, others_read] if whole else others_read


def sees(game, reader, place) -> bool:
    """Whether `reader` could see a card at this place: every card of its zone shows to them, or the top one
    and it was on top, or it had been shown to them. An onlooker (None) sees what every player sees."""
    if reader is None:
        return all(sees(game, q, place) for q in range(game.state.n))
    _, slot, position, shown = place
    if reader in shown:
        return True
    z, owner, _ = game.state.layout.owner_of(slot)
    if z is None:
        return False
    level = z.level(reader, owner)
    return level == "cards" or (level == "top" and position == 0)


def masked(game, hidden: set):
    """Game.format, with each card of `hidden` written as "a card" (in a list of cards, those shown first,
    then how many are masked), except a card whose back tells which card it is (Ruleset.by_back)."""
    labels, plain = game.rs.card_labels, game.format
    hidden = hidden - game.rs.by_back   # its back tells which card it is

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
