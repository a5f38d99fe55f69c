"""CuBirds as data: the worked examples and edge cases of shared/rules/cubirds.md, played through the engine."""
from __future__ import annotations

import pytest

from interpreter import Game, IllegalChoice, load_text
from helpers import labels, place, random_game, rules, ROOT


def new_game(players=2, seed=5, params=None):
    game = Game.new(rules("cubirds"), players, seed=seed, params=params)
    assert game.decision.prompt == "lay birds"
    return game


def test_worked_example_mary_surrounds_flamingo_and_owl():
    game = new_game()
    mary = game.current_player
    place(game, "hand", ["parrot", "parrot", "duck", "robin"], owner=mary)
    place(game, "row", ["flamingo", "owl", "parrot"], index=1)
    place(game, "deck", ["robin", "magpie"], on_top=True)
    place(game, "collection", ["toucan"], owner=mary)
    game.reconsider()
    game.apply("lay 2 parrot in row 2 on the left")
    # Flamingo and Owl were surrounded; the one-species row was refilled at the laid end.
    assert labels(game, "row", index=1) == ["robin", "parrot", "parrot", "parrot"]
    assert sorted(labels(game, "hand", owner=mary)) == ["duck", "flamingo", "owl", "robin"]
    # Mary took cards: no draw option; no flock reaches its small size: the turn passes.
    d = game.decision
    assert d.player == (mary + 1) % 2
    assert d.prompt == "lay birds"


def test_follow_up_big_flock_of_owls_wins():
    game = new_game()
    p = game.current_player
    place(game, "hand", ["owl", "owl", "owl", "owl", "robin"], owner=p)
    place(game, "collection", ["owl", "duck", "duck", "duck"], owner=p)
    place(game, "row", ["robin", "duck", "toucan"], index=0)
    game.reconsider()
    game.apply("lay 1 robin in row 1 on the left")   # first card is a robin: nothing surrounded
    assert game.decision.options == ("draw 2 cards", "pass")
    game.apply("pass")
    assert "fly a flock of 4 owl" in game.decision.options
    game.apply("fly a flock of 4 owl")
    assert sorted(labels(game, "collection", owner=p)) == ["duck"] * 3 + ["owl"] * 3
    assert game.is_over
    assert game.result["winners"] == [p]
    assert game.result["reason"] == "collection goal reached"


def test_small_flock_keeps_one_and_discards_the_rest():
    game = new_game()
    p = game.current_player
    place(game, "hand", ["owl", "owl", "owl", "robin", "magpie"], owner=p)
    place(game, "collection", ["duck"], owner=p)
    place(game, "row", ["robin", "duck", "toucan"], index=0)
    place(game, "discard", [], reservoir="deck")
    game.reconsider()
    game.apply("lay 1 robin in row 1 on the left")
    game.apply("pass")
    game.apply("fly a flock of 3 owl")
    assert sorted(labels(game, "collection", owner=p)) == ["duck", "owl"]
    assert labels(game, "discard") == ["owl", "owl"]
    # one flock per turn: the next decision is the next player's lay
    assert game.decision.prompt == "lay birds" and game.decision.player != p


def test_surround_from_the_right_takes_cards_up_to_the_nearest_match():
    game = new_game()
    p = game.current_player
    place(game, "hand", ["owl", "duck"], owner=p)
    place(game, "row", ["owl", "robin", "owl", "toucan", "magpie"], index=2)
    game.reconsider()
    game.apply("lay 1 owl in row 3 on the right")
    assert labels(game, "row", index=2) == ["owl", "robin", "owl", "owl"]
    assert sorted(labels(game, "hand", owner=p)) == ["duck", "magpie", "toucan"]


def test_no_surround_when_species_absent_and_draw_two_offered():
    game = new_game()
    p = game.current_player
    place(game, "hand", ["owl", "duck"], owner=p)
    place(game, "row", ["robin", "toucan", "magpie"], index=0)
    game.reconsider()
    game.apply("lay 1 owl in row 1 on the left")
    assert labels(game, "row", index=0) == ["owl", "robin", "toucan", "magpie"]
    d = game.decision
    assert d.player == p and d.options == ("draw 2 cards", "pass")
    before = len(labels(game, "hand", owner=p))
    game.apply("draw 2 cards")
    assert len(labels(game, "hand", owner=p)) == before + 2


def last_owl(players=2):
    """The current player holds a single owl, and row 1 has no owl: laying it empties the hand."""
    game = new_game(players)
    p = game.current_player
    place(game, "hand", ["owl"], owner=p)
    place(game, "row", ["robin", "toucan", "magpie"], index=0)
    game.reconsider()
    return game, p


def test_emptying_hand_without_surrounding_can_draw_and_avoid_round_end():
    game, p = last_owl()
    round_before = game.state.round
    game.apply("lay 1 owl in row 1 on the left")
    game.apply("draw 2 cards")
    assert len(labels(game, "hand", owner=p)) == 2
    assert game.state.round == round_before


def test_empty_hand_ends_round_everyone_discards_and_the_same_player_starts():
    game, p = last_owl(players=3)
    round_before = game.state.round
    game.apply("lay 1 owl in row 1 on the left")
    game.apply("pass")
    assert game.state.round == round_before + 1
    assert all(len(labels(game, "hand", owner=q)) == 8 for q in range(3))
    assert game.decision.player == p and game.decision.prompt == "lay birds"


def test_reshuffle_discard_into_deck_when_drawing_from_empty_deck():
    game = new_game()
    p = game.current_player
    g = game.state
    place(game, "hand", ["owl", "duck"], owner=p)
    place(game, "row", ["robin", "toucan", "magpie"], index=0)
    deck = g.zones[0]
    # move the whole deck but one card to the discard pile
    from helpers import slot
    dslot = slot(game, "discard")
    g.zones[dslot] = g.zones[dslot] + deck[1:]
    g.zones[0] = deck[:1]
    game.reconsider()
    game.apply("lay 1 owl in row 1 on the left")
    total_before = len(g.zones[0]) + len(g.zones[dslot])
    game.apply("draw 2 cards")
    g = game.state
    assert len(g.zones[dslot]) == 0
    assert len(g.zones[0]) + 2 == total_before


def test_exhaustion_mid_round_ends_game_with_most_birds_winning():
    game = new_game()
    p = game.current_player
    g = game.state
    place(game, "hand", ["owl", "duck"], owner=p)
    place(game, "row", ["robin", "toucan", "magpie"], index=0)
    # Empty deck and discard: hide their cards in the other player's collection (wins on birds).
    other = 1 - p
    from helpers import slot
    coll = slot(game, "collection", other)
    for z in ("deck", "discard"):
        s = slot(game, z)
        g.zones[coll] = g.zones[coll] + g.zones[s]
        g.zones[s] = []
    game.reconsider()
    game.apply("lay 1 owl in row 1 on the left")
    game.apply("draw 2 cards")
    assert game.is_over
    assert game.result["winners"] == [other]
    assert game.result["reason"].startswith("cards exhausted")


def test_exhaustion_when_a_new_round_cannot_be_dealt():
    from helpers import slot
    game = new_game(players=2)
    p = game.current_player
    other = 1 - p
    g = game.state
    place(game, "hand", ["owl"], owner=p)
    place(game, "row", ["robin", "toucan", "magpie"], index=0)
    # Leave 15 cards in deck + discard (16 are needed for two new hands); the rest, and the
    # other player's hand, go to the other player's collection, which is not checked on p's turn.
    deck, discard = slot(game, "deck"), slot(game, "discard")
    hoard = slot(game, "collection", other)
    g.zones[hoard] += g.zones[deck][15:] + g.zones[discard] + g.zones[slot(game, "hand", other)]
    g.zones[deck] = g.zones[deck][:15]
    g.zones[discard] = []
    g.zones[slot(game, "hand", other)] = []
    game.reconsider()
    game.apply("lay 1 owl in row 1 on the left")
    game.apply("pass")   # p's hand is empty: the round ends, and 15 cards cannot make two hands of 8
    assert game.is_over
    assert game.result["reason"].startswith("cards exhausted")
    assert game.result["winners"] == [other]


def test_illegal_choice_leaves_the_game_unchanged():
    game = new_game()
    before = game.to_json()
    with pytest.raises(IllegalChoice):
        game.apply("fly a flock of 9 dodo")
    with pytest.raises(IllegalChoice):
        game.apply(10_000)
    with pytest.raises(IllegalChoice):
        game.apply(-1)
    assert game.to_json() == before


@pytest.mark.parametrize("value,expected", [("discard", "discard"), ("deck", "deck")])
def test_setup_duplicates_go_where_the_parameter_says(value, expected):
    """Rows start with 3 different species; duplicates drawn during setup go to discard or back to the deck."""
    for seed in range(40):
        game = Game.new(rules("cubirds"), 2, seed=seed, params={"setup_duplicate_destination": value})
        for r in range(4):
            row = labels(game, "row", index=r)
            assert len(row) == 3 and len(set(row)) == 3
        if value == "deck":
            assert labels(game, "discard") == []


def test_some_seed_sends_setup_duplicates_to_the_discard_pile():
    assert any(labels(Game.new(rules("cubirds"), 2, seed=s), "discard") for s in range(40))


def test_turn_limit_ends_in_a_stalled_draw():
    text = (ROOT / "rulesets" / "cubirds.yaml").read_text().replace("turns: 1000", "turns: 5")
    limited = load_text(text, "cubirds-limited.yaml")
    game = random_game(limited, 3, seed=1)
    assert game.result["stalled"] is True
    assert game.result["winners"] == []
    assert game.result["turns"] == 5
    assert "turn limit" in game.result["reason"]


def test_random_games_end_by_goal_or_exhaustion_for_every_player_count():
    for players in range(2, 6):
        reasons = set()
        for seed in range(15):
            game = random_game(rules("cubirds"), players, seed)
            reasons.add(game.result["reason"].split(":")[0])
            assert not game.result["stalled"]
        assert reasons <= {"collection goal reached", "cards exhausted"}
