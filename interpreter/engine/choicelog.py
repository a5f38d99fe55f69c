"""The log line of a choice: an option's label -> the line each player may read, hidden cards masked.

An option's label is rendered before the option is applied ("offer red 1, red 7 to P2"), but
whether another player may know the cards it names is only clear once the option has taken effect:
a card laid face up is public, a card offered from a hand is not. So the label is rendered with its
cards as tokens, and the line is finished after the option has run: cards that some other player
may not see where they now lie are masked for the others ("offer 2 cards to P2"), and the chooser
reads the full line.
"""
from __future__ import annotations

import re

from .view import Viewer

CARD = "\x00"     # \x00<id>\x00: one card
CARDS = "\x01"    # \x01<id>,<id>\x01: a list of cards
TOKEN = re.compile(r"\x00(\d+)\x00|\x01([\d,]*)\x01")


def render(game, node, player, option) -> str:
    """The option's label with its cards as tokens."""
    game.tokens = True
    try:
        return node.label(game, game.state, player, option)
    finally:
        game.tokens = False


def token(value) -> str:
    """A card, or a list of cards, as a token (see Game.format)."""
    if type(value) is list:
        return CARDS + ",".join(str(int(c)) for c in value) + CARDS
    return f"{CARD}{int(value)}{CARD}"


def _text(game, tokens: str, hidden: set) -> str:
    labels = game.rs.card_labels

    def one(m):
        if m.group(1) is not None:
            c = int(m.group(1))
            return "a card" if c in hidden else labels[c]
        ids = [int(x) for x in m.group(2).split(",") if x]
        shown = [labels[c] for c in ids if c not in hidden]
        masked = len(ids) - len(shown)
        if masked:
            shown.append("a card" if masked == 1 else f"{masked} cards")
        return ", ".join(shown)
    return TOKEN.sub(one, tokens)


def named(tokens: str) -> set:
    """The ids of the cards a tokenized text names."""
    out = {int(m.group(1)) for m in TOKEN.finditer(tokens) if m.group(1) is not None}
    return out | {int(x) for m in TOKEN.finditer(tokens) if m.group(2) for x in m.group(2).split(",")}


def seen(game, player: int, cards: set) -> list:
    """For each other player, which of these cards they may see now (before the choice takes effect)."""
    return [set() if q == player else cards & Viewer(game, q, True).visible() for q in range(game.state.n)]


def entry(game, player: int, tokens: str, secret: bool, seen_before: list):
    """The log entry of a choice, once it has taken effect: public, private, or full for the chooser and
    masked for the others (a card is masked when some other player could see it neither before the
    choice nor where it lies now)."""
    full = _text(game, tokens, set())
    if secret:
        return [[int(player)], full]
    cards = named(tokens)
    if not cards:
        return full
    hidden = set()
    for q in range(game.state.n):
        if q != player:
            hidden |= cards - seen_before[q] - Viewer(game, q, True).visible()
    if not hidden:
        return full
    return [[int(player)], full, _text(game, tokens, hidden)]
