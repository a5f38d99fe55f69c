"""Undo without revealing what was drawn: a game + the choices to keep + the player who undoes -> the game as it
was after those choices, with the cards that player cannot identify dealt again among their places and a
fresh random generator; the redeal is recorded in the state (`State.redeals`), so that a save, a resume, a
later undo and a replay from the seed (`Game.rebuild`) make it again exactly.

Replaying from the seed alone would deal the same cards: a player who drew a card, then undid, would know
the top of the deck (and a card seen in a trade, a peek or a steal would stay where it was seen). The new
deal keeps everything the player has seen: the cards it sees or was shown stay, and so does a card it saw
go into a zone it cannot see while it is still there (a card taken into another player's hand); the
others change places, each only with cards of its type (a type shows on the card's back). A zone whose
unseen cards are all alike (an offer of one kind) gets cards all alike again. Card variables stay with
the place (what is written on a card's back stays where it lies), and names that held a card follow it to
its place (engine/lookahead.py, `_relabel`). The generator is drawn afresh too: the same draws again would
shuffle the same cards into the same order.

A record is (choices made when it was dealt, ((card, the card that took its place), ...), the new seed).
"""
from __future__ import annotations

import random

from .lookahead import _relabel


def undo(game, keep: int, player: int, rng=None):
    """The game after its first `keep` choices (and the redeals made up to there), with the cards `player`
    cannot identify dealt again (`rng`: where the new deal comes from; by default the system's randomness,
    which nobody at the table can predict)."""
    g = game.state
    kept = tuple(r for r in g.redeals if r[0] <= keep)
    fresh = type(game).rebuild(game.rs, g.n, g.seed, g.history[:keep], g.params, kept, game.record)
    redeal(fresh, player, rng if rng is not None else random.SystemRandom())
    return fresh


def choosers(game) -> list[int]:
    """Who made each choice of the game's history, in order (a replay of it, with its redeals)."""
    g = game.state
    copy = type(game)._start(game.rs, g.n, g.seed, g.params, False)
    out = []
    for k, index in enumerate(g.history):
        made(copy, g.redeals, k)
        out.append(int(copy.state.pending[1]))
        copy.apply(index)
    return out


def made(game, redeals, at: int) -> None:
    """Make again the redeals recorded when `at` choices had been made."""
    for record in redeals:
        if record[0] == at:
            apply(game, record)


def apply(game, record) -> None:
    """Deal the cards of a record again and draw the generator afresh; the record joins the state's."""
    at, pairs, seed = record
    g = game.state
    cards = game.rs.card_values
    sigma = {cards[a]: cards[b] for a, b in pairs}
    if sigma:
        g.zones = [[sigma.get(c, c) for c in zone] for zone in g.zones]   # new lists: clones share the old
        _relabel(game, sigma)
    g.rng = random.Random(seed)
    g.redeals = g.redeals + ((at, tuple((int(a), int(b)) for a, b in pairs), seed),)


def redeal(game, player: int, rng) -> None:
    """Deal the cards `player` cannot identify again among their places, and record it."""
    g = game.state
    spots, types, _ = g.layout.unseen[player]
    pinned = kept_in_place(game, player)
    zones = g.zones
    holes = [(s, i) for s, start in spots for i in range(start, len(zones[s])) if zones[s][i] not in pinned]
    before = [zones[s][i] for s, i in holes]
    pool = list(before)
    labels = game.rs.card_labels
    by_type: dict = {}
    for k, c in enumerate(before):
        by_type.setdefault(types[c], []).append(k)
    for _, places in sorted(by_type.items()):
        cards = sorted(before[k] for k in places)
        # a zone whose unseen cards are all alike gets cards all alike again (an offer of one kind)
        blocks: dict = {}
        for k in places:
            blocks.setdefault(holes[k][0], []).append(k)
        alike = [ks for ks in blocks.values() if len(ks) > 1 and len({labels[before[k]] for k in ks}) == 1]
        rng.shuffle(alike)
        for ks in alike:
            by_label: dict = {}
            for c in cards:
                by_label.setdefault(labels[c], []).append(c)
            fits = sorted(label for label, cs in by_label.items() if len(cs) >= len(ks))
            label = fits[rng.randrange(len(fits))]   # one is there: the block's own cards are in `cards`
            chosen = by_label[label][:]
            rng.shuffle(chosen)
            for k, c in zip(ks, chosen):
                pool[k] = c
                cards.remove(c)
        rest = [k for k in places if not any(k in ks for ks in alike)]
        rng.shuffle(cards)
        for k, c in zip(rest, cards):
            pool[k] = c
    pairs = tuple((int(a), int(b)) for a, b in zip(before, pool) if a != b)
    apply(game, (len(g.history), pairs, rng.getrandbits(64)))


def kept_in_place(game, player: int) -> set:
    """The cards a redeal for `player` leaves where they are: those anybody was shown (their knowledge stays
    true), and those `player` saw go where they lie and that have not moved since (their story says so)."""
    g = game.state
    keep = set(g.known)
    layout = g.layout
    last: dict = {}   # card -> the slot where the player last saw it arrive, or None (it moved unseen)

    def sees(slot) -> bool:
        z, owner, _ = layout.owner_of(slot)
        return z is not None and z.level(player, owner) == "cards"
    for event in g.events:
        if event[0] == "move":
            _, _, _, src, dst, cards = event
            seen = sees(src) or sees(dst)
            for c in cards:
                last[c] = dst if seen else None
        elif event[0] == "deal":
            src = event[2]
            for dst, cards in event[3]:
                seen = sees(src) or sees(dst)
                for c in cards:
                    last[c] = dst if seen else None
    for slot, zone in enumerate(g.zones):
        for c in zone:
            if last.get(c) == slot:
                keep.add(c)
    return keep
