"""No story or log line gives a player a card they could never see.

For every bundled ruleset, seeded random games are played and recorded; after each decision, which
cards each player may see is worked out here from the zone declarations and what they were shown, and
which passed through a zone they see on the way (moved or dealt there and away between two decisions);
an onlooker may read what every player may. At the end, the cards a reader never saw are given each other's identities everywhere the game
keeps them (the records of its log, the events of its story, its zones and variables): every text the
reader receives (their story, which holds their log lines and the narrated moves, deals and changes of
variables) must read the same. A text that names a card its reader could not see changes when that card
becomes another; moves between zones, choices, reveals, offers held in variables, picks and log lines all
pass through here."""
from __future__ import annotations

import random

import pytest

from interpreter import Game, load
from interpreter.present.log import entries
from interpreter.present.narrate import story
from interpreter.runtime.values import Card, cards_in
from helpers import shipped_rulesets

TEST_PARAMS = {"pit": {"target": 100}, "pit-bull-bear": {"target": 100}, "pit-classic": {"target": 100},
               "pit-tutorial": {"target": 20}}
DECISIONS = 150


def level(z, owner, reader) -> str:
    """What seat `reader` is shown of a zone (of `owner`'s copy), as declared."""
    return z.owner_sees if owner == reader else z.others_see


def visible(game, reader) -> set:
    """The cards seat `reader` may see now, from the zones' declared levels and what they were shown."""
    rs, g = game.rs, game.state
    out = set()
    for z in rs.zones.values():
        for slot, owner, _ in g.layout.slots(z):
            shown = level(z, owner, reader)
            cards = g.zones[slot]
            out |= set(cards) if shown == "cards" else set(cards[:1]) if shown == "top" else set()
    return out | {c for c, who in g.known.items() if reader in who}


def passed_by(game, reader, events) -> set:
    """The cards these events moved or dealt through a zone whose every card `reader` is shown (a card
    that came and went between two decisions was seen on its way)."""
    g, out = game.state, set()

    def shows(slot):
        z, owner, _ = g.layout.owner_of(slot)
        return level(z, owner, reader) == "cards"
    for e in events:
        if e[0] == "move" and (shows(e[3]) or shows(e[4])):
            out |= set(e[5])
        elif e[0] == "deal":
            out |= {c for slot, cards in e[3] if shows(slot) for c in cards}
    return out


def relabeled(game, sigma: dict):
    """A copy of the game in which each card of `sigma` is the card it maps to, wherever the game keeps it."""
    world = game.clone()
    g = world.state

    def card(c):
        return Card(sigma.get(int(c), int(c)))

    def value(v):
        if type(v) is Card:
            return card(v)
        if type(v) in (list, tuple):
            return type(v)(value(x) for x in v)
        return v

    def found(places):
        return tuple((sigma.get(c, c), slot, i, shown) for c, slot, i, shown in places)

    def pieces(ps):
        return tuple(p if type(p) is str else (value(p[0]), p[1]) for p in ps)

    log = []
    for r in g.log:
        if type(r) is tuple and r[0] == "choice":
            r = r[:3] + (pieces(r[3]), r[4], found(r[5]), found(r[6]))
        elif type(r) is tuple and r[0] == "line":
            r = (r[0], r[1], pieces(r[2])) + ((found(r[3]),) if len(r) > 3 else ())
        elif type(r) is tuple and r[0] == "shown":
            r = r[:3] + (tuple((slot, value(cs)) for slot, cs in r[3]),)
        log.append(r)
    g.log = log
    events = []
    for e in g.events:
        if e[0] == "move":
            e = e[:5] + (value(e[5]),)
        elif e[0] == "deal":
            e = e[:3] + (tuple((slot, value(cs)) for slot, cs in e[3]),)
        elif e[0] == "set":
            e = e[:4] + (value(e[4]), value(e[5])) + ((found(e[6]),) if len(e) > 6 else ())
        events.append(e)
    g.events = events
    g.zones = [[card(c) for c in z] for z in g.zones]
    g.vars = {k: value(v) for k, v in g.vars.items()}
    g.pvars = {k: [value(x) for x in v] for k, v in g.pvars.items()}
    g.known = {card(c): who for c, who in g.known.items()}
    return world


def told_to(game, reader, records) -> set:
    """The cards these records of the log tell `reader` on purpose: a line the ruleset addressed to them
    (`to`, a reveal's line), who was shown what, and the options of the reader's own choices (what a label
    may name of them is issue 29's)."""
    out = set()
    for r in records:
        if type(r) is not tuple:
            continue
        if r[0] == "line" and not (r[3] if len(r) > 3 else ()) and (r[1] is None or reader in r[1]):
            out |= set(cards_in(r[2]))
        elif r[0] == "shown" and reader in r[2]:
            out |= {int(c) for _, cs in r[3] for c in cs}
        elif r[0] == "choice" and r[1] == reader:
            out |= set(cards_in(r[3]))
    return out


def cases():
    for path in shipped_rulesets():
        rules = load(str(path))
        for n in sorted({rules.min_players, rules.max_players}):
            for seed in (1, 2):
                yield pytest.param(path, n, seed, id=f"{path.stem}-{n}p-seed{seed}")


@pytest.mark.parametrize("path,players,seed", list(cases()))
def test_no_text_names_a_card_its_reader_never_saw(path, players, seed):
    rules = load(str(path))
    game = Game.new(rules, players, seed=seed, params=TEST_PARAMS.get(path.stem), record=True)
    readers = list(range(players))
    seen = {r: visible(game, r) for r in readers}
    rng = random.Random(seed)
    told, said = 0, 0   # the events and the log's records looked at so far
    for _ in range(DECISIONS):
        if game.is_over:
            break
        game.apply(rng.randrange(game.option_count()))
        events, told = game.state.events[told:], len(game.state.events)
        records, said = game.state.log[said:], len(game.state.log)
        for r in readers:
            seen[r] |= visible(game, r) | passed_by(game, r, events) | told_to(game, r, records)
    everything = range(len(rules.card_values))
    seen[None] = set.intersection(*seen.values())   # an onlooker reads what every player may
    for reader in readers + [None]:
        never = [c for c in everything if c not in seen[reader]]
        if len(never) < 2:
            continue
        shuffled = never[:]
        random.Random(seed * 31 + (reader or 0)).shuffle(shuffled)
        twin = relabeled(game, dict(zip(never, shuffled)))
        assert story(twin, reader) == story(game, reader), f"a text names a card {reader} never saw"
    assert entries(game)   # the game was recorded
