"""Hidden information: visibility for owner and others, reveals remembered per player, private variables,
card variables, values that print as what they are, kind mismatches refused at load, and the rule
for `me` inside `choose`."""
from __future__ import annotations

import json
import random
import re

import pytest

from interpreter import Game, GameError, RulesetError, load_text
from interpreter.present.log import entries, log_text
from interpreter.engine.lookahead import determinize

BASE = """
name: secrets
players: {min: 2, max: 3}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {each: {colour: [red, blue, green], value: [1, 2, 3, 4, 5, 6, 7, 8, 9]}}
zones:
  deck: {visibility: count}
  pile: {visibility: top}
  hand: {per_player: true, visibility: owner}
  forehead: {per_player: true, visibility: {owner: none, others: cards}}
  vault: {per_player: true, visibility: {owner: cards, others: none}}
  tableau: {per_player: true, visibility: {owner: count, others: top}}
  box: {visibility: hidden}
variables:
  secret_total: {value: 0, visible: nobody}
  plays: {value: 0, counter: true, text: cards played}
  holder: none
player_variables:
  coins: {value: 5, visible: owner}
  shown: 0
card_variables:
  played_by: null
  marks: {value: 0, keep: true}
  token: {value: 0, visible: public}
procedures:
  note:
    args: [who, what]
    do:
      - log: "note: {who} / {what}"
setup:
  - deal: {from: deck, to: hand, count: 2}
  - deal: {from: deck, to: forehead, count: 1}
  - deal: {from: deck, to: vault, count: 1}
  - deal: {from: deck, to: tableau, count: 2}
  - move: {from: deck, to: pile, count: 2}
SETUP_MORE
actions:
  pass_turn:
    do: [{add: {me.shown: 1}}]
flow:
  round:
    turn:
      steps: [pass_turn]
limits: {turns: 50}
"""


def game_with(effects: str = "", players: int = 2, file: str = "secrets.yaml") -> Game:
    rules = load_text(BASE.replace("SETUP_MORE", effects), file)
    return Game.new(rules, players, seed=3)


def labels(game, slot_cards):
    return [game.rs.card_labels[c] for c in slot_cards]


def shown(entry):
    """A view entry with the card variables left out: cards by label ({"card": ..., vars} -> label)."""
    if isinstance(entry, dict) and "card" in entry:
        return entry["card"]
    if isinstance(entry, dict):
        return {k: shown(v) for k, v in entry.items() if k != "backs"}
    if isinstance(entry, list):
        return [shown(v) for v in entry]
    return entry


def zone(game, name, owner=None):
    return game.state.zones[game.rs.zone_slot(name, game.state.n, owner)]


# 1. visibility for the owner and for the others ---------------------------------------------------

@pytest.mark.parametrize("zone_name,owner_sees,other_sees", [
    ("hand", "cards", {"count": 2}),
    ("forehead", {"hidden": True}, "cards"),
    ("vault", "cards", {"hidden": True}),
    ("tableau", {"count": 2}, "top"),
])
def test_each_audience_sees_what_the_zone_declares(zone_name, owner_sees, other_sees):
    game = game_with()
    cards = labels(game, zone(game, zone_name, 0))
    expected = {"cards": cards, "top": {"count": len(cards), "top": cards[:1]}}
    mine = shown(game.view(0)["zones"][zone_name]["P1"])
    theirs = shown(game.view(1)["zones"][zone_name]["P1"])
    assert mine == (expected[owner_sees] if isinstance(owner_sees, str) else owner_sees)
    assert theirs == (expected[other_sees] if isinstance(other_sees, str) else other_sees)


def test_shared_zones_show_count_top_and_nothing():
    game = game_with()
    view = shown(game.view(1))
    assert view["zones"]["deck"] == {"count": len(zone(game, "deck"))}
    assert view["zones"]["pile"] == {"count": 2, "top": labels(game, zone(game, "pile")[:1])}
    assert view["zones"]["box"] == {"hidden": True}


@pytest.mark.parametrize("old,new,message", [
    ("  deck: {visibility: count}", "  deck: {visibility: {owner: cards}}",
     "secrets.yaml:11:22: error[zone]: a shared zone has no owner: its visibility is one word"),
    ("visibility: {owner: none, others: cards}", "visibility: {owner: nothing, others: cards}",
     "secrets.yaml:14:52: error[bad-value]: unknown visibility level 'nothing'"),
    ("visibility: {owner: none, others: cards}", "visibility: {owner: none, other: cards}",
     "secrets.yaml:14:58: error[unknown-field]: unknown visibility field 'other'"),
    ("  deck: {visibility: count}", "  deck: {visibility: secret}",
     "secrets.yaml:11:22: error[bad-value]: unknown visibility 'secret'"),
    ("  secret_total: {value: 0, visible: nobody}", "  secret_total: {value: 0, visible: owner}",
     "secrets.yaml:19:37: error[bad-value]: 'visible' is one of public, nobody, not 'owner'"),
    ("  coins: {value: 5, visible: owner}", "  coins: {value: 5, visible: owners}",
     "secrets.yaml:23:30: error[bad-value]: 'visible' is one of public, owner, nobody, not 'owners'"),
    ("  marks: {value: 0, keep: true}", "  colour: {value: 0, keep: true}",
     "secrets.yaml:27:3: error[name-clash]: 'colour' is already a card attribute"),
    ("  pass_turn:\n    do: [{add: {me.shown: 1}}]", "  pass_turn:\n    do: [{log: 'I have {me.coins}'}]",
     "error[leak]: this text shows 'coins', which only its owner may see, to everyone"),
    ("  pass_turn:\n    do: [{add: {me.shown: 1}}]", "  pass_turn:\n    do: [{log: 'total {secret_total}'}]",
     "error[leak]: this text shows 'secret_total', which nobody may see, to everyone"),
])
def test_mistakes_in_visibility_and_variables_are_located(old, new, message):
    assert old in BASE
    with pytest.raises(RulesetError) as info:
        load_text(BASE.replace(old, new).replace("SETUP_MORE", ""), "secrets.yaml")
    assert message in str(info.value)


# 2. reveals ---------------------------------------------------------------------------------------

def test_a_reveal_is_seen_and_remembered_by_its_players_only():
    game = game_with("  - reveal: {cards: 'take(deck, 2)', to: me}\n  - log: {text: 'secret', to: next(me)}")
    top = labels(game, zone(game, "deck")[:2])
    assert shown(game.view(0)["zones"]["deck"]["known"]) == [[0, top[0]], [1, top[1]]]
    assert "known" not in game.view(1)["zones"]["deck"]
    game2 = Game.new(game.rs, 2, seed=3, record=True)
    private = [e for e in entries(game2) if type(e) is list]
    assert private == [[[0], f"P1 sees deck: {top[0]}, {top[1]}"], [[1], "secret"]]
    assert log_text(private[0]) == f"(P1 only) P1 sees deck: {top[0]}, {top[1]}"


def test_a_revealed_card_is_forgotten_when_it_moves_and_known_when_it_comes_back_into_sight():
    game = game_with("  - reveal: {cards: 'take(deck, 1)', to: me}\n"
                     "  - move: {from: deck, to: box}")
    assert "known" not in game.view(0)["zones"]["deck"]
    assert game.state.known == {}


def test_shuffling_a_zone_forgets_where_its_cards_are():
    game = game_with("  - reveal: {cards: 'take(deck, 3)', to: players}\n  - shuffle: deck")
    assert game.state.known == {}


def test_a_reveal_until_the_end_of_the_turn_is_forgotten_then():
    game = game_with("  - reveal: {cards: next(me).hand, to: me, until: turn}\n"
                     "  - reveal: {cards: next(me).vault, to: me}")
    other_hand = labels(game, zone(game, "hand", 1))
    # setup is over; the first turn is waiting: the reveals are still known
    assert [shown(k[1]) for k in game.view(0)["zones"]["hand"]["P2"]["known"]] == other_hand
    game.apply("pass_turn")
    view = game.view(0)["zones"]
    assert "known" not in view["hand"]["P2"]
    assert [shown(k[1]) for k in view["vault"]["P2"]["known"]] == labels(game, zone(game, "vault", 1))


def test_reveal_refuses_what_is_not_cards_or_players():
    with pytest.raises(RulesetError) as info:
        game_with("  - reveal: {cards: 3, to: me}")
    assert "reveal shows cards, but this is a number" in str(info.value)
    with pytest.raises(RulesetError) as info:
        game_with("  - reveal: {cards: deck, to: 'first(deck)'}")
    assert "'to' names players, but this is a card" in str(info.value)
    with pytest.raises(GameError) as info:
        game_with("  - reveal: {cards: deck, to: '[5]'}")
    assert "reveal's 'to' must be a player of this game (P1 to P2), not 5" in str(info.value)


# 3. private variables ------------------------------------------------------------------------------

def test_private_variables_are_shown_to_whom_they_may_be():
    game = game_with("  - set: {me.coins: 7, secret_total: 3, holder: next(me)}")
    mine, theirs = game.view(0), game.view(1)
    assert mine["player_vars"]["coins"] == {"P1": 7, "P2": {"hidden": True}}
    assert theirs["player_vars"]["coins"] == {"P1": {"hidden": True}, "P2": 5}
    assert "secret_total" not in mine["vars"] and mine["vars"]["holder"] == "P2"
    assert game.rs.counters == ["plays"]


def test_a_private_line_may_show_a_private_variable():
    game = game_with("  - log: {text: 'you hold {me.coins}', to: me}")
    assert [[0], "you hold 5"] in entries(Game.new(game.rs, 2, seed=3, record=True))


# 4. card variables ----------------------------------------------------------------------------------

def test_card_variables_start_at_their_default_and_change_with_set_and_add():
    game = game_with("  - let: {c: first(me.hand)}\n  - set: {c.played_by: me}\n"
                     "  - add: {me.hand.marks: 2, c.token: 1}")
    g = game.state
    first, second = zone(game, "hand", 0)
    assert g.cvars["played_by"][first] == 0 and g.cvars["played_by"][second] is None
    assert [g.cvars["marks"][c] for c in (first, second)] == [2, 2]
    hand = game.view(0)["zones"]["hand"]["P1"]
    assert hand[0] == {"card": game.rs.card_labels[first], "played_by": "P1", "marks": 2, "token": 1}
    # the others do not see the cards, nor their variables, but they see the public token
    assert game.view(1)["zones"]["hand"]["P1"] == {"count": 2, "backs": [{"token": 1}, {"token": 0}]}


def test_card_variables_go_back_to_their_default_when_the_card_moves_unless_kept():
    game = game_with("  - let: {c: first(me.hand)}\n  - set: {c.played_by: me, c.marks: 4}\n"
                     "  - move: {cards: '[c]', from: me.hand, to: pile}\n"
                     "  - log: 'played by {c.played_by}, marks {c.marks}'")
    g = game.state
    card = zone(game, "pile")[-1]
    assert g.cvars["played_by"][card] is None and g.cvars["marks"][card] == 4


def test_card_variables_are_read_bare_inside_where():
    game = game_with("  - add: {first(me.hand).marks: 1}\n  - set: {holder: 'count(me.hand where marks > 0)'}")
    assert game.state.vars["holder"] == 1


@pytest.mark.parametrize("effect,message", [
    ("  - set: {me.marks: 1}", "'marks' is a variable of each card, but 'me' is a player"),
    ("  - set: {marks: 1}", "'marks' is a variable of each card: say which card's, as in 'card.marks'"),
    ("  - set: {first(deck).coins: 1}", "'coins' is a variable of each player, but 'first(deck)' is a card"),
    ("  - let: {x: 'me.marks'}", "'marks' is a card variable, but this is a player"),
])
def test_card_variables_on_the_wrong_kind_are_refused(effect, message):
    with pytest.raises(RulesetError) as info:
        game_with(effect)
    assert message in str(info.value)


# 5. values that know what they are -------------------------------------------------------------------

def test_players_and_cards_print_as_themselves_wherever_they_come_from():
    game = game_with("  - call: note\n    with: {who: next(me), what: 'first(pile)'}\n"
                     "  - call: note\n    with: {who: players, what: 'map(players, p -> p)'}\n"
                     "  - set: {holder: next(me)}\n  - log: 'holder {holder}, plays {plays}'")
    log = entries(Game.new(game.rs, 2, seed=3, record=True))
    pile_top = game.rs.card_labels[zone(game, "pile")[0]]
    assert f"note: P2 / {pile_top}" in log
    assert "note: P1, P2 / P1, P2" in log
    assert "holder P2, plays 0" in log


@pytest.mark.parametrize("expr,message", [
    ("first(me.hand) == 3", "this compares a card with a number, which are never equal"),
    ("me == 1", "this compares a player with a number"),
    ("first(deck) == me", "this compares a card with a player"),
    ("me + 1", "'+' needs numbers, but this is a player"),
    ("first(pile) * 2", "'*' needs numbers, but this is a card"),
    ("-me", "'-' needs numbers, but this is a player"),
])
def test_kind_mismatches_are_refused_at_load_with_their_column(expr, message):
    with pytest.raises(RulesetError) as info:
        game_with(f"  - let: {{x: '{expr}'}}")
    text = str(info.value)
    assert message in text and "secrets.yaml:" in text


def test_a_seat_number_where_a_player_is_needed_is_checked():
    with pytest.raises(GameError) as info:
        game_with("  - set: {holder: 99}\n  - end_game: {winners: '[holder]'}")
    assert "winners must be a player of this game (P1 to P2), not 99" in str(info.value)
    with pytest.raises(RulesetError) as refused:   # a number written there is known at load
        game_with("  - end_game: {winners: '[99]'}")
    assert "99 is a number, not a player" in str(refused.value)


# 6. who is `me` inside choose -------------------------------------------------------------------------

CHOOSE = """
  - let: {giver: next(me)}
  - choose:
      player: giver
      prompt: pick a card to give away
      args: {gift: next(me).hand}
      label: "{giver} gives {gift} to {me}"
      do:
        - move: {cards: '[gift]', from: giver.hand, to: me.hand}
"""


def test_the_documented_choose_with_another_player_works_and_its_label_sees_let_names():
    game = game_with(CHOOSE)
    d = game.decision
    gifts = labels(game, zone(game, "hand", 1))
    assert d.player == 1 and d.prompt == "pick a card to give away"
    assert d.options == tuple(f"P2 gives {g} to P1" for g in gifts)
    game.apply(1)
    assert labels(game, zone(game, "hand", 0))[-1] == gifts[1]
    assert len(zone(game, "hand", 1)) == 1


# 7. saves, clones and bots keep all of it ------------------------------------------------------------

def test_a_save_keeps_card_variables_memories_and_players_in_variables():
    game = game_with("  - reveal: {cards: 'take(deck, 1)', to: me}\n  - add: {first(me.hand).marks: 2}\n"
                     "  - set: {holder: next(me), first(pile).played_by: me}")
    data = json.loads(json.dumps(game.to_json()))
    back = Game.from_json(game.rs, data)
    for p in range(2):
        assert back.view(p) == game.view(p)
    assert type(back.state.vars["holder"]) is type(game.state.vars["holder"])
    back.apply(0)
    game.apply(0)
    assert back.view(0) == game.view(0)


def test_a_bots_world_keeps_what_it_was_shown_and_hides_what_it_may_not_know():
    game = game_with("  - reveal: {cards: next(me).hand, to: me}\n  - set: {next(me).coins: 9, secret_total: 4}\n"
                     "  - add: {next(me).hand.marks: 3}")
    # hidden values are believed to be what the setup makes them (here 9 and 4, as the rules say), never
    # what they are now
    game.state.pvars["coins"] = [6, 11]
    game.state.vars["secret_total"] = 7
    for seed in range(5):
        world = determinize(game, 0, random.Random(seed))
        assert zone(world, "hand", 1) == zone(game, "hand", 1)          # shown: stays put
        assert world.state.pvars["coins"] == [6, 9] and world.state.vars["secret_total"] == 4
        assert len(zone(world, "vault", 1)) == len(zone(game, "vault", 1))   # seen as nothing: its size kept,
    # but not its card: a zone shown as nothing is dealt with the other cards the player cannot see
    assert any(zone(determinize(game, 0, random.Random(s)), "vault", 1) != zone(game, "vault", 1) for s in range(5))
    other_world = determinize(game, 1, random.Random(0))
    assert other_world.state.pvars["coins"] == [5, 11]


def test_a_bots_world_does_not_learn_a_hidden_card_from_a_variable_that_holds_it():
    game = game_with("  - set: {holder: 'first(next(me).hand)'}")
    true_card = game.state.vars["holder"]
    imagined = {determinize(game, 0, random.Random(seed)).state.vars["holder"] for seed in range(12)}
    assert len(imagined) > 1                       # a different card each time...
    for seed in range(3):                          # ...and always the card imagined at that place
        world = determinize(game, 0, random.Random(seed))
        assert world.state.vars["holder"] == zone(world, "hand", 1)[0]
    assert determinize(game, 1, random.Random(0)).state.vars["holder"] == true_card   # P2 sees it


def test_a_choice_names_hidden_cards_only_to_who_may_see_them():
    text = BASE.replace("SETUP_MORE", "").replace(
        "  pass_turn:\n    do: [{add: {me.shown: 1}}]",
        "  give:\n    args: {card: me.hand}\n    label: \"give {card} to {next(me)}\"\n"
        "    do: [{move: {cards: '[card]', from: me.hand, to: next(me).hand}}]\n"
        "  show:\n    args: {card: me.hand}\n    label: \"show {card}\"\n"
        "    do: [{move: {cards: '[card]', from: me.hand, to: pile, at: top}}]").replace(
        "steps: [pass_turn]", "steps: [{actions: [give, show]}]")
    game = Game.new(load_text(text, "secrets.yaml"), 3, seed=3)
    first = game.rs.card_labels[zone(game, "hand", 0)[0]]
    game.apply(f"give {first} to P2")
    entry = entries(game)[-1]
    # the giver and P2, who now holds it, read the card; P3 (and an onlooker) read "a card"
    assert entry == [[0, 1], f"turn 1 P1: give {first} to P2", "turn 1 P1: give a card to P2"]
    assert log_text(entry) == f"(P1, P2 only) turn 1 P1: give {first} to P2\n(others) turn 1 P1: give a card to P2"
    shown = game.rs.card_labels[zone(game, "hand", 1)[0]]
    game.apply(f"show {shown}")          # laid face up: everyone may know it now
    assert entries(game)[-1] == f"turn 2 P2: show {shown}"


FORGETTING = """
name: forgetting
players: {min: 2, max: 3}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {each: {colour: [red, blue], value: [1, 2, 3, 4, 5, 6, 7, 8]}}
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
  pile: {visibility: count}
CARD_VARIABLES
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
REVEALS
actions:
  draw:
    when: count(deck) >= 2
    do: [{move: {from: deck, to: me.hand, count: 2}}]
  give:
    args: {c: me.hand}
    do: [{move: {cards: '[c]', from: me.hand, to: pile}}]
  cut:
    when: count(deck) > 0
    do: [{move: {from: deck, to: deck, count: 1, take: end}}]
MARK_ACTION
  gather:
    when: count(pile) > 3
    do: [{move: {from: pile, to: me.hand, count: all}}]
flow:
  ends:
    - when: count(pile) >= 10
      reason: the pile is full
  round:
    turn:
      steps: [{name: act, actions: [draw, give, cut, MARK gather]}]
"""


REVEALS = """\
  - reveal: {cards: deck, to: players}
  - for_each: p
    in: players
    do: [{reveal: {cards: p.hand, to: 'others(p)'}}]"""


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("reveals,card_variables", [(True, False), (False, True), (True, True)])
def test_moved_cards_are_forgotten_alike_by_generated_moves_and_the_runtime(seed, reveals, card_variables):
    """Generated moves (not recording) and the runtime's (recording) forget the same cards, and put the same
    card variables back to their defaults: those of cards that changed zone, not of one moved within its
    zone."""
    from interpreter.codegen import python_source
    text = FORGETTING.replace("REVEALS", REVEALS if reveals else "")
    text = text.replace("CARD_VARIABLES", "card_variables: {marked: none}" if card_variables else "")
    text = text.replace("MARK_ACTION", "  mark:\n    args: {c: me.hand}\n    do: [{set: {c.marked: me}}]"
                        if card_variables else "")
    rules = load_text(text.replace("MARK ", "mark, " if card_variables else ""), "forgetting.yaml")
    source = python_source(rules)
    assert "N_moved(" in source and "N_move_cards(" in source and re.search(r"g\.zones\[_s\d+\] = ", source)   # generated moves tested
    quick, recorded = (Game.new(rules, 3, seed=seed, record=r) for r in (False, True))
    rng = random.Random(seed)
    assert bool(quick.state.known) == reveals and quick.state.known == recorded.state.known
    marked = 0
    while not quick.is_over:
        choice = rng.randrange(quick.option_count())
        quick.apply(choice)
        recorded.apply(choice)
        assert quick.state.known == recorded.state.known
        assert quick.state.zones == recorded.state.zones
        assert quick.state.cvars == recorded.state.cvars
        marked += sum(v is not None for v in quick.state.cvars.get("marked", []))
    assert recorded.is_over
    assert (marked > 0) == card_variables   # marks were made, and forgotten or kept alike
