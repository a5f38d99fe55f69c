"""Invariants over every shipped ruleset and many seeds: conservation, termination, replay, clone, save, views."""
from __future__ import annotations

import json
import random

import pytest

from interpreter import Game, load
from helpers import shipped_rulesets

RULESETS = shipped_rulesets()
SEEDS = range(6)


def _loaded(path):
    return load(str(path))


def _player_counts(rules):
    return range(rules.min_players, rules.max_players + 1)


def cases():
    for path in RULESETS:
        rules = _loaded(path)
        for n in _player_counts(rules):
            yield pytest.param(rules, n, id=f"{path.stem}-{n}p")


def _visible_slots(game, player):
    """Slots whose cards `player` may see, straight from the zone declarations."""
    rs, n = game.rs, game.state.n
    out = {}
    for z in rs.zones.values():
        if z.per_player:
            slots = [(rs.fixed_slots + z.index * n + p, p) for p in range(n)]
        else:
            slots = [(z.slot + i, None) for i in range(z.count or 1)]
        for s, owner in slots:
            if z.visibility == "public" or (z.visibility == "owner" and owner == player):
                out[s] = "all"
            elif z.visibility == "top":
                out[s] = "top"
    return out


def _view_ids(view):
    ids = []

    def walk(v):
        if isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                if k != "count":
                    walk(x)
        elif isinstance(v, int) and not isinstance(v, bool):
            ids.append(v)
    walk(view["zones"])
    return ids


@pytest.mark.parametrize("rules,players", list(cases()))
def test_cards_conserved_and_no_card_in_two_zones(rules, players):
    everything = list(range(len(rules.cards)))
    for seed in SEEDS:
        game = Game.new(rules, players, seed=seed, record=False)
        rng = random.Random(seed)
        while True:
            held = sorted(c for zone in game.state.zones for c in zone)
            assert held == everything
            if game.is_over:
                break
            game.apply(rng.randrange(game.option_count()))
        assert game.result["turns"] <= rules.turn_limit


@pytest.mark.parametrize("rules,players", list(cases()))
def test_replay_reproduces_the_final_state(rules, players):
    for seed in SEEDS:
        game = Game.new(rules, players, seed=seed)
        rng = random.Random(seed + 100)
        while not game.is_over:
            game.apply(rng.randrange(game.option_count()))
        again = Game.replay(rules, players, seed, game.state.history)
        assert again.to_json() == game.to_json()


@pytest.mark.parametrize("rules,players", list(cases()))
def test_clone_is_independent_and_save_restore_round_trips(rules, players):
    for seed in SEEDS:
        game = Game.new(rules, players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            if steps % 17 == 5:
                snapshot = json.dumps(game.to_json(), sort_keys=True)
                # a clone played to the end leaves the original untouched
                twin = game.clone()
                twin_rng = random.Random(seed * 7 + steps)
                while not twin.is_over:
                    twin.apply(twin_rng.randrange(twin.option_count()))
                assert json.dumps(game.to_json(), sort_keys=True) == snapshot
                # save -> text -> restore gives the same state, and it plays on identically
                restored = Game.from_json(rules, json.loads(snapshot))
                assert json.dumps(restored.to_json(), sort_keys=True) == snapshot
                a, b = game.clone(), restored
                r1, r2 = random.Random(steps), random.Random(steps)
                while not a.is_over:
                    a.apply(r1.randrange(a.option_count()))
                    b.apply(r2.randrange(b.option_count()))
                assert b.is_over and a.to_json() == b.to_json()
            game.apply(rng.randrange(game.option_count()))
            steps += 1


@pytest.mark.parametrize("rules,players", list(cases()))
def test_views_hold_only_what_their_player_may_see(rules, players):
    for seed in SEEDS[:3]:
        game = Game.new(rules, players, seed=seed, record=False)
        rng = random.Random(seed)
        while not game.is_over:
            for p in range(players):
                allowed = set()
                for s, how in _visible_slots(game, p).items():
                    cards = game.state.zones[s]
                    allowed.update(cards if how == "all" else cards[:1])
                seen = _view_ids(game.view(p, ids=True))
                assert set(seen) <= allowed
                # and labels: the view holds exactly as many card labels as visible cards
                assert len(_view_ids(game.view(p, ids=True))) == len(seen)
            game.apply(rng.randrange(game.option_count()))


@pytest.mark.parametrize("rules,players", list(cases()))
def test_every_decision_has_labelled_options_in_a_stable_order(rules, players):
    game = Game.new(rules, players, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        d = game.decision
        assert len(d.options) == game.option_count() > 0
        assert all(isinstance(o, str) and o for o in d.options)
        assert game.decision == d   # asking twice gives the same decision
        game.apply(rng.randrange(len(d.options)))
