"""Design lint: warnings for a deck dealt from before a shuffle and a score part that cannot change,
each at its line; and none for the bundled rulesets."""
from __future__ import annotations

import pytest

from interpreter import load, load_text
from interpreter.bundled import bundled

GAME = """\
name: mini
players: {min: 2, max: 4}
parameters: {hand_size: 3, goal: 10}
components:
  card:
    label: "{colour} {value}"
    in: box
    cards:
      - {colour: red, value: 1, count: 6}
      - {colour: blue, value: 2, count: 6}
zones:
  box: {visibility: hidden}
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
  table: {per_player: true}
player_variables: {points: 0, bonus: 0}
procedures:
  mix: [{shuffle: box}]
setup:
SETUP
actions:
  play:
    args: {card: me.hand}
    label: "play {card}"
    do:
      - move: {cards: '[card]', from: me.hand, to: me.table}
      - add: {me.points: card.value}
flow:
  ends:
    - when: any(players, it.points >= goal) or all(players, count(it.hand) == 0)
  round:
    turn:
      steps: [play]
scoring:
  parts:
PARTS
"""
POINTS = "    points: me.points\n"


def warnings(setup: str, parts: str = POINTS) -> list:
    rules = load_text(GAME.replace("SETUP\n", setup).replace("PARTS\n", parts), "mini.yaml")
    return [(w.code, w.message, w.location.line, w.location.col) for w in rules.warnings
            if w.code in ("unshuffled", "constant-score")]


UNSHUFFLED = "cards are taken from 'box' before it is shuffled: they come in the order the file lists them"
SETUPS = [
    # (id, setup effects, the warnings expected: (line, col) of the first deal or move)
    ("dealt without a shuffle", "  - deal: {from: box, to: hand, count: hand_size}\n",
     [("unshuffled", UNSHUFFLED, 20, 11)]),
    ("shuffled after the deal", "  - deal: {from: box, to: hand, count: hand_size}\n  - shuffle: box\n",
     [("unshuffled", UNSHUFFLED, 20, 11)]),
    ("moved by count", "  - move: {from: box, to: deck, count: 4}\n  - shuffle: box\n",
     [("unshuffled", UNSHUFFLED, 20, 11)]),
    ("shuffled first", "  - shuffle: box\n  - deal: {from: box, to: hand, count: hand_size}\n", []),
    ("shuffled by a procedure", "  - call: mix\n  - deal: {from: box, to: hand, count: hand_size}\n", []),
    ("shuffled inside an if", "  - if: true\n    then: [{shuffle: box}]\n"
                               "  - deal: {from: box, to: hand, count: hand_size}\n", []),
    ("picked cards keep the file's order",
     "  - move: {cards: box where colour == \"red\", from: box, to: deck}\n"
     "  - deal: {from: deck, to: hand, count: 2}\n",
     [("unshuffled", UNSHUFFLED.replace("'box'", "'deck'"), 21, 11)]),
    ("picked cards, then shuffled",
     "  - move: {cards: box where colour == \"red\", from: box, to: deck}\n  - shuffle: deck\n"
     "  - deal: {from: deck, to: hand, count: 2}\n", []),
    ("a random sample", "  - move: {cards: 'sample(box, 6)', from: box, to: deck}\n"
                        "  - deal: {from: deck, to: hand, count: 2}\n", []),
    ("nothing dealt", "  - move: {cards: box, from: box, to: deck}\n", []),
    # issue 28: a whole pile moved keeps its order where it goes, and is shuffled there before a deal
    ("the whole pile moved, then shuffled", "  - move: {from: box, to: deck, count: all}\n  - shuffle: deck\n"
     "  - deal: {from: deck, to: hand, count: 2}\n", []),
    ("the whole pile moved, never shuffled", "  - move: {from: box, to: deck, count: all}\n"
     "  - deal: {from: deck, to: hand, count: 2}\n",
     [("unshuffled", UNSHUFFLED.replace("'box'", "'deck'"), 21, 11)]),
]


@pytest.mark.parametrize("setup, expected", [c[1:] for c in SETUPS], ids=[c[0] for c in SETUPS])
def test_deck_dealt_before_a_shuffle(setup, expected):
    assert warnings(setup) == expected


def test_a_deal_at_the_start_of_a_round_is_looked_at_too():
    text = GAME.replace("SETUP\n", "  - shuffle: deck\n").replace("PARTS\n", POINTS).replace(
        "  round:\n", "  round:\n    start:\n      - deal: {from: box, to: hand, count: 1}\n")
    line = text.splitlines().index("      - deal: {from: box, to: hand, count: 1}") + 1
    found = [(w.code, w.location.line) for w in load_text(text, "mini.yaml").warnings if w.code == "unshuffled"]
    assert found == [("unshuffled", line)]


SHUFFLED = "  - shuffle: box\n  - deal: {from: box, to: hand, count: hand_size}\n"
PARTS = [
    # (id, score parts, names of the parts that cannot change)
    ("a number", "    points: me.points\n    base: 5\n", ["base"]),
    ("parameters only", "    points: me.points\n    aim: goal * player_count\n", ["aim"]),
    ("a variable nothing sets", "    points: me.points\n    extra: me.bonus\n", ["extra"]),
    ("a variable an action adds to", POINTS, []),
    ("a zone cards move into", "    left: -count(me.hand)\n", []),
    ("the turn", "    speed: turn\n", []),
]


@pytest.mark.parametrize("parts, constant", [c[1:] for c in PARTS], ids=[c[0] for c in PARTS])
def test_score_part_that_cannot_change(parts, constant):
    found = warnings(SHUFFLED, parts)
    assert [m for code, m, _, _ in found] == [
        f"score part '{n}' cannot change: it reads no zone or variable that any effect changes" for n in constant]


# the warnings a bundled ruleset keeps on purpose: the tutorial's card count is kept as it says it (its text tells why)
KEPT = {"cubirds-pairs": ["card-total"]}


@pytest.mark.parametrize("name", sorted(bundled()))
def test_bundled_rulesets_pass_validate_strict(name):
    """No warning but those kept on purpose (harbour-lights' `groups(me.hand where ..., name)` was taken for
    another player's hand once, and its label for one that names a hidden card)."""
    assert [w.code for w in load(name).warnings] == KEPT.get(name, [])
