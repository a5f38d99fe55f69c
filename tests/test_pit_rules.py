"""Pit as data: the worked examples of shared/rules/pit.md, illegal trades, the Bull and the Bear,
hand sizes and hidden offers."""
from __future__ import annotations

import random

import pytest

from interpreter import Game, IllegalChoice
from interpreter.present.log import entries
from helpers import labels, place, rules, slot


def arrange(game, hands):
    """Give the players these hands (labels), taking cards from the box; empty every offer."""
    for p in range(game.state.n):
        place(game, "offer", [], owner=p, reservoir="box")
    for p, hand in enumerate(hands):
        place(game, "hand", hand, owner=p, reservoir="box")
    game.reconsider()


def step(game, *choices):
    """One market step: each player's choice (a label, or None to pass) in the order they are asked."""
    for _ in range(game.state.n):
        d = game.decision
        choice = choices[d.player]
        game.apply("pass" if choice is None else choice)


def example_game(name="pit"):
    game = Game.new(rules(name), 3, seed=3)
    arrange(game, [["wheat"] * 7 + ["coffee"] * 2,
                   ["wheat"] * 2 + ["barley"] * 4 + ["coffee"] * 3,
                   ["barley"] * 5 + ["coffee"] * 4])
    return game


def test_worked_example_offers_by_count_trade_and_corner():
    game = example_game()
    # 1. P1 offers two (coffee), P3 one (barley): counts differ, nothing happens.
    step(game, "offer 2 (coffee)", None, "offer 1 (barley)")
    view = game.view(1)["zones"]["offer"]
    assert view == {"P1": {"count": 2}, "P2": [], "P3": {"count": 1}}
    # 2. P2 offers two (wheat); 3. P1 takes it, giving the two coffee it held out.
    step(game, None, "offer 2 (wheat)", None)
    assert "take P2's offer of 2, giving coffee" in game.decision.options
    step(game, "take P2's offer of 2, giving coffee", None, None)
    assert sorted(labels(game, "hand", owner=0)) == ["wheat"] * 9
    assert sorted(labels(game, "hand", owner=1)) == ["barley"] * 4 + ["coffee"] * 5
    assert game.state.vars["trades"] == 1
    # 4. P1 corners wheat: +100, and the next hand is dealt.
    round_before = game.state.round
    step(game, "corner on wheat!", None, None)
    assert game.state.pvars["score"] == [100, 0, 0]
    assert game.state.round == round_before + 1
    assert all(len(labels(game, "hand", owner=p)) == 9 for p in range(3))


def test_a_mixed_offer_is_not_an_option_in_the_real_game():
    game = example_game()
    with pytest.raises(IllegalChoice):
        game.apply("offer 2 (barley and coffee)")
    assert not any("and" in o for o in game.decision.options)
    offers = [o for o in game.decision.options if o.startswith("offer")]
    assert offers == ["offer 1 (coffee)", "offer 2 (coffee)", "offer 1 (wheat)", "offer 2 (wheat)",
                      "offer 3 (wheat)", "offer 4 (wheat)"]


def test_two_takers_of_one_offer_only_the_first_in_priority_trades():
    game = example_game()
    step(game, None, "offer 1 (wheat)", None)
    before = game.state.vars["trades"]
    # P1 and P3 both take P2's offer in the same step: one trade only, P2 in one trade at a time.
    step(game, "take P2's offer of 1, giving coffee", None, "take P2's offer of 1, giving barley")
    assert game.state.vars["trades"] == before + 1
    sizes = [len(labels(game, "hand", owner=p)) + len(labels(game, "offer", owner=p)) for p in range(3)]
    assert sizes == [9, 9, 9]


def test_bull_and_bear_deal_gives_two_players_ten_cards():
    for seed in range(5):
        game = Game.new(rules("pit-bull-bear"), 3, seed=seed)
        sizes = sorted(len(labels(game, "hand", owner=p)) for p in range(3))
        assert sizes == [9, 10, 10]
        dealer = game.state.vars["dealer"]
        assert len(labels(game, "hand", owner=(dealer + 1) % 3)) == 10
        assert len(labels(game, "hand", owner=(dealer + 2) % 3)) == 10


def bull_bear_game(hands):
    game = Game.new(rules("pit-bull-bear"), 3, seed=3)
    arrange(game, hands)
    return game


def test_double_bull_corner_scores_double_and_the_bear_holder_loses_20():
    game = bull_bear_game([["wheat"] * 9 + ["bull"], ["barley"] * 8 + ["bear"], ["coffee"] * 9])
    step(game, "corner on wheat!", None, None)
    assert game.state.pvars["score"] == [200, -20, 0]


def test_eight_and_the_bull_corner_for_the_plain_value():
    game = bull_bear_game([["wheat"] * 8 + ["bull", "coffee"], ["barley"] * 8 + ["wheat"], ["coffee"] * 8 + ["bear"]])
    step(game, "corner on wheat!", None, None)
    assert game.state.pvars["score"] == [100, 0, -20]


def test_the_bear_blocks_a_corner_and_a_non_cornering_bull_loses_20():
    game = bull_bear_game([["barley"] * 9, ["wheat"] * 8 + ["bull", "bear"], ["coffee"] * 9])
    assert not any(o.startswith("corner") for o in game.decision.options if game.decision.player == 1)
    step(game, "corner on barley!", None, None)
    assert game.state.pvars["score"] == [85, -40, 0]   # P2 held both the Bull and the Bear


def test_bull_may_be_offered_alone_or_with_one_commodity():
    game = bull_bear_game([["wheat"] * 8 + ["bull", "coffee"], ["barley"] * 8 + ["wheat"], ["coffee"] * 8 + ["bear"]])
    options = game.decision.options
    assert "offer 1 (0 no commodity + bull)" in options
    assert "offer 2 (1 coffee + bull)" in options
    assert not any("coffee" in o and "wheat" in o for o in options)
    assert not any(o.startswith("offer 5") for o in options)


def test_tutorial_allows_mixed_offers_built_card_by_card():
    game = Game.new(rules("pit-tutorial"), 7, seed=1)
    p = game.decision.player
    held = sorted(set(labels(game, "hand", owner=p)))
    game.apply("offer 2")
    while game.decision.player != p:       # the others pass; then the offers take effect
        game.apply("pass")
    d = game.decision
    assert d.player == p and d.prompt == "put a card into your offer of 2"
    game.apply(f"put in a {held[0]}")
    game.apply(f"put in a {held[-1]}")
    assert sorted(labels(game, "offer", owner=p)) == sorted([held[0], held[-1]])


def test_tutorial_wrong_claim_puts_the_claimant_out():
    game = Game.new(rules("pit-tutorial"), 7, seed=1)
    p = game.decision.player
    c = labels(game, "hand", owner=p)[0]
    game.apply(f"claim Pit! on {c}")
    for _ in range(6):
        game.apply("pass")
    assert game.state.pvars["out"][p] is True
    asked = set()
    for _ in range(6):
        asked.add(game.decision.player)
        game.apply("pass")
    assert p not in asked


def test_tutorial_goal_is_impossible_with_four_players_and_the_game_stalls():
    rs = rules("pit-tutorial")
    game = Game.new(rs, 4, seed=0)
    per = game.state.params["cards_per_commodity"]
    assert per == 6 < game.state.params["goal"] == 9
    from interpreter.simulate import play_one
    game = play_one(rs, 4, 0, ["greedy"] * 4)
    assert game.result["stalled"] and game.result["winners"] == []


@pytest.mark.parametrize("name", ["pit", "pit-bull-bear", "pit-classic", "pit-tutorial"])
def test_hand_sizes_constant_and_offers_hidden(name):
    rs = rules(name)
    for players in (rs.min_players, rs.max_players):
        game = Game.new(rs, players, seed=players, params={"target": 100})
        rng = random.Random(players)
        sizes, round_ = None, None
        for _ in range(300):
            if game.is_over:
                break
            g = game.state
            now = [len(g.zones[slot(game, "hand", p)]) + len(g.zones[slot(game, "offer", p)]) for p in range(players)]
            if g.round != round_:
                sizes, round_ = now, g.round
            if game.decision.prompt == "trade":
                assert now == sizes
            p = game.decision.player
            view = game.view(p)
            for q in range(players):
                offer = view["zones"]["offer"][f"P{q + 1}"]
                hand = view["zones"]["hand"][f"P{q + 1}"]
                if q != p:
                    assert offer == {"count": len(g.zones[slot(game, "offer", q)])}
                    assert hand == {"count": len(g.zones[slot(game, "hand", q)])}
            # an option label never names a card its chooser cannot see
            mine = {rs.card_labels[c] for c in g.zones[slot(game, "hand", p)] + g.zones[slot(game, "offer", p)]}
            others = set(rs.card_labels) - mine
            for label in game.decision.options:
                words = set(label.replace("(", " ").replace(")", " ").replace(",", " ").split())
                assert not (words & others), (label, words & others)
            game.apply(rng.randrange(game.option_count()))


@pytest.mark.parametrize("players,seed", [(4, 1), (8, 2)])
def test_tutorial_hand_ends_when_nobody_can_win_it_any_more(players, seed):
    # random players claim wrongly often: once fewer than two are left in and none holds the goal,
    # the hand ends and the next is dealt - never a run of turns nobody is asked anything in
    game = Game.new(rules("pit-tutorial"), players, seed=seed)
    rng = random.Random(seed)
    asked_at, quiet = 0, 0
    while not game.is_over and game.state.turn < 300:
        asked_at = game.state.turn
        game.apply(rng.randrange(game.option_count()))
        quiet = max(quiet, game.state.turn - asked_at)
    ended = [line for line in entries(game) if isinstance(line, str) and "nobody can win this hand any more" in line]
    assert ended and game.state.round >= len(ended) + 1   # each such end deals the next hand
    assert quiet <= 1
