"""What effects do to a game state: the one implementation of every state change (move, deal, refill,
shuffle, set and add, reveal and forget, keep, leave a turn or round) -> the state changed in place.

A zone's list is never changed in place: a move, a deal, a shuffle or a sort stores a new list in the
zone's slot (the generated moves too: effects/cards.py). So a clone shares the lists of every zone with its
original until one of them writes it (a bot's trial copies none: engine/state.py), and a list read from a
zone stays what it was, whatever moves after.

Generated code calls these (their names in the table of runtime/table.py), and so do the VM's nodes and
the turn's transition; nothing else changes zones, variables or what a player was shown. Each takes the
running game as `vm` (what it reads of it: `record`, `rs`, `format`, `log_line`, `log_shown`, `stall`) and its
state as `g`, and pays the work budget (runtime/budget.py) where its work grows with a list.
"""
from __future__ import annotations

from ..errors import GameError
from .budget import kept, over_items, spend
from .draws import shuffle as shuffle_list
from .operators import plus
from .values import Card, as_player, as_players, cards_of, places

MAX_STACK = 200
MAX_LOOP = 100_000   # no loop runs more often than this, whatever its `max` says
# A write makes new lists of a zone's cards (a zone's list is never changed in place): one of at most this many
# cards costs what any effect costs; a longer one pays its length (so that a loop moving cards in a zone of
# thousands is stopped by the step's budget, as a walk over them would be)
FREE_COPY = 64

ONLY_CARDS = {Card}
FRONT_WORDS = {"start", "left", "top", "first", "front"}
BACK_WORDS = {"end", "right", "bottom", "last", "back"}


def is_front(word) -> bool:
    """True for the words that name the start of an ordered zone; raise for anything that names neither end."""
    if word in FRONT_WORDS:
        return True
    if word in BACK_WORDS:
        return False
    raise GameError(f"'{word}' names no end of a zone: use start/left/top or end/right/bottom", "bad-end")


# cards ----------------------------------------------------------------------

def move_cards(vm, g, s, d, cards, at, env, text, unsure=True) -> None:
    """Move given cards from slot s to slot d (at the end `at` names, a compiled word: None for the back).
    `unsure`: whether the cards must be checked to be cards (their kind was not known at load)."""
    zones = g.zones
    src = zones[s]
    cards = [cards] if type(cards) is Card else list(cards)
    if unsure and cards and set(map(type, cards)) != ONLY_CARDS:
        raise GameError(f"move takes cards, not {vm.format(cards)} ({text})", "not-a-card")
    n = len(cards)
    if n > 8 or len(src) > 64:
        # a big move pays for what it goes through; a small one costs at most a few hundred
        # steps of C, like any effect
        spend(g, n + len(src))
    if n > 8:
        src = _take(src, cards, text)   # one pass (one card at a time, each would cost a pass)
    else:
        src = src[:]
        for c in cards:
            try:
                src.remove(c)
            except ValueError:
                raise card_not_in_zone(text) from None
    if len(src) > FREE_COPY:
        spend(g, len(src))
    zones[s] = src
    if cards:
        _place(vm, g, s, d, cards, at, env)


def card_not_in_zone(text) -> GameError:
    """The error of a move whose given cards are not all in the zone they leave (`text`: the move)."""
    return GameError(f"a card to move is not in the source zone ({text})", "card-not-in-zone")


def _take(src, cards, text) -> list:
    """A zone's cards without many of them, made in one pass (removing them one by one costs a pass each)."""
    place = {c: i for i, c in enumerate(src)}
    gone = set()
    for c in cards:
        i = place.pop(c, None)
        if i is None:
            raise card_not_in_zone(text)
        gone.add(i)
    return [c for i, c in enumerate(src) if i not in gone]


def move_top(vm, g, s, d, k, take, at, env, refill) -> bool:
    """Move k cards (None: all) from an end of slot s (`take`, a compiled word: None for the front) to slot
    d; refill the source first when it runs short. True when there were fewer than k."""
    zones = g.zones
    src = zones[s]
    if k is None:
        k = len(src)
    short = False
    if len(src) < k:
        more = refill.get(s)
        if more is not None:
            refill_zone(vm, g, s, more)
            src = zones[s]
        if len(src) < k:
            short = True
            k = len(src)
    if k <= 0:
        return short
    if take is None or is_front(take(g, env, None)):
        cards, src = src[:k], src[k:]
    else:
        cards, src = src[-k:], src[:-k]
    if len(src) > FREE_COPY:
        spend(g, len(src))
    zones[s] = src
    _place(vm, g, s, d, cards, at, env)
    return short


def _made(g, cards: list) -> list:
    """A zone's new list, paid for when it is longer than FREE_COPY (the moves above pay so, inline)."""
    if len(cards) > FREE_COPY:
        spend(g, len(cards))
    return cards


def _place(vm, g, s, d, cards, at, env) -> None:
    front = at is not None and is_front(at(g, env, None))
    dst = cards + g.zones[d] if front else g.zones[d] + cards
    if len(dst) > FREE_COPY:
        spend(g, len(dst))
    g.zones[d] = dst
    if (g.known or vm.rs.card_resets) and s != d:
        moved(vm, g, cards)
    if vm.record:
        # for narration: who moved which cards from where to where (see present/narrate.py)
        g.events.append(("move", len(g.log), env.get("me", -1), s, d, tuple(cards)))
        if vm._choice_logs:
            # a choice's line names cards: who saw them on their way (the first moved lies at this position)
            vm.passing(d, cards, 0 if front else len(dst) - len(cards))


def deal(vm, g, s, base, k, who, refill) -> bool:
    """Deal k cards from slot s to slot base + p of each player p in `who`, one at a time; True when the
    source ran out."""
    zones = g.zones
    dealt = []
    short = False
    before = [len(zones[base + p]) for p in who] if vm.record else None
    n = len(who)
    src = zones[s]
    if n and k > 0 and k * n <= len(src) and len(set(who)) == n and s - base not in who:
        # enough cards for every round, each player once: the rounds' cards taken at once, every n-th to a
        # player, as one at a time would (paid as the rounds pay, at once)
        spend(g, k * n)
        dealt = src[:k * n]
        zones[s] = _made(g, src[k * n:])
        for i, p in enumerate(who):
            zones[base + p] = _made(g, zones[base + p] + dealt[i::n])
        k = 0
    for _ in range(k if who else 0):
        spend(g, len(who))
        for p in who:
            src = zones[s]
            if not src:
                more = refill.get(s)
                if more is not None:
                    refill_zone(vm, g, s, more)
                    src = zones[s]
                if not src:
                    short = True
                    break
            card = src[0]
            zones[s] = _made(g, src[1:])
            zones[base + p] = _made(g, zones[base + p] + [card])
            dealt.append(card)
        if short:
            break
    if dealt and (g.known or vm.rs.card_resets):
        moved(vm, g, dealt)
    if dealt and vm.record:
        g.events.append(("deal", len(g.log), s, tuple((base + p, tuple(zones[base + p][b:]))
                                                     for p, b in zip(who, before))))
    return short


def refill_zone(vm, g, slot: int, from_slot: int) -> None:
    """Shuffle the cards of a zone's refill zone into it (a discard pile becoming the deck)."""
    zones = g.zones
    src = zones[from_slot]
    if src:
        spend(g, len(src) + len(zones[slot]))
        if g.known or vm.rs.card_resets:
            moved(vm, g, src)
            for c in zones[slot]:
                g.known.pop(c, None)   # shuffled: where they lie is no longer known
        new = zones[slot] + src
        zones[from_slot] = []
        shuffle_list(g.rng, new)
        zones[slot] = new


def shuffle(g, slot) -> None:
    """Shuffle one zone with the game's random generator."""
    zone = g.zones[slot] = g.zones[slot][:]
    spend(g, len(zone))
    shuffle_list(g.rng, zone)
    if g.known:
        # where each card lies is no longer known to anyone who was shown it
        for c in zone:
            g.known.pop(c, None)


def sort_zone(g, slot, keys: list, descending: bool) -> None:
    """Put the cards of a zone in order of their keys (`keys[i]`: the key of the i-th card); equal keys keep
    their order. Keys of different kinds cannot be ordered: the game stops, in the author's words."""
    zone = g.zones[slot]
    order = sorted(range(len(zone)), key=keys.__getitem__, reverse=descending)
    g.zones[slot] = [zone[i] for i in order]


def moved(vm, g, cards) -> None:
    """Cards changed zone: their card variables go back to their defaults (unless kept), and whoever was
    shown them forgets them."""
    known = g.known
    if known:
        for c in cards:
            known.pop(c, None)
    for name, default in vm.rs.card_resets:
        values = g.cvars[name]
        for c in cards:
            values[c] = list(default) if type(default) is list else default


# what players were shown ----------------------------------------------------

def reveal(vm, g, cards, to, until: str, template, env) -> None:
    """Show cards to some players only: each remembers them (its view lists them) until they move, or
    until the end of the turn or round (`until`); the log tells only them (`template`: its own line, else
    which cards they were shown where)."""
    cards = [cards] if type(cards) is Card else list(cards)
    who = as_players(g, to, "reveal's 'to'")
    spend(g, len(cards) * (len(who) + 1))
    for c in cards:
        if type(c) is not Card:
            raise GameError(f"reveal shows cards, not {vm.format(c)}", "not-a-card")
        seen = g.known.setdefault(c, {})
        for p in who:
            seen[p] = until
    if vm.record and who and cards:
        if template is not None:
            vm.log_line(template.pieces(vm, g, env), who)
        else:
            vm.log_shown(cards, who)   # "P2 sees P1's hand: red 3, blue 1", in words when it is read


def forget(g, until: str) -> None:
    """The end of a turn or round: reveals that last that long are forgotten."""
    ends = ("turn",) if until == "turn" else ("turn", "round")
    for c in list(g.known):
        who = g.known[c]
        for p in [p for p, u in who.items() if u in ends]:
            del who[p]
        if not who:
            del g.known[c]


# values ---------------------------------------------------------------------

def set_var(vm, g, name, v, add) -> None:
    """Assign (or add to) a game variable."""
    if type(v) is list and not add:
        v = kept(g, v)   # within the caps, paid for
    old = g.vars[name]
    new = g.vars[name] = grown(g, old, v) if add else v
    if vm.record and old != new:
        # for narration: the values, and where the cards they hold lie (a reader is told only those it sees)
        g.events.append(("set", len(g.log), name, -1, old, new, places(g, cards_of(old, new))))


def set_player_var(vm, g, name, who, v, add) -> None:
    """Assign (or add to) a player's variable."""
    if type(v) is list and not add:
        v = kept(g, v)   # within the caps, paid for
    table = g.pvars[name]
    p = as_player(g, who)
    old = table[p]
    new = table[p] = grown(g, old, v) if add else v
    if vm.record and old != new:
        g.events.append(("set", len(g.log), name, p, old, new, places(g, cards_of(old, new))))


def set_card_var(vm, g, name, cards, v, add) -> None:
    """Assign (or add to) a card variable of one card or of each card of a list."""
    if type(v) is list and not add:
        v = kept(g, v)   # within the caps, paid for
    table = g.cvars[name]
    for c in [cards] if type(cards) is Card else cards:
        if type(c) is not Card:
            raise GameError(f"'{name}' is a card variable, but {vm.format(c)} is not a card", "not-a-card")
        table[c] = grown(g, table[c], v) if add else v


def grown(g, old, v):
    """`add`: numbers add up, texts and lists are appended to (within the caps of budget.py)."""
    return plus(g, old, v)


def keep(g, v):
    """A value about to be kept (a `let`, a loop's items, a procedure's argument): a list within the caps and
    paid for, kept as it is (no list is changed in place, a zone's neither: a move replaces it)."""
    if type(v) is not list:
        return v
    n = len(v)
    if n <= 64 and list not in map(type, v):   # a short flat list (the common case): `kept` inline
        w = g.work - n
        g.work = w
        if w < 0:
            raise over_items()
        return v
    return kept(g, v)


# loops ----------------------------------------------------------------------

def loop_limit(vm, limit, where: str) -> int:
    """A `while`/`until` loop's `max`, within MAX_LOOP; when it is below 1 although the loop's condition
    holds, the game ends stalled (`where`: the loop, for the reason)."""
    limit = min(limit, MAX_LOOP)
    if limit < 1:
        vm.stall(f"a loop may run {limit} times but its condition holds {where}")
    return limit


def loop_spent(vm, limit: int, where: str) -> None:
    """A loop ran `max` times and its condition still holds: the game ends stalled."""
    vm.stall(f"a loop ran {limit} times without its condition being met {where}")


# leaving a turn or a round --------------------------------------------------

def _unwind(g, marker: int, what: str, where: str) -> None:
    """Pop frames down to and including the one a flow node owns; refuse when there is none."""
    stack = g.stack
    if not any(f[3] == marker for f in stack):
        raise GameError(f"{what} is only possible {where} (it was used outside)", "flow")
    while stack[-1][3] != marker:
        stack.pop()
    stack.pop()


def end_turn(vm, g) -> None:
    """Skip the rest of the turn's steps; the turn's `end` effects and the end checks still run."""
    _unwind(g, vm.rs.steps_node, "end_turn", "during a turn's steps (in actions and what they call)")


def end_round(vm, g) -> None:
    """End the round now: the round's `end` effects run (with `me` the current player), then the next
    round starts, by default with the same current player."""
    _unwind(g, vm.rs.turn_loop_node, "end_round", "during a turn")
    g.stack[-1][2]["me"] = g.current
