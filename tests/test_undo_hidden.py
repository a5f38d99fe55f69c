"""Undo respects hidden information (engine/redeal.py): a player who drew a card and undid cannot know what the
draw will give, what the player sees is unchanged by the new deal, and the new deal is recorded so that saves,
resumes, replays and later undos make it again exactly."""
from __future__ import annotations

import random

import pytest

from interpreter import Game, load
from interpreter.engine.redeal import undo
from interpreter.engine.view import observation


def hand(game, seat=0) -> list:
    rs = game.rs
    return sorted(rs.card_labels[c] for c in game.state.zones[rs.zone_slot("hand", game.state.n, seat)])


def to_own_draw(name: str, players: int, seed: int, word: str):
    """A seeded game played at random up to a decision of seat 0 that offers an option starting with `word`."""
    game = Game.new(load(name), players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        d = game.decision
        if d.player == 0 and any(o.startswith(word) for o in d.options):
            return game, [o.startswith(word) for o in d.options].index(True)
        game.apply(rng.randrange(len(d.options)))
    return None, None


def test_a_player_who_undoes_a_draw_cannot_predict_what_it_drew():
    same, tried = 0, 0
    for seed in range(40):
        game, draw = to_own_draw("cubirds", 2, seed, "draw")
        if game is None:
            continue
        keep = len(game.state.history)
        game.apply(draw)
        first = hand(game)
        again = undo(game, keep, 0, random.Random(seed))
        again.apply(draw)
        same += hand(again) == first
        tried += 1
    # replayed from the seed alone, every draw came again (40 of 40); dealt again, few do by chance
    assert tried >= 30 and same <= tried // 4, (same, tried)


@pytest.mark.parametrize("name,players,word", [("cubirds", 3, "draw"), ("piepmatz", 2, "take"),
                                               ("forehead-poker", 3, "spy"), ("pit", 3, "offer"),
                                               ("souk", 2, "draw"), ("harbour-lights", 2, "play"),
                                               ("lanterns", 2, "draw")])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_new_deal_shows_the_player_what_it_saw_and_round_trips(name, players, word, seed):
    game, option = to_own_draw(name, players, seed, word)
    if game is None:
        pytest.skip("no such decision in this game")
    rules = game.rs
    keep = len(game.state.history)
    seen = (observation(game.state, 0, rules), game.view(0, ids=True), game.decision.options)
    game.apply(option)
    after = undo(game, keep, 0, random.Random(seed))
    # the player sees what it saw before its move: the same board, the same options
    assert (observation(after.state, 0, rules), after.view(0, ids=True), after.decision.options) == seen
    assert after.state.redeals and after.state.redeals[0][0] == keep
    # a save keeps the new deal, a resume goes on from it, a replay from the seed makes it again
    saved = after.to_json()
    assert Game.from_json(rules, saved).to_json() == saved
    again = Game.rebuild(rules, players, game.state.seed, after.state.history, after.state.params, after.state.redeals)
    assert again.to_json() == saved
    # later moves and a later undo replay the new deal too
    rng = random.Random(seed)
    for _ in range(6):
        if after.is_over:
            break
        after.apply(rng.randrange(after.option_count()))
    moved = after.to_json()
    assert Game.rebuild(rules, players, game.state.seed, after.state.history, after.state.params,
                        after.state.redeals).to_json() == moved
    assert Game.from_json(rules, moved).to_json() == moved
    back = undo(after, keep, 0, random.Random(seed + 1))
    assert back.state.redeals[:1] == after.state.redeals[:1] and len(back.state.redeals) == 2
    assert observation(back.state, 0, rules) == seen[0]


def test_an_offer_of_one_kind_stays_of_one_kind():
    # Pit: another player's offer (seen only as a number) is dealt again as cards all of one commodity
    rules = load("pit")
    checked = 0
    for seed in range(1, 30):
        game = Game.new(rules, 4, seed)
        rng = random.Random(seed)
        for _ in range(12):   # a few market steps: offers are out
            game.apply(rng.randrange(game.option_count()))
        if game.is_over or game.current_player != 0:
            continue
        g = game.state
        offers = [rules.zone_slot("offer", 4, p) for p in range(1, 4)]
        if not any(len(g.zones[s]) > 1 for s in offers):
            continue
        after = undo(game, len(g.history), 0, random.Random(seed))
        for s in offers:
            kinds = {rules.card_labels[c] for c in after.state.zones[s]}
            assert len(kinds) <= 1, kinds
        checked += 1
    assert checked > 0


def test_a_card_seen_going_into_a_hidden_hand_stays_there():
    # CuBirds: the birds another player takes from a row went, in plain sight, into their hand
    rules = load("cubirds")
    for seed in range(1, 20):
        game = Game.new(rules, 2, seed)
        rng = random.Random(seed)
        taken = None
        while not game.is_over and taken is None:
            before = len(game.state.events)
            p = game.current_player
            game.apply(rng.randrange(game.option_count()))
            hand1 = rules.zone_slot("hand", 2, 1)
            for e in game.state.events[before:]:
                if p == 1 and e[0] == "move" and e[4] == hand1 and game.state.layout.owner_of(e[3])[1] is None \
                        and e[3] != rules.zone_slot("deck", 2):
                    taken = list(e[5])
        while not game.is_over and game.current_player != 0:
            game.apply(rng.randrange(game.option_count()))
        if taken is None or game.is_over or not all(c in game.state.zones[hand1] for c in taken):
            continue
        after = undo(game, len(game.state.history), 0, random.Random(seed))
        assert all(c in after.state.zones[hand1] for c in taken)
        return
    pytest.fail("no seed took cards from a row into the other hand")


def test_undo_at_the_terminal_deals_again(tmp_path):
    from click.testing import CliRunner
    from cli import cli
    save = tmp_path / "s.json"
    # lay 2 duck in row 4 on the left (the first choice), a bot's turn, then undo: back to the first choice
    answers = "5\n4\n2\n1\nundo\nquit\n" + str(save) + "\n"
    r = CliRunner().invoke(cli, ["play", "cubirds", "--players", "2", "--agents", "human,random", "--seed",
                                 "659726042", "--plain"], input=answers)
    assert r.exit_code == 0, r.output
    assert "the cards you cannot see are shuffled again" in r.output
    import json
    state = json.loads(save.read_text())["game"]["state"]
    assert state["redeals"] and state["redeals"][0][0] == 0 and state["history"] == []
