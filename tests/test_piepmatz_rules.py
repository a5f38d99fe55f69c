"""Piepmatz as data: the worked example of shared/rules/piepmatz.md and its edge cases."""
from __future__ import annotations

import pytest

from interpreter import Game
from interpreter.present.log import entries
from helpers import labels, place, rules, slot


def arrange(game, hand):
    p = game.current_player
    place(game, "perch", ["blackbird 5♂"], index=0, reservoir="box")
    place(game, "ground", ["chaffinch 2♂", "sparrow 2♀"], index=0, reservoir="box")
    place(game, "perch", ["bullfinch 1♂"], index=1, reservoir="box")
    place(game, "ground", [], index=1, reservoir="box")
    for i, name in enumerate(["seed 1 egg", "seed 2 eggs", "seed 1 egg", "seed 3 eggs"]):
        place(game, "seeds", [name], index=i, reservoir="box")
    place(game, "feeder_deck", ["seed 2 eggs"], on_top=True, reservoir="box")
    place(game, "hand", hand, owner=p, reservoir="box")
    place(game, "collection", [], owner=p, reservoir="box")
    game.reconsider()
    return p


def eggs(game, p):
    return sum(game.rs.cards[c].get("eggs") or 0 for c in game.state.zones[slot(game, "collection", p)]
               if game.rs.cards[c].get("kind") == "seed")


def test_worked_example_chain_reaction():
    game = Game.new(rules("piepmatz"), 3, seed=4)   # 3 players: all species, 2 perches
    p = arrange(game, ["greenfinch 3♂", "yellowhammer 6♂", "sparrow 1♂", "chaffinch 6♀"])
    game.apply("play greenfinch 3♂ at perch 1")
    # Blackbird 5 chased (7 > 5, seed at position 2: 2 eggs), then Greenfinch 3 (4 > 3, position 1: 1 egg).
    coll = labels(game, "collection", owner=p)
    assert sorted(c for c in coll if "seed" not in c) == ["blackbird 5♂", "greenfinch 3♂"]
    assert eggs(game, p) == 3
    # Chaffinch 2 moved up (a tie with Sparrow 2, nearest the feeder wins); Sparrow 2 waits; 2 <= 2 stops.
    assert labels(game, "perch", index=0) == ["chaffinch 2♂"]
    assert labels(game, "ground", index=0) == ["sparrow 2♀"]
    # Phase 3: draw back to 4 (one card), from the display or the deck.
    d = game.decision
    assert d.player == p and d.prompt == "draw a bird"
    assert d.options[-1] == "take the top card of the bird deck"
    game.apply(len(d.options) - 1)
    assert len(labels(game, "hand", owner=p)) == 4
    # The seed column slid down (positions 3 and 4 -> 1 and 2) and refilled from the feeder deck.
    assert labels(game, "seeds", index=0)[0] == "seed 1 egg"
    assert labels(game, "seeds", index=1)[0] == "seed 3 eggs"
    assert labels(game, "seeds", index=2)[0].startswith("seed")
    assert labels(game, "seeds", index=3)[0].startswith("seed")


def test_worked_example_second_player_takes_the_top_feeder_card():
    game = Game.new(rules("piepmatz"), 3, seed=4)
    p = arrange(game, ["yellowhammer 6♂", "greenfinch 3♂", "sparrow 1♂", "chaffinch 6♀"])
    game.apply("play yellowhammer 6♂ at perch 2")
    # 6 > 1: Bullfinch 1 is chased; d = 5 takes the top feeder card (a 2-egg seed); the ground empties.
    coll = labels(game, "collection", owner=p)
    assert "bullfinch 1♂" in coll and "seed 2 eggs" in coll
    assert labels(game, "perch", index=1) == ["yellowhammer 6♂"]
    assert labels(game, "ground", index=1) == []


def test_nothing_chased_offers_a_bird_of_value_at_most_the_played_one():
    game = Game.new(rules("piepmatz"), 3, seed=4)
    p = arrange(game, ["chaffinch 1♂", "sparrow 1♀", "greenfinch 3♂", "blackbird 6♀"])
    place(game, "perch", ["bullfinch 5♂"], index=1, reservoir="box")
    game.reconsider()
    game.apply("play chaffinch 1♂ at perch 2")
    d = game.decision
    assert d.player == p
    assert d.options == ("add sparrow 1♀ to your collection", "pass")
    game.apply("add sparrow 1♀ to your collection")
    assert labels(game, "collection", owner=p) == ["sparrow 1♀"]


def test_bonus_rule_below_excludes_equal_values():
    game = Game.new(rules("piepmatz"), 3, seed=4, params={"bonus_rule": "below"})
    arrange(game, ["chaffinch 1♂", "sparrow 1♀", "greenfinch 3♂", "blackbird 6♀"])
    place(game, "perch", ["bullfinch 5♂"], index=1, reservoir="box")
    game.reconsider()
    game.apply("play chaffinch 1♂ at perch 2")
    assert game.decision.prompt == "draw a bird"   # no bird is below 1: no bonus offered


def test_crow_makes_its_owner_discard_from_the_largest_species():
    game = Game.new(rules("piepmatz"), 3, seed=4)
    p = arrange(game, ["yellowhammer 6♂", "greenfinch 3♂", "sparrow 1♂", "chaffinch 6♀"])
    place(game, "collection", ["sparrow 3♂", "sparrow 4♀", "blackbird 2♂"], owner=p, reservoir="box")
    place(game, "feeder_deck", ["crow"], on_top=True, reservoir="box")
    game.reconsider()
    game.apply("play yellowhammer 6♂ at perch 2")      # d = 5: the top feeder card is the crow
    d = game.decision
    assert d.player == p and d.prompt.startswith("crow")
    assert d.options == ("discard sparrow 3♂", "discard sparrow 4♀")
    game.apply("discard sparrow 4♀")
    coll = labels(game, "collection", owner=p)
    assert "crow" not in coll and "sparrow 4♀" not in coll and "sparrow 3♂" in coll


def test_squirrel_discards_two_seed_cards():
    game = Game.new(rules("piepmatz"), 3, seed=4)
    p = arrange(game, ["yellowhammer 6♂", "greenfinch 3♂", "sparrow 1♂", "chaffinch 6♀"])
    place(game, "collection", ["seed 3 eggs", "seed 1 egg", "seed 2 eggs"], owner=p, reservoir="box")
    place(game, "feeder_deck", ["squirrel"], on_top=True, reservoir="box")
    game.reconsider()
    game.apply("play yellowhammer 6♂ at perch 2")
    coll = labels(game, "collection", owner=p)
    assert "squirrel" not in coll
    assert sum(1 for c in coll if c.startswith("seed")) == 1


def test_two_player_setup_removes_the_3plus_cards_and_one_species():
    for seed in range(10):
        game = Game.new(rules("piepmatz"), 2, seed=seed)
        box = [game.rs.cards[c] for c in game.state.zones[slot(game, "box")]]
        # the "3+" cards: seed cards of the eggs plus3_seed_eggs gives (default [1, 2, 3, 3]) and a crow
        assert sorted(c["eggs"] for c in box if c.get("kind") == "seed") == [1, 2, 3, 3]
        assert [c["kind"] for c in box if c.get("kind") in ("crow", "squirrel")] == ["crow"]
        birds = [c for c in box if c["type"] == "bird"]
        assert len(birds) == 12 and len({c["species"] for c in birds}) == 1
        assert len(game.state.zones[slot(game, "perch", index=2)]) == 0   # 2 perches


def test_four_players_use_three_perches_and_seed_column_holds_seeds():
    game = Game.new(rules("piepmatz"), 4, seed=2)
    assert all(len(game.state.zones[slot(game, "perch", index=i)]) == 1 for i in range(3))
    for i in range(4):
        assert [game.rs.cards[c]["kind"] for c in game.state.zones[slot(game, "seeds", index=i)]] == ["seed"]


def test_end_gives_everyone_equal_turns_then_a_simultaneous_secret_discard():
    from helpers import random_game
    game = random_game(rules("piepmatz"), 3, seed=9, record=True)
    r = game.result
    assert r["turns"] % 3 == 0    # equal turns for everyone
    final = [e for e in entries(game) if type(e) is list and ": discard" in e[1] and " and " in e[1]]
    assert sorted(e[0] for e in final) == [[0], [1], [2]]   # each chose two birds, secretly
    for p in range(3):
        birds = [c for c in labels(game, "hand", owner=p)]
        assert birds == []        # the other two joined the collection


def test_simultaneous_choices_see_the_same_state():
    """While the final discards are pending, nobody's choice has been applied yet."""
    import random
    game = Game.new(rules("piepmatz"), 3, seed=9)
    rng = random.Random(9)
    while game.decision.prompt != "discard two birds face down (the others join your collection)":
        game.apply(rng.randrange(game.option_count()))
    hands = [list(game.state.zones[slot(game, "hand", p)]) for p in range(3)]
    first = game.decision.player
    game.apply(0)
    assert [game.state.zones[slot(game, "hand", p)] for p in range(3)] == hands
    assert game.decision.player != first


def test_scoring_parts_of_a_known_collection():
    game = Game.new(rules("piepmatz"), 2, seed=0)
    g = game.state
    for p in range(2):
        place(game, "collection", [], owner=p, reservoir="box")
    # P1: sparrow 3 pair (+5), sparrow 5, blackbird 6; seeds 2 + 3 eggs.
    place(game, "collection", ["sparrow 3♂", "sparrow 3♀", "sparrow 5♂", "seed 2 eggs", "seed 3 eggs"],
          owner=0, reservoir="box")
    place(game, "collection", ["sparrow 1♂"], owner=1, reservoir="box")
    scores = game.rs.scoring.score(game, g)
    # majorities: P1 has 3 sparrows (most): eggs 2 + 2 + 3 = 7; P2's single sparrow loses the majority.
    assert scores[0] == {"seeds": 5, "pairs": 5, "majorities": 7, "total": 17}
    assert scores[1] == {"seeds": 0, "pairs": 0, "majorities": 0, "total": 0}


@pytest.mark.parametrize("paired_count, expected", [
    # P1: a sparrow 3 pair and a single sparrow 5; P2: single sparrows 1 and 2.
    (True, ([7, 0])),    # P1's 3 sparrows beat P2's 2: eggs 2 + 2 + 3
    (False, ([0, 2])),   # P1's pair is out of the count too: 1 sparrow against 2; P2 scores 1 + 1
])
def test_paired_birds_in_majority_decides_the_count_and_the_eggs(paired_count, expected):
    game = Game.new(rules("piepmatz"), 3, seed=0, params={"paired_birds_in_majority": paired_count})
    for p in range(3):
        place(game, "collection", [], owner=p, reservoir="box")
    place(game, "collection", ["sparrow 3♂", "sparrow 3♀", "sparrow 5♂"], owner=0, reservoir="box")
    place(game, "collection", ["sparrow 1♂", "sparrow 2♀"], owner=1, reservoir="box")
    scores = game.rs.scoring.score(game, game.state)
    assert [scores[p]["majorities"] for p in range(2)] == expected


@pytest.mark.parametrize("eggs", [[3, 3, 3, 3], [1, 2, 2, 3]])
def test_which_seed_cards_leave_two_player_games_is_a_parameter(eggs):
    game = Game.new(rules("piepmatz"), 2, seed=4, params={"plus3_seed_eggs": eggs})
    box = [game.rs.cards[c] for c in game.state.zones[slot(game, "box")]]
    assert sorted(c["eggs"] for c in box if c.get("kind") == "seed") == eggs
    assert len(box) == 5 + 12
