"""The presentation layer: the display section, narration, option steps, boards that never leak, the terminal."""
from __future__ import annotations

import json
import random

import pytest
import yaml

from interpreter import Game, RulesetError, load, parse_text, load_source
from helpers import may_see_card
from interpreter.present.board import board, cards_text
from interpreter.present.narrate import grouped, plural, story
from interpreter.present.screen import screen_lines
from interpreter.present.steps import next_step, option_parts
from interpreter.present.terminal import seat_agents

from helpers import ROOT, place

# A game whose every card has its own label, so that a label in a board names exactly one card.
SECRETS = """
name: secrets
players: {min: 2, max: 4}
components:
  card:
    label: "q{n}"
    in: deck
    cards:
      - each: {n: [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116,
                   117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132]}
zones:
  deck: {visibility: count}
  table: {visibility: public}
  hand: {per_player: true, visibility: owner}
  stash: {per_player: true, visibility: {owner: cards, others: none}}
player_variables:
  secret: {value: 0, visible: owner}
  points: 0
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
actions:
  play:
    args: {card: me.hand}
    do:
      - move: {cards: '[card]', from: me.hand, to: table}
      - add: {me.points: 1}
  give:
    args: {card: me.hand, other: others(me)}
    label: "give {card} to {other}"
    do:
      - move: {cards: '[card]', from: me.hand, to: other.hand}
  hide:
    args: {card: me.hand}
    do:
      - move: {cards: '[card]', from: me.hand, to: me.stash}
      - add: {me.secret: card.n}
  draw:
    when: count(deck) > 0
    do:
      - move: {from: deck, to: me.hand}
flow:
  ends:
    - when: count(deck) == 0 and all(players, count(it.hand) == 0)
  round:
    turn:
      steps: [{name: act, actions: [play, give, hide, draw], secret: true}]
scoring:
  parts:
    points: me.points
    secret: me.secret
limits:
  turns: 200
"""


def secrets_rules():
    return load_source(parse_text(SECRETS, "secrets.yaml"))


def with_display(display: dict, base: str = SECRETS):
    data = yaml.safe_load(base)
    data["display"] = display
    return load_source(parse_text(yaml.safe_dump(data, sort_keys=False), "shown.yaml"))


# the display section ------------------------------------------------------------------------------

def test_defaults_without_a_display_section():
    d = secrets_rules().display
    assert [z.name for z in d.zones] == ["deck", "table", "hand", "stash"]
    assert d.variables == ["secret", "points"]
    # 'secret' is seen by its owner only: its score part is not shown during play unless listed
    assert d.scores == ["points"]
    assert d.written is False


@pytest.mark.parametrize("display,message", [
    ({"zones": {"hnd": {}}}, "unknown zone 'hnd'"),
    ({"zones": {"hand": {"group": "colour"}}}, "unknown card attribute 'colour'"),
    ({"zones": {"hand": {"show": "top"}}}, "unknown show 'top': use cards (the default) or count"),
    ({"zones": {"hand": {"lable": "x"}}}, "unknown zone display field 'lable'"),
    ({"zones": {"hand": {"note": "{size}"}}}, "size"),
    ({"variables": ["score"]}, "unknown variable 'score'"),
    ({"scores": ["point"]}, "unknown score part 'point'"),
    ({"colours": {}}, "unknown display field 'colours'"),
    ({"names": ["a"]}, "names is a map of id"),
    ({"zones": {"stash": {"narrate": "no"}}}, "expected true or false"),
])
def test_display_mistakes_are_located_errors(display, message):
    with pytest.raises(RulesetError) as info:
        with_display(display)
    text = info.value.render()
    assert message in text
    assert "shown.yaml:" in text and "^" in text


def test_a_display_section_is_compiled():
    d = with_display({"names": {"q101": "the first"}, "zones": {"table": {"label": "Table"}, "deck": {"show": "count"},
                      "hand": {"group": "n", "note": "worth {n}"}}, "variables": [], "scores": ["points", "secret"]}).display
    assert [(z.name, z.label, z.show, z.group) for z in d.zones] == [
        ("table", "Table", "cards", None), ("deck", "deck", "count", None), ("hand", "hand", "cards", "n")]
    assert d.zone("hand").notes[0] == "worth 101"
    assert d.words("play q101 now") == "play the first now"
    assert d.variables == [] and d.scores == ["points", "secret"]


def test_ids_with_underscores_read_as_words():
    d = load("cubirds").display
    assert d.words("lay 1 reed_warbler in row 2") == "lay 1 reed warbler in row 2"


def test_score_parts_read_as_words_on_the_board_and_at_the_end():
    """Lanterns' parts hung, bonus and in_hand: 'in hand -38' beside a player, each once (its bonus is not shown
    again as a variable), and 'in hand' heading the final table's column."""
    from interpreter.agents import RandomAgent, play
    game = Game.new(load("lanterns"), 2, seed=2)
    mine = [line for _, line in screen_lines(board(game, 0), 0) if line.startswith(" you")][0]
    assert mine.endswith("· hung 0 · bonus 0 · in hand -38"), mine
    play(game, [RandomAgent(1), RandomAgent(2)])
    head = [line for _, line in screen_lines(board(game, 0), 0) if line.startswith(" player")][0]
    assert head.split() == ["player", "hung", "bonus", "in", "hand", "total"]


def test_a_variable_that_holds_a_player_names_it_as_the_board_does():
    """Souk's offer_from and offer_to: "you" to the seat they name, the player's name to the others, and to an
    onlooker; a text is shown as it is."""
    game = Game.new(load("souk"), 2, seed=4)
    rng = random.Random(1)
    while not isinstance(game.state.vars.get("offer_to"), int):
        game.apply(rng.randrange(len(game.decision.options)))
    to, giver = int(game.state.vars["offer_to"]), int(game.state.vars["offer_from"])
    names = ["Ann", "Bob"]
    for seat, expected in ((to, ("you", names[giver])), (giver, (names[to], "you")), (None, (names[to], names[giver]))):
        shown = {v["name"]: v["value"] for v in board(game, seat, names=names)["vars"]}
        assert (shown["offer to"], shown["offer by"]) == expected, seat   # its display names offer_from so
        assert shown["wanted"] == game.state.vars["offer_good"]


def test_explain_says_what_players_see():
    from interpreter.explain import explain_markdown
    text = explain_markdown(load("cubirds"))
    assert "## What players see" in text
    assert "| `hand` | hand | the cards, counted by `species`, with a note such as \"flock 2/3\" |" in text
    assert "not shown: `took`" in text


# narration ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("word,n,expected", [("bird", 1, "bird"), ("bird", 3, "birds"),
                                             ("commodity", 2, "commodities"), ("box", 2, "boxes"),
                                             ("day", 2, "days")])
def test_plural(word, n, expected):
    assert plural(word, n) == expected


def test_grouped_counts_equal_labels_in_order():
    assert grouped(["duck", "owl", "duck"]) == "duck ×2, owl"


def cubirds_capture():
    """A CuBirds position where P1 lays an owl at the left of row 1 and surrounds two birds."""
    game = Game.new(load("cubirds"), 2, seed=1)
    game.state.current = game.state.players[0]
    place(game, "row", ["duck", "parrot", "owl", "magpie"], index=0)
    place(game, "hand", ["owl", "robin", "robin"], owner=0)
    game.reconsider()
    return game


def test_a_capture_is_narrated_with_the_cards_to_everyone_who_sees_them():
    game = cubirds_capture()
    since = len(game.state.log)
    label = next(x for x in game.decision.options if x == "lay 1 owl in row 1 on the left")
    game.apply(label)
    mine = story(game, 0, since)
    theirs = story(game, 1, since)
    assert "you take 2 birds from row 1 into your hand: duck, parrot" in mine
    assert "P1 takes 2 birds from row 1 into their hand: duck, parrot" in theirs
    assert "you put 1 bird from your hand in row 1: owl" in mine


def test_hidden_cards_are_not_named_to_others():
    rules = secrets_rules()
    game = Game.new(rules, 3, seed=2)
    p = game.current_player
    option = next(x for x in game.decision.options if x.startswith("give") and x.endswith("P3")
                  or x.startswith("give") and p == 2 and x.endswith("P2"))
    card = option.split()[1]
    since = len(game.state.log)
    game.apply(option)
    receiver = int(option.split()[-1][1:]) - 1
    third = ({0, 1, 2} - {p, receiver}).pop()
    assert any(card in line for line in story(game, receiver, since))
    assert any(card in line for line in story(game, p, since))
    assert not any(card in line for line in story(game, third, since))
    assert f"P{p + 1} gives 1 card to P{receiver + 1}" in story(game, third, since)


@pytest.mark.parametrize("narrate", [True, False])
def test_a_quiet_zone_silences_a_players_own_moves_only(narrate):
    rules = with_display({"zones": {"table": {}, "hand": {}, "stash": {"narrate": narrate}}})
    assert rules.display.zone("stash").narrate is narrate
    game = Game.new(rules, 2, seed=3)
    p = game.current_player
    told = {}
    for verb in ("hide", "give", "play"):
        since = len(game.state.log)
        option = next(x for x in game.decision.options if x.startswith(verb))
        mover = game.current_player
        game.apply(option)
        # the mover's own story, without the choice's own line
        told[verb] = [line for line in story(game, mover, since) if not line.startswith("turn ")]
        while game.current_player != p:
            game.apply(next(x for x in game.decision.options if x.startswith("play")))
    hid = [line for line in told["hide"] if "to your stash" in line]
    assert len(hid) == (1 if narrate else 0)
    assert any(line.startswith("you give 1 card to P") for line in told["give"])
    assert any(line.startswith("you put 1 card from your hand in the table") for line in told["play"])


def test_nothing_is_recorded_without_the_log():
    game = Game.new(load("cubirds"), 3, seed=4, record=False)
    for _ in range(20):
        game.apply(0)
    assert game.state.events == [] and game.state.log == []


def test_score_changes_are_narrated_and_private_values_only_to_their_owner():
    game = Game.new(secrets_rules(), 2, seed=1)
    p = game.current_player
    since = len(game.state.log)
    game.apply(next(x for x in game.decision.options if x.startswith("play")))
    assert "your points: 0 → 1 (+1)" in story(game, p, since)
    assert f"P{p + 1}'s points: 0 → 1 (+1)" in story(game, 1 - p, since)
    since = len(game.state.log)
    game.apply(next(x for x in game.decision.options if x.startswith("hide")))
    assert any(line.startswith("your secret: 0 → ") for line in story(game, 1 - p, since))
    assert not any("secret" in line for line in story(game, p, since))


# option steps -------------------------------------------------------------------------------------

def test_a_long_list_is_chosen_in_steps():
    game = cubirds_capture()
    parts = option_parts(game, 0)
    assert ["lay 1 owl", "in row 1", "on the left"] in parts
    assert next_step(parts, []) == ["lay 1 owl", "lay 2 robin"]
    assert next_step(parts, ["lay 1 owl"]) == ["in row 1", "in row 2", "in row 3", "in row 4"]
    assert next_step(parts, ["lay 1 owl", "in row 1"]) == ["on the left", "on the right"]


@pytest.mark.parametrize("name,players", [("cubirds", 3), ("pit", 4), ("piepmatz", 2), ("forehead-poker", 3),
                                          ("cubirds-pairs", 2), ("piepmatz-songbirds", 3)])
def test_parts_tell_every_option_apart(name, players):
    """Every option of every decision of a seeded game has parts, and options with different labels have
    different parts (so that choosing part by part reaches each of them)."""
    game = Game.new(load(name), players, seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if game.is_over:
            break
        parts = option_parts(game, game.current_player)
        assert len(parts) == len(game.decision.options)
        assert all(parts) and len({tuple(p) for p in parts}) == len(set(game.decision.options))
        game.apply(rng.randrange(len(parts)))


# boards -------------------------------------------------------------------------------------------

def hidden_labels(game, seat):
    rs = game.rs
    return {rs.card_labels[c] for c in rs.card_values if not may_see_card(game, seat, c)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_board_never_holds_a_card_its_seat_may_not_see(seed):
    rules = secrets_rules()
    game = Game.new(rules, 3, seed=seed)
    rng = random.Random(seed)
    checked = 0
    seen = {seat: set() for seat in (-1, 0, 1, 2)}   # what each seat was ever shown (its story may recall it)
    while not game.is_over and checked < 80:
        for seat in (0, 1, 2):
            seen[seat] |= set(rules.card_labels) - hidden_labels(game, seat)
            text = json.dumps(board(game, seat))
            leaked = [label for label in hidden_labels(game, seat) - seen[seat] if label in text]
            assert not leaked, f"seat P{seat + 1} is shown {leaked}"
        seen[-1] |= set(rules.card_labels) - hidden_labels(game, -1)
        text = json.dumps(board(game, None))
        assert not [label for label in hidden_labels(game, -1) - seen[-1] if label in text]
        game.apply(rng.randrange(len(game.decision.options)))
        checked += 1
    assert checked > 10


def test_a_board_hides_private_values_of_others():
    game = Game.new(secrets_rules(), 2, seed=1)
    game.state.pvars["secret"][:] = [111, 222]
    b = board(game, 0)
    rows = {s["seat"]: {v["name"]: v["value"] for v in s["vars"]} for s in b["seats"]}
    assert rows["P1"]["secret"] == "111" and rows["P2"]["secret"] == "?"
    assert "222" not in json.dumps(b)


def test_a_cubirds_board_counts_hands_and_numbers_rows():
    game = cubirds_capture()
    b = board(game, 0)
    rows = b["zones"][0]
    assert rows["label"] == "Rows" and [m["key"] for m in rows["members"]] == ["1", "2", "3", "4"]
    assert rows["members"][0]["cards"] == ["duck", "parrot", "owl", "magpie"]
    me = next(s for s in b["seats"] if s["you"])
    hand = next(z for z in me["zones"] if z["zone"] == "hand")["members"][0]
    assert cards_text(hand) == "owl (flock 3/4) · robin ×2 (flock 6/9)"
    other = next(s for s in b["seats"] if not s["you"])
    assert next(z for z in other["zones"] if z["zone"] == "hand")["members"][0]["groups"] is None
    assert [p["label"] for p in b["piles"]] == ["deck", "discard"]
    assert b["decision"]["prompt"] == "lay birds"


# the terminal -------------------------------------------------------------------------------------

@pytest.mark.parametrize("names,players,expected", [
    ([], 3, ["human", "random", "random"]),
    (["human", "greedy"], 3, ["human", "greedy", "greedy"]),
    (["human", "human"], 4, ["human", "human", "random", "random"]),
    (["human", "random", "first"], 5, ["human", "random", "first", "random", "first"]),
    (["greedy"], 2, ["greedy", "greedy"]),
])
def test_the_agent_list_fills_seats_with_bots(names, players, expected):
    assert seat_agents(names, players, "random") == expected


@pytest.mark.parametrize("name,players", [("cubirds", 2), ("cubirds", 5), ("piepmatz", 4), ("pit", 6),
                                          ("forehead-poker", 5)])
def test_the_screen_fits_24_lines(name, players):
    """The board without the story, with two lines of story and the prompt, fits a 24-line terminal."""
    game = Game.new(load(name), players, seed=2)
    rng = random.Random(2)
    for _ in range(30):
        b = board(game, game.current_player)
        assert len(screen_lines(b, 2)) + 4 <= 24
        game.apply(rng.randrange(len(game.decision.options)))


def test_your_own_zone_seen_only_as_a_count_is_on_your_line():
    text = """
name: mini
players: {min: 2, max: 2}
components:
  card: {label: "c{v}", in: deck, cards: [{each: {v: [1, 2, 3, 4, 5, 6]}}]}
zones:
  deck: {visibility: count}
  pile: {per_player: true, visibility: count}
  hand: {per_player: true, visibility: owner}
setup:
  - deal: {from: deck, to: pile, count: 2}
  - deal: {from: deck, to: hand, count: 1}
actions:
  play: {args: {c: me.hand}, label: "play {c}", do: [{move: {cards: '[c]', from: me.hand, to: me.pile}}]}
flow:
  round: {turn: {steps: [play]}}
limits: {turns: 4}
"""
    game = Game.new(load_source(parse_text(text, "mini.yaml")), 2, seed=0)
    lines = [line for _, line in screen_lines(board(game, 0), 0)]
    assert " Your hand (1)    c5" in lines
    # your own pile (a count for everyone, you too) is on your line, as the others' piles are on theirs
    assert any(line.startswith(" you") and "pile 2" in line for line in lines)
    assert any(line.startswith(" P2") and "pile 2 · hand 1" in line for line in lines)


NAMED = """
name: named
players: {min: 2, max: 2}
components:
  card: {label: "c{v}", in: deck, cards: [{each: {v: [1, 2, 3, 4]}}]}
zones:
  deck: {visibility: public}
variables:
  n_taken: 0
  last_cards: {value: [], text: the cards taken last}
actions:
  take:
    label: take one
    do:
      - add: {n_taken: 1}
      - set: {last_cards: 'take(deck, 1)'}
      - move: {cards: last_cards, from: deck, to: deck, at: bottom}
flow:
  round: {turn: {steps: [take]}}
scoring:
  parts: {pts_now: n_taken * 2}
display:
  names: {n_taken: taken so far, pts_now: points}
limits: {turns: 4}
"""


def test_the_display_names_a_variable_on_the_board_and_in_the_story():
    """`names` gives a variable its words on the board and in the story (else its id as words); a list given to
    an empty one is told as what it is, not ' → c1'."""
    game = Game.new(load_source(parse_text(NAMED, "named.yaml")), 2, seed=0)
    game.apply(0)
    b = board(game, 0)
    assert {v["name"]: v["value"] for v in b["vars"]} == {"taken so far": "1", "last cards": "c1"}
    assert "taken so far: 0 → 1 (+1)" in b["story"] and "last cards: c1" in b["story"], b["story"]
    # a score part too: beside each player and at the end (else its id as words)
    assert [line for _, line in screen_lines(b, 0) if line.startswith(" you")][0].endswith("points 2")
    while not game.is_over:
        game.apply(0)
    head = [line for _, line in screen_lines(board(game, 0), 0) if line.startswith(" player")][0]
    assert head.split() == ["player", "points"]


def test_a_list_emptied_is_told_as_none():
    text = NAMED.replace("      - set: {last_cards: 'take(deck, 1)'}\n      - move: {cards: last_cards, from: deck, "
                         "to: deck, at: bottom}", "      - set: {last_cards: 'take(deck, 1) if n_taken == 1 else []'}")
    assert text != NAMED
    game = Game.new(load_source(parse_text(text, "named.yaml")), 2, seed=0)
    game.apply(0)
    game.apply(0)
    assert "last cards: c1 → none" in board(game, 0)["story"], board(game, 0)["story"]
