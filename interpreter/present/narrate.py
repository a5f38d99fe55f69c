"""Narrate a game for one player: the log and the effects' events (moves, deals, score changes) -> readable lines.

Events are recorded by the engine only when a game records its log (see runtime/effects.py: `move`,
`deal`, `set`). A line names cards only where the reader may see them, in the zone they left or in
the zone they reached; otherwise it says how many. Players are named by seat ("P2"), the reader as
"you".
"""
from __future__ import annotations

import re

from ..engine.view import Viewer
from ..runtime.values import Player, cards_of
from .log import entries, log_for, log_text, masked, sees

_NO_ONE = -1
ALL = "all"     # a reader who is told everything, every card named: the rulebook's example of play
SEAT = re.compile(r"\bP([1-9][0-9]?)\b")


def seat(p, reader, names=None) -> str:
    """A player in a line for `reader`: 'you', or their name (the names given, else P1, P2 ...)."""
    if reader is not None and p == reader:
        return "you"
    return names[p] if names and 0 <= p < len(names) and names[p] else f"P{p + 1}"


def named(text: str, names) -> str:
    """A line of the log with the players called by the names given ('P2 trades' -> 'Ann trades')."""
    if not names:
        return text
    return SEAT.sub(lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names) and
                    names[int(m.group(1)) - 1] else m.group(0), text)


def plural(word: str, n: int) -> str:
    """'card' -> 'cards', 'penny' -> 'pennies' (n != 1)."""
    if n == 1:
        return word
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "sh", "ch")):
        return word + "es"
    return word + "s"


def grouped(labels) -> str:
    """'red ×2, blue': equal labels once with their count, in order of first appearance."""
    counts: dict = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    return ", ".join(f"{label} ×{n}" if n > 1 else label for label, n in counts.items())


class Narrator:
    """Turns one game's events into lines for one reader (a seat, or None for an onlooker who sees only
    what everyone sees)."""

    def __init__(self, game, reader, names=None):
        self.game, self.reader, self.names = game, reader, list(names or [])
        rs = game.rs
        self.display = rs.display
        self.layout = game.state.layout
        self.words = self.display.words if self.display is not None else (lambda t: t)
        shown = set(self.display.variables) if self.display is not None else set(rs.var_specs)
        if self.display is not None:
            # a score part's variables are narrated when the part is shown (a score that goes up)
            for name, expr in rs.scoring.parts:
                if name in self.display.scores:
                    shown |= {n for n in rs.var_specs if n in expr.text}
        self.narrated_vars = shown
        # zones whose moves between one owner's zones are staging, told by the ruleset's log lines
        self.quiet = {zd.name for zd in self.display.zones if not zd.narrate} if self.display is not None else set()

    # places and cards -------------------------------------------------------
    def where(self, slot):
        """(zone, owner or None, words for the place as seen by the reader)."""
        z, owner, key = self.layout.owner_of(slot)
        return z, owner, self.display.called(z, key)   # what people call it: 'row 2', 'the queue at perch 1'

    def owned(self, owner, name, subject) -> str:
        """A player's zone from the sentence's subject's point of view: 'their hand', 'your hand', "P2's hand"."""
        if owner == subject:
            return ("your " if subject == self.reader else "their ") + name
        return ("your " if owner == self.reader else f"{seat(owner, None, self.names)}'s ") + name

    def sees(self, z, owner) -> bool:
        if self.reader == ALL:
            return True
        if self.reader is None:
            return z.others_see == "cards" and (owner is None or z.owner_sees == "cards")
        return z.level(self.reader, owner) == "cards"

    def hidden(self, z, owner) -> bool:
        """The reader is not even shown how many cards lie there."""
        if self.reader == ALL:
            return False
        if self.reader is None:
            return z.others_see == "none"
        return z.level(self.reader, owner) == "none"

    def cards(self, cards, visible) -> tuple[str, str]:
        """('3 tiles', 'red ×2, blue') when the reader may see them, ('3 cards', '') otherwise."""
        n = len(cards)
        if not visible:
            return f"{n} {plural('card', n)}", ""
        rs = self.game.rs
        types = {rs.cards[int(c)]["type"] for c in cards}
        noun = self.words(types.pop()).replace("_", " ") if len(types) == 1 else "card"
        return f"{n} {plural(noun, n)}", grouped(self.words(rs.card_labels[c]) for c in cards)

    def unseen(self, cards, where) -> set:
        """Which of these cards the reader could not see where they lay when the event happened (`where`:
        their places then; an event saved without them is judged by where the cards lie now)."""
        if not cards or self.reader == ALL:
            return set()
        if where is None:
            visible = Viewer(self.game, self.reader, True).visible()
            return {c for c in cards if c not in visible}
        return {p[0] for p in where if not sees(self.game, self.reader, p)}

    def verb(self, subject, third: str, second: str) -> str:
        return f"{seat(subject, self.reader, self.names)} {second if subject == self.reader else third}"

    # events -----------------------------------------------------------------
    def shown(self, z) -> bool:
        """Whether the board draws a zone's cards (not only how many)."""
        zd = self.display.zone(z.name)
        return zd is not None and zd.show == "cards"

    def shared_move(self, src, dst, cards) -> str | None:
        """Cards that went from one shared zone to another (a row refilled from the deck): told when the board
        draws the zone they reached, as '1 tile goes from the bag to row 4: red' (a zone the board does
        not draw, where cards wait on their way, is not named)."""
        zs, _, sname = self.where(src)
        zd, _, dname = self.where(dst)
        if not self.shown(zd) or self.hidden(zd, None):
            return None
        many, named = self.cards(cards, self.sees(zs, None) or self.sees(zd, None))
        verb = "goes" if len(cards) == 1 else "go"
        origin = f" from {sname}" if self.display.zone(zs.name) is not None else ""
        return f"{many} {verb}{origin} to {dname}" + (f": {named}" if named else "")

    def move(self, actor, src, dst, cards) -> str | None:
        zs, so, sname = self.where(src)
        zd, do, dname = self.where(dst)
        if so is None and do is None:
            return None   # between shared zones: see shared_move
        if self.hidden(zs, so) and self.hidden(zd, do):
            return None
        if so == do and (zs.name in self.quiet or zd.name in self.quiet):
            return None
        many, named = self.cards(cards, self.sees(zs, so) or self.sees(zd, do))
        tail = f": {named}" if named else ""
        if self.hidden(zd, do):
            who = so if so is not None else actor
            return f"{self.verb(who, 'puts', 'put')} {many} from {self.owned(so, sname, who) if so is not None else sname} out of sight{tail}"
        if self.hidden(zs, so):
            who = do if do is not None else actor
            return f"{self.verb(who, 'gets', 'get')} {many} in {self.owned(do, dname, who) if do is not None else dname}{tail}"
        if so is not None and so == do:
            return (f"{self.verb(so, 'moves', 'move')} {many} from {self.owned(so, sname, so)} "
                    f"to {self.owned(do, dname, so)}{tail}")
        if so is None:
            return f"{self.verb(do, 'takes', 'take')} {many} from {sname} into {self.owned(do, dname, do)}{tail}"
        if do is None:
            return f"{self.verb(so, 'puts', 'put')} {many} from {self.owned(so, sname, so)} in {dname}{tail}"
        if actor == do:
            return f"{self.verb(do, 'takes', 'take')} {many} from {self.owned(so, sname, do)}{tail}"
        return f"{self.verb(so, 'gives', 'give')} {many} to {seat(do, self.reader, self.names)}{tail}"

    def deal(self, dealt) -> str | None:
        parts, mine = [], ""
        counts = {len(cards) for _, cards in dealt}
        whom = []
        for slot, cards in dealt:
            z, owner, name = self.where(slot)
            if owner is None:
                continue
            whom.append(seat(owner, self.reader, self.names))
            if len(counts) > 1:
                parts.append(f"{seat(owner, self.reader, self.names)} {len(cards)}")
            if owner == self.reader and self.sees(z, owner) and cards:
                mine = f"; yours: {grouped(self.words(self.game.rs.card_labels[c]) for c in cards)}"
        if not whom:
            return None
        if len(counts) == 1:
            n = counts.pop()
            if len(whom) == self.game.state.n and len(whom) > 1:
                whom = "each player"
            else:
                whom = whom[0] if len(whom) == 1 else ", ".join(whom[:-1]) + " and " + whom[-1]
            return f"{n} {plural('card', n)} dealt to {whom}{mine}"
        return "cards dealt: " + ", ".join(parts) + mine

    def set(self, name, player, old, new, where=None) -> str | None:
        if name not in self.narrated_vars:
            return None
        spec = self.game.rs.var_specs.get(name)
        visible = "public" if spec is None else spec.visible
        if self.reader != ALL and (visible == "nobody" or (visible == "owner" and (player < 0 or player != self.reader))):
            return None
        fmt = self.game.format
        hidden = self.unseen(cards_of(old, new), where)
        if hidden:
            fmt = masked(self.game, hidden)   # a card the reader could not see where it lay: "a card"
        if type(new) is Player and type(old) is int:
            old = Player(old) if 0 <= old < self.game.state.n else old   # a seat before any was set
        label = self.words(name).replace("_", " ")   # the name the display gives it, else its id as words
        change = ""
        if all(type(v) is int for v in (old, new)):
            change = f" ({'+' if new > old else ''}{new - old})"
        who = "" if player < 0 else ("your " if player == self.reader else f"{seat(player, None, self.names)}'s ")
        def text(v):   # an empty list reads "none", as on the board
            return "none" if v == [] else self.words(fmt(v))
        if old is None or old == []:   # a value given for the first time (or to an empty list): what it is
            return f"{who}{label}: {text(new)}"
        return f"{who}{label}: {text(old)} → {text(new)}{change}"

    def between_shared(self, src, dst) -> bool:
        return self.layout.owner_of(src)[1] is None and self.layout.owner_of(dst)[1] is None

    def line(self, event) -> str | None:
        kind = event[0]
        if kind == "move":
            return self.move(int(event[2]), event[3], event[4], event[5])
        if kind == "deal":
            return self.deal(event[3])
        if kind == "set":
            return self.set(event[2], int(event[3]), event[4], event[5], event[6] if len(event) > 6 else None)
        return None


def story(game, reader, since: int = 0, marked: bool = False, events_from: int = 0, names=None) -> list[str]:
    """The log lines `reader` may read and the narrated events, in the order they happened, from the
    log entry `since` on (reader None: an onlooker, who reads the public lines only, or with `marked`
    every line, a private one marked with who may read it: bots watched at the terminal; ALL: every
    line whole and every card named). `names`: the players' names, for P1, P2 ...

    An event is recorded with the number of log lines written before it, so the events just after
    line `since - 1` may have been told already: `events_from` leaves out the events before that one
    (a watcher that prints the story as it goes tells each once)."""
    g = game.state
    narrator = Narrator(game, reader, names)
    said = entries(game)
    events = [e for e in g.events[events_from:] if e[1] >= since]
    # the setup lays the table before anyone chose: the board shows it, cards moved between shared zones
    # are told from the first choice on
    started = next((i for i, r in enumerate(g.log) if type(r) is tuple and r[0] == "choice"), len(said))
    out, e = [], 0
    pending: list = []     # consecutive moves between the same two shared zones, told as one line

    def flush():
        if pending:
            text = narrator.shared_move(pending[0][0], pending[0][1], [c for _, _, cs in pending for c in cs])
            if text:
                out.append(said_to(text, reader, names))
            pending.clear()
    for i in range(since, len(said) + 1):
        while e < len(events) and events[e][1] <= i:
            event = events[e]
            e += 1
            if event[0] == "move" and narrator.between_shared(event[3], event[4]):
                if event[1] > started:
                    if pending and (pending[0][0], pending[0][1]) != (event[3], event[4]):
                        flush()
                    pending.append((event[3], event[4], event[5]))
                continue
            flush()
            text = narrator.line(event)
            if text:
                out.append(said_to(text, reader, names))
        flush()
        if i < len(said):
            entry = said[i]
            if reader == ALL:
                text = entry if type(entry) is str else entry[1]
            elif reader is not None:
                text = log_for(entry, reader)
            else:
                text = log_text(entry) if marked or type(entry) is str else None
            if text is not None:
                out.append(said_to(narrator.words(text), reader, names))
    return out


def said_to(text: str, reader, names) -> str:
    """A line of the story as its reader reads it: their seat as 'you', the others by their names."""
    if isinstance(reader, int) and not isinstance(reader, bool):
        text = personal(text, int(reader))
    return named(text, names)


# the reader in a line of the log: 'P1 corners the market' -> 'you corner the market' ----------------------
IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}


def conjugate(word: str) -> str:
    """A verb after 'you': 'corners' -> 'corner', 'passes' -> 'pass', 'carries' -> 'carry', 'is' -> 'are'."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def personal(text: str, reader: int) -> str:
    """A line of the log as its reader reads it: their seat as 'you' (and 'your'), a verb after it agreeing,
    so that a story never calls its reader both 'P1' and 'you'."""
    me = f"P{reader + 1}"
    if me not in text:
        return text
    text = re.sub(rf"\b{me}'s\b", "your", text)
    # the reader as the subject of a clause: at the start, or after ': ' or '; '
    text = re.sub(rf"(^|: |; )({me}) ([a-z]+)\b", lambda m: f"{m.group(1)}you {conjugate(m.group(3))}", text)
    return re.sub(rf"\b{me}\b", "you", text)
