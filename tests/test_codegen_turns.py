"""The turn's transition in generated code (interpreter/codegen/turns.py): from the end of one turn's steps to
the next turn's first decision, it plays, saves and fails exactly as the VM did node by node before the
engine had one path (the digests and messages below were taken from that VM, at bde3809)."""
from __future__ import annotations

import hashlib
import json
import random
import re

import pytest

from interpreter import Game, GameError, load_text
from interpreter.present.log import entries


def saved_in_words(game) -> dict:
    """The game's save as bde3809 wrote it: its log in words (before the log was kept as records), and its
    events without the places of the cards a variable's values hold (before they were kept)."""
    save = game.to_json()
    # a pass now says what was passed ('pass (draw)', issue 31): as bde3809 wrote it, 'pass'
    save["state"]["log"] = [as_then(e) for e in json.loads(json.dumps(entries(game)))]
    save["state"]["events"] = [e[:6] if e[0] == "set" else e for e in save["state"]["events"]]
    return save

def as_then(entry):
    if type(entry) is str:
        return re.sub(r": pass \(.*\)$", ": pass", entry)
    return [entry[0]] + [as_then(t) for t in entry[1:]]


TURNS = """\
name: turns
players: {min: 2, max: 3}
components:
  card:
    in: deck
    cards:
      - {value: 1, count: 5}
      - {value: 2, count: 5}
      - {value: 3, count: 5}
zones:
  deck: {visibility: count}
  hand: {per_player: true}
  pile: {}
variables: {x: 0, seen: 0}
actions:
  take:
    args: {card: deck}
    if: card.value != 3 or x > 2
    do:
      - move: {cards: card, from: deck, to: me.hand}
  drop:
    args: {card: me.hand}
    do:
      - move: {cards: card, from: me.hand, to: pile}
      - set: {x: 'x + card.value'}
  stop:
    when: x > 4
    do: [end_turn]
flow:
  ends:
    - when: ENDS
      reason: the pile is full
  round:
    ends:
      - when: count(deck) < 3
        reason: the deck is low
    end:
      - move: {from: pile, to: deck, count: all}
      - shuffle: deck
    turn:
      next_player: NEXT
      start:
        - set: {seen: START}
      steps:
        - {name: taking, actions: [take], if: 'WHEN'}
        - {name: dropping, actions: [drop, stop], optional: true}
      end:
        - set: {x: END}
limits:
  turns: 40
"""

PLAIN = {"ENDS": "count(pile) >= 9", "NEXT": "next(current)", "START": "'seen + 1'", "WHEN": "turn % 3 != 0",
         "END": "'x + 1'"}


def filled(template, plain, parts):
    """A template ruleset with its placeholders replaced: `parts` where given, else `plain`."""
    for k, v in {**plain, **parts}.items():
        template = template.replace(k, v)
    return template


def ruleset(**parts):
    return filled(TURNS, PLAIN, parts)


def digest(game) -> str:
    """The game's save (frames, positions, environments, log in words, history), its decisions and its
    result, in 16 hex digits."""
    data = {"save": saved_in_words(game), "result": game.result,
            "decisions": [list(map(repr, [d.player, d.prompt, d.options, d.asked_at])) for d in game.decisions()]}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def played(rules, players, seed, steps=120):
    """The game after random choices, or the error it stopped at, with the choices that led there."""
    try:
        game = Game.new(rules, players, seed=seed)
    except GameError as exc:   # before the first decision
        return str(exc), []
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        i = rng.randrange(game.option_count())
        try:
            game.apply(i)
        except GameError as exc:
            return str(exc), game.state.history + [i]
    return game


@pytest.mark.parametrize("parts, digests", [
    ({}, ["88dfe5c32c972eeb", "3030fcdb6d148817", "186e797bc4da5cc5", "3a521b692d95b4fd"]),
    ({"NEXT": "previous(current)", "WHEN": "count(me.hand) < 4"},
     ["82a1103269b736eb", "2c9f2c9444cbf8de", "cfb13f986de28bc8", "15207b14280770c7"]),
    # a step never offered: the next one asks
    ({"WHEN": "false"}, ["a42b13c2f1b75851", "ea24f54d781612b9", "aee118fd7d0bf094", "05ed72fef51a782d"]),
    # the game ends at an end check after a turn
    ({"ENDS": "x > 12"}, ["68e1de49e943acfc", "2ad0a63968a0fec8", "0b707ce51757ab2d", "e19f39aa09a00304"]),
    ({"END": "'x + 2'", "START": "'seen + turn'"},
     ["8d703b6396ad9617", "32b3a94efe6da600", "22704a02ad7aabb2", "e3588fee6f6c7787"]),
])
def test_turns_play_saved_and_listed_exactly_as_the_vm_played_them(parts, digests):
    rules = load_text(ruleset(**parts), "turns.yaml")
    got = []
    for players in (2, 3):
        for seed in (1, 2):
            game = played(rules, players, seed)
            assert not isinstance(game, tuple), game
            got.append(digest(game))
    assert got == digests
    assert rules.nodes[rules.turn_loop_node].fused is not None and rules.nodes[rules.steps_node].fused is not None


def test_a_game_saved_mid_turn_goes_on_alike():
    rules = load_text(ruleset(), "turns.yaml")
    game = played(rules, 3, 4, 25)
    back = Game.from_json(rules, game.to_json())
    rng = random.Random(7)
    for _ in range(80):
        if game.is_over:
            break
        i = rng.randrange(game.option_count())
        game.apply(i)
        back.apply(i)
        assert back.to_json() == game.to_json()


def line_of(text, needle):
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("parts, needle, error", [
    # each fails at the end of turn 2 or at the start of turn 3, where generated code runs the turn
    ({"NEXT": "players[turn * 5]"}, "next_player",                      # the next player
     ("[5] is past the end of a list of 2 items", [2, 0])),
    ({"START": "'seen + 10 / (turn - 3)'"}, "set: {seen:",             # a turn's start effect
     ("ruleset error in 'set': division by zero", [2, 0, 4, 0])),
    ({"END": "'x + 10 / (turn - 2)'"}, "set: {x: 'x + 10",             # a turn's end effect
     ("ruleset error in 'set': division by zero", [2, 0, 4, 0])),
    ({"WHEN": "10 / (turn - 3) > 1"}, "name: taking",                  # a step's condition
     ("ruleset error in 'taking': division by zero", [])),
    ({"ENDS": "10 / (turn - 2) > 1"}, "next_player",                   # an end check (told at the turn map)
     ("ruleset error in 'end checks': division by zero", [2, 0, 4, 0])),
])
def test_an_error_in_the_turns_transition_is_told_where_the_vm_told_it(parts, needle, error):
    text = ruleset(**parts)
    message, choices = error
    where = f"turns.yaml:{line_of(text, needle)}:{7 if needle == 'next_player' else 11}"
    assert played(load_text(text, "turns.yaml"), 2, 1) == (f"{where}: {message}", choices)


def test_turns_where_nobody_is_asked_are_stopped_by_the_budget():
    text = ruleset(WHEN="false", END="x").replace("actions: [drop, stop], optional: true", "actions: [stop]")
    text = text.replace("turns: 40", "turns: 1000000")
    with pytest.raises(GameError) as info:
        Game.new(load_text(text, "turns.yaml"), 2, seed=1)
    assert str(info.value) == (f"turns.yaml:{line_of(text, 'next_player')}:7: more than 1,000,000 effects ran "
                               "in one step, without a decision: the turns here follow one another and nobody "
                               "is asked to choose (see Limits in the language reference)")


def test_the_turn_limit_stalls_the_game():
    text = ruleset(ENDS="false").replace("turns: 40", "turns: 5")
    game = played(load_text(text, "turns.yaml"), 2, 3)
    assert game.result["stalled"] and game.result["turns"] == 5
    assert game.result["reason"] == "turn limit of 5 turns reached"
    assert digest(game) == "2193f9fe08fa2294"


AGAIN = """\
name: again-steps
players: {min: 2, max: 3}
components:
  card:
    label: "c{value}"
    in: deck
    cards:
      - {value: 1, count: 6}
      - {value: 2, count: 6}
      - {value: 3, count: 6}
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
  table: {per_player: true}
  pile: {}
variables:
  rounds_left: 12
player_variables:
  coins: 0
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
flow:
  ends:
    - when: rounds_left <= 0 or count(deck) == 0
      reason: the deck or the time ran out
  round:
    turn:
      start:
        - set: {me.coins: 0}
      steps:
        - {name: play, actions: [play, cash], again: true}
        - {name: spend, actions: [buy], again: 'count(me.table) + 1', if: 'me.coins > 0'}
        - {name: draw, actions: [draw]}
      end:
        - set: {rounds_left: 'rounds_left - 1'}
scoring:
  parts:
    cards: count(me.hand)
actions:
  play:
    args: {card: me.hand}
    label: "play {card}"
    do:
      - move: {cards: '[card]', from: me.hand, to: me.table}
  cash:
    when: count(me.table) > 0
    label: cash in
    do:
      - add: {me.coins: 'sum(me.table.value)'}
      - move: {from: me.table, to: pile, count: all}
  buy:
    when: count(deck) > 0 and me.coins >= 2
    label: buy a card
    do:
      - add: {me.coins: -2}
      - move: {from: deck, to: me.hand}
  draw:
    label: draw a card
    do:
      - move: {from: deck, to: me.hand}
"""

# the states of seeded random games, decision by decision (sha256 of their saves, first 16 digits), and their
# lengths, taken at c25d651, when the VM entered a step asked again and took its passes
AGAIN_DIGESTS = [
    ((2, 0, False), "2d430ac895a25949", 44),
    ((2, 1, True), "9100e8d4058a9895", 45),
    ((3, 2, False), "c1e1784a1563231c", 36),
    ((3, 3, True), "8c7f60b15cb71f5f", 31),
]


@pytest.mark.parametrize("case,digest,decisions", AGAIN_DIGESTS, ids=[str(c[0]) for c in AGAIN_DIGESTS])
def test_steps_asked_again_are_entered_and_passed_as_the_vm_did(case, digest, decisions):
    """A turn's steps asked again (`again: true`, `again:` an expression, with an `if`), entered and passed by
    generated code (codegen/turns.py, enter_again and after_again): every state, frames included, is the one
    the VM reached."""
    players, seed, record = case
    rules = load_text(AGAIN, "again.yaml")
    source = rules.generated.source   # both loops entered by generated code
    assert "[1, 1000, 0]])" in source and "[1, _n, 0]])" in source
    game = Game.new(rules, players, seed=seed, record=record)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for _ in range(400):
        h.update(json.dumps(game.to_json(), sort_keys=True).encode())
        if game.is_over:
            break
        game.apply(rng.randrange(game.option_count()))
    assert (h.hexdigest()[:16], len(game.state.history)) == (digest, decisions)


TOGETHER = """\
name: together
players: {min: 2, max: 4}
components:
  card:
    in: deck
    cards:
      - {value: 1, count: 6}
      - {value: 2, count: 6}
      - {value: 3, count: 6}
zones:
  deck: {visibility: count}
  hand: {per_player: true}
  pile: {}
variables: {x: 0, calls: 0}
player_variables: {score: 0}
actions:
  take:
    when: count(deck) > 4
    do:
      - move: {from: deck, to: me.hand, count: 1}
  grab:
    args: {card: deck}
    if: GRAB
    do:
      - move: {cards: card, from: deck, to: me.hand}
  drop:
    args: {card: me.hand}
    do:
      - move: {cards: card, from: me.hand, to: pile}
      - set: {x: 'x + card.value'}
      - set: {me.score: 'me.score + card.value'}
  give:
    when: count(me.hand) > 1
    do:
      - choose:
          player: next(me)
          prompt: take a card
          args: {c: me.hand}
          do:
            - move: {cards: '[c]', from: me.hand, to: next(me).hand}
  stop:
    when: x > 6
    do: [end_turn]
  close:
    when: count(pile) > 5
    do:
      - move: {from: pile, to: deck, count: all}
      - set: {calls: 'calls + 1'}
      - end_round
flow:
  ends:
    - when: ENDS
      reason: the pile is full
  round:
    start:
      - shuffle: deck
      - deal: {from: deck, to: hand, count: 2}
    ends:
      - when: count(deck) < 3
        reason: the deck is low
    end:
      - move: {from: pile, to: deck, count: all}
      - for_each: p
        in: players
        do:
          - move: {from: p.hand, to: deck, count: all}
    turn:
      steps:
        - {name: bidding, players: WHO, actions: [take, grab, drop, give, stop, close], optional: true, if: 'WHEN'}
        - {name: dropping, actions: [drop, stop], optional: true}
scoring:
  parts:
    score: me.score
limits:
  turns: 60
"""

TOGETHER_PLAIN = {"WHO": "players", "WHEN": "true", "ENDS": "x > 20", "GRAB": "false"}


def together(**parts):
    return filled(TOGETHER, TOGETHER_PLAIN, parts)


# digests of seeded random games (2, 3 and 4 players, seeds 1 and 2), or the error they stopped at with the
# choices that led there, taken at 50bae43, when the VM collected and applied every choice of a step of
# several players (Choose.run and Choose.resume)
@pytest.mark.parametrize("parts, digests", [
    ({},
     ['88d468a364366e43',
     'e361ac4b87cb4294',
     '308e46459db7d94b',
     '0ad2df2e3dac3186',
     '86162c26284b731b',
     'e76e5b2430e5151f']),
    ({'WHO': 'others(current)'},
     ['432843fe19da4169',
     '9155fe7a02569e17',
     '7da5460f3f21a634',
     '11652ffe6fd7fab2',
     'e31b4b9bbecec620',
     'e1e081e3e5c2eb72']),
    ({'WHEN': 'turn % 3 != 1'},
     ['80ee9a3d5a7e6e27',
     'd362a1eb793034c6',
     '9d6d5771bdb3c2fd',
     '179a4ea02d32d12a',
     '70eecad55da08b1b',
     'aa9be3d9eeb6dd84']),
    ({'GRAB': 'card.value == 3 and x > 4'},
     [('together.yaml:25:9: a card to move is not in the source zone (move)',
      [1, 4, 0, 2, 1, 3, 3, 7, 1, 1, 1]),
     '843ba5dbea1978ec',
     ('together.yaml:25:9: a card to move is not in the source zone (move)',
      [1, 4, 0, 1, 0, 3, 3, 1, 1, 6, 1, 1]),
     'ba1932861e6323db',
     '0f4bc307da303537',
     '2147d08d68577e79']),
    ({'WHO': "'filter(players, it != current)'", 'ENDS': 'x > 9'},
     ['454d276119b3bef1',
     'b2d072ed36283750',
     'f6e9c740a6f08090',
     'c6ff26c9fbcde54e',
     'b430f97f8b5854bd',
     'bfd2d91c57f511e1']),
])
def test_a_step_of_several_players_is_asked_collected_and_applied_as_the_vm_did(parts, digests):
    """A step of several players at once (`players:`, `until: all`) asked and applied by generated code
    (codegen/turns.py, asked_together and after_together): every chooser's options listed from one state, the
    choices kept, then applied in priority order (seat `turn mod players` first); a pass does nothing; an
    action that ends the turn or the round stops the later choices as in the VM; an action whose effects ask a
    decision (give) left to the VM; a card taken twice fails where the VM failed."""
    rules = load_text(together(**parts), "together.yaml")
    step = next(node for node in rules.nodes if getattr(node, "name", None) == "bidding")
    assert step.after is not None and step.after.__name__.startswith("A_bidding")
    got = []
    for players in (2, 3, 4):
        for seed in (1, 2):
            game = played(rules, players, seed, 150)
            got.append(game if isinstance(game, tuple) else digest(game))
    assert got == digests


def test_the_choosers_of_every_player_are_the_games_players_unchecked():
    """`players: players` lists every player's options in seat order from the game's own list of players;
    any other expression of the choosers is checked to be players (N_as_players), as Choose.run checks it."""
    plain = load_text(together(), "together.yaml").generated.source
    assert "for _p in g.players]" in plain and "N_as_players(g, K_players" not in plain
    others = load_text(together(WHO="others(current)"), "together.yaml").generated.source
    assert "for _p in N_as_players(g, K_players" in others and "for _p in g.players]" not in others


def test_a_game_saved_while_several_players_choose_goes_on_alike():
    rules = load_text(together(), "together.yaml")
    game = Game.new(rules, 4, seed=3)
    rng = random.Random(3)
    saved = 0
    for _ in range(60):
        if game.is_over:
            break
        frame = game.state.stack[-1]
        if frame[4] and frame[4].get("chosen"):   # some have chosen, others have not yet
            saved += 1
            back = Game.from_json(rules, json.loads(json.dumps(game.to_json())))
            i = rng.randrange(game.option_count())
            game.apply(i)
            back.apply(i)
            assert back.to_json() == game.to_json()
        else:
            game.apply(rng.randrange(game.option_count()))
    assert saved >= 5


ROWS = """\
name: rows
players: {min: 2, max: 2}
components:
  card:
    in: deck
    cards:
      - {each: {value: [1, 2, 3]}, count: 6}
zones:
  deck: {}
  row: {count: 3}
  shelf: {keys: [red, blue]}
  hand: {per_player: true}
setup:
  - deal: {from: deck, to: hand, count: 4}
actions:
  lay:
    args:
      card: me.hand
      r: 'DOMAIN'
      s: 'KEYS'
    do:
      - move: {cards: '[card]', from: me.hand, to: 'row[r]'}
      - move: {from: 'row[r]', take: end, to: 'shelf[s]'}
flow:
  round:
    turn:
      steps: [lay]
  ends:
    - when: count(me.hand) == 0
scoring:
  parts:
    shelved: count(shelf["blue"])
"""


@pytest.mark.parametrize("domain,keys,numbered,keyed", [
    ("range(count(row))", "keys(shelf)", False, False),      # every value a member number, every key a key
    ("range(3)", '["red", "blue"]', False, False),
    ("[0, 2]", '["blue"]', False, False),
    ("[0, 3]", '["red", "green"]', True, True),               # a value that names no member: checked, and refused
    ("range(count(me.hand))", '["red", 1]', True, True),      # not known at load; a key of another type
])
def test_an_options_argument_known_at_load_names_a_member_without_a_check(domain, keys, numbered, keyed):
    """An action's argument chosen from a constant list (known at load) whose every value names a member of a
    family is used as the member's number (or looked up as its key) in the applier without a check; any other
    keeps the check, which tells a wrong one as before."""
    rules = load_text(ROWS.replace("DOMAIN", domain).replace("KEYS", keys), "rows.yaml")
    applier = rules.generated.source.split("def A_lay")[1].split("\ndef ")[0]
    assert ("R_numbered(" in applier) is numbered and ("R_keyed(" in applier) is keyed
    checked = numbered or keyed
    game = Game.new(rules, 2, seed=1)
    rng = random.Random(1)
    try:
        while not game.is_over:
            game.apply(rng.randrange(game.option_count()))
    except GameError as exc:
        assert checked and ("row" in str(exc) or "shelf" in str(exc))
        return
    assert game.state.result is not None


@pytest.mark.parametrize("again", ["for_each: r\n        in: '[2, 5]'\n        do:\n          - move: {from: 'row[r]', to: deck}",
                                   "let: {r: 5}\n      - move: {from: 'row[r]', to: deck}"])
def test_an_argument_named_again_inside_its_effects_is_checked_there(again):
    """An argument known at load that a `let` or a `for_each` of the same name binds again inside the action's
    effects holds other values there: the applier is written with every member checked, and the wrong member
    (5 of a family of 3) is told as an error, not read from another zone."""
    text = ROWS.replace("DOMAIN", "range(count(row))").replace("KEYS", "keys(shelf)").replace(
        "      - move: {from: 'row[r]', take: end, to: 'shelf[s]'}",
        "      - move: {from: 'row[r]', take: end, to: 'shelf[s]'}\n      - " + again)
    rules = load_text(text, "rows.yaml")
    applier = rules.generated.source.split("def A_lay")[1].split("\ndef ")[0]
    assert "R_numbered(" in applier
    game = Game.new(rules, 2, seed=1)
    with pytest.raises(GameError) as info:
        game.apply(0)
    assert "row" in str(info.value) and "5" in str(info.value)


def test_a_save_whose_option_holds_a_value_its_list_never_gives_is_refused():
    """The applier uses an argument chosen from a list known at load without checking it, so a save (edited, or
    written by another tool) whose pending option holds another value is refused as damaged when it loads,
    rather than played on another zone."""
    rules = load_text(ROWS.replace("DOMAIN", "range(count(row))").replace("KEYS", "keys(shelf)"), "rows.yaml")
    game = Game.new(rules, 2, seed=1)
    data = json.loads(json.dumps(game.to_json()))
    Game.from_json(rules, data)   # as saved: fine
    for bad in (3, -1, True, "1"):
        edited = json.loads(json.dumps(data))
        edited["state"]["pending"][2][0][1][1] = bad
        with pytest.raises(GameError) as info:
            Game.from_json(rules, edited)
        assert "the saved game is damaged: an option's 'r' is" in str(info.value)


DEEP = """
name: deep
players: {min: 2, max: 2}
components:
  card: {in: deck, cards: [{value: 1, count: 2}]}
zones:
  deck: {}
variables: {n: 0, depth: 0}
procedures:
  rec:
    - add: {depth: 1}
    - if: depth < DEPTH
      then: [{call: rec}]
      else:
        - choose:
            players: players
            optional: true
            args: {x: '[1, 2]'}
            do:
              - add: {n: 1}
actions:
  go:
    do:
      - set: {depth: 0}
      - if: depth == 0
        then: [{call: rec}]
flow:
  round: {turn: {steps: [go]}}
  ends: [{when: turn > 3}]
scoring: {parts: {n: n}}
"""


ACTIONS_CHOSEN = """            actions: [bump]
actions:
  bump:
    label: choose 1
    do:
      - add: {n: 1}
"""


@pytest.mark.parametrize("actions", [False, True])
@pytest.mark.parametrize("depth,error", [(90, False), (97, True)])
def test_effects_run_at_once_still_stop_effects_nested_too_deep(depth, error, actions):
    """A `do` (or a chosen action's effects) that never waits runs without a frame of its own, but where the
    frames are as deep as they may be, it is pushed, and refused there, as a pushed block is (a choice of
    several players applied alone)."""
    text = DEEP.replace("DEPTH", str(depth))
    if actions:
        text = text.replace("""            args: {x: '[1, 2]'}
            do:
              - add: {n: 1}
actions:
""", ACTIONS_CHOSEN)
        assert "bump" in text
    game = Game.new(load_text(text, "deep.yaml"), 2, seed=1)
    game.apply("go")
    game.apply(0)   # P1 chooses
    if error:
        with pytest.raises(GameError) as info:
            game.apply("pass")   # P2 passes: P1's choice is applied alone
        assert "effects nest deeper than 200 levels" in str(info.value)
    else:
        game.apply("pass")
        assert game.state.vars["n"] == 1


SETS = """
name: sets
players: {min: 2, max: 2}
components:
  card:
    label: "{colour} {rank}"
    in: deck
    cards:
      - {each: {colour: [red, blue, green], rank: [1, 2, 3]}}
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
  table: {per_player: true}
variables:
  top: {value: 0}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
actions:
  lay:
    args: {kind: 'groups(me.hand, colour)'}
    if: first(kind).rank >= 1 and last(kind).rank > 0
    label: "lay {count(kind)} {first(kind).colour}"
    do:
      - move: {cards: kind, from: me.hand, to: me.table}
      - set: {top: first(kind).rank}
flow:
  ends: [{when: count(me.hand) == 0}]
  round: {turn: {steps: [lay]}}
scoring:
  parts:
    laid: count(me.table)
"""


def test_an_argument_chosen_from_groups_reads_its_first_card_without_a_check():
    """An option's argument chosen from `groups(...)` holds a group (never empty, no item missing): its listing's
    condition and its applier read `first(kind).rank` as the table's value of set[0], and the games play as
    the engine plays them, to the same end."""
    rules = load_text(SETS, "sets.yaml")
    source = rules.generated.source
    listing = source.split("def S_lay")[1].split("\ndef ")[0]
    applier = source.split("def A_lay")[1].split("\ndef ")[0]
    for part in (listing, applier):
        assert "[kind[0]]" in part and "is not None else None" not in part
    assert "[kind[-1]]" in listing
    for seed in range(6):
        game = Game.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.randrange(game.option_count()))
            assert game.state.vars["top"] in (1, 2, 3)
        assert [e for e in entries(game) if "lay" in str(e)]


def test_a_group_named_again_inside_its_effects_is_checked_there():
    """A `let` inside the action that binds the name again to cards (none here: no rank is past 3) holds no group
    there: the applier is written with `first(kind)` checked (none, for an empty list), and the game plays on."""
    rules = load_text(SETS.replace("      - set: {top: first(kind).rank}",
                                   "      - let: {kind: me.hand where rank > 3}\n      - set: {top: first(kind).rank}"),
                      "sets.yaml")
    applier = rules.generated.source.split("def A_lay")[1].split("\ndef ")[0]
    assert "(A_rank[kind[0]] if kind and kind[0] is not None else None)" in applier
    game = Game.new(rules, 2, seed=1)
    game.apply(0)
    assert game.state.vars["top"] is None


@pytest.mark.parametrize("bad", [[], [None], "red", [{"$card": 0}, None]])
def test_a_save_whose_option_holds_no_group_where_groups_are_listed_is_refused(bad):
    """The applier reads a group's first card unchecked, so a save whose pending option holds anything but a
    non-empty list of items there is refused as damaged when it loads."""
    rules = load_text(SETS, "sets.yaml")
    game = Game.new(rules, 2, seed=1)
    data = json.loads(json.dumps(game.to_json()))
    Game.from_json(rules, data)   # as saved: fine
    data["state"]["pending"][2][0][1][0] = bad
    with pytest.raises(GameError) as info:
        Game.from_json(rules, data)
    assert "the saved game is damaged: an option's 'kind' is" in str(info.value)
