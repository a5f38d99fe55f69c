"""`rulebook explain`: the rulebook a person learns a game from (interpreter/explain/book.py) - every bundled ruleset
has each section, a small ruleset gives exactly the expected text, rules put into sentences (phrases.py,
tell.py) with the expression kept where no sentence exists, the example of play from a seeded game, and
the HTML page well-formed and self-contained."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from interpreter import Game, load, load_text
from interpreter.bundled import bundled
from interpreter.effects import EFFECTS
from interpreter.explain import markdown_page, rulebook_markdown
from interpreter.explain.phrases import Phrases
from interpreter.explain.tell import TELLERS

SECTIONS = ("Overview and goal", "Components", "Setup", "Playing", "Actions", "The end and scoring",
            "An example of play")


def section(md: str, title: str) -> str:
    start = md.index(f"\n## {title}\n")
    end = md.find("\n## ", start + 1)
    return md[start:end if end != -1 else len(md)]


@pytest.mark.parametrize("name", sorted(bundled()))
def test_every_bundled_ruleset_has_a_rulebook_with_each_section(name):
    rules = load(name)
    md = rulebook_markdown(rules)
    assert md.startswith(f"# {rules.title}\n")
    for title in SECTIONS:
        assert f"\n## {title}\n" in md, title
    for action in rules.actions:   # each action has its heading, in words
        assert f"\n### {action.replace('_', ' ').capitalize()}\n" in section(md, "Actions"), action
    for source in rules.sources:   # titles and links, never a path of this repository
        assert source.split()[0] in section(md, "Sources")
    assert "shared/" not in md and "seeds/" not in md
    # the example of play names its players and tells turns
    assert "**Turn " in section(md, "An example of play")
    # no internal ids: zones, parameters and actions with underscores are put in words
    prose = re.sub(r"`[^`]*`", "", md)
    for zone in rules.zones:
        if "_" in zone:
            assert zone not in prose, zone


def test_a_rulebook_says_how_many_of_each_card():
    comps = section(rulebook_markdown(load("cubirds")), "Components")
    assert "**110 birds**" in comps and "| flamingo | 2 | 3 | 7 |" in comps
    # every combination of values, once each: said in one sentence, not a table of 72 rows
    pm = section(rulebook_markdown(load("piepmatz")), "Components")
    assert "One card of every species (chaffinch, sparrow, bullfinch, blackbird, greenfinch, yellowhammer), " \
           "value (1 to 6) and sex (male, female)." in pm
    souk = section(rulebook_markdown(load("souk")), "Components")
    assert "One card of every good (silk, spice, tea, salt) and value (1 to 9). A card is *rare* when its value " \
           "is at least 8." in souk


def test_setup_by_player_count_and_parameters_read_at_their_values():
    md = rulebook_markdown(load("piepmatz"))
    setup = section(md, "Setup")
    assert "| players | perches |" in setup and "| 4 | 3 |" in setup
    assert "- Deal 4 cards from the bird deck to each player's hand, one card at a time." in setup
    # a condition on a parameter is decided by its value: only the branch taken is told
    cubirds = section(rulebook_markdown(load("cubirds")), "Setup")
    assert "Move 1 card from the end of that row to the discard." in cubirds
    assert "to the deck" not in cubirds
    bga = section(rulebook_markdown(load("cubirds-bga-setup")), "Setup")
    assert "Move 1 card from the end of that row to the deck." in bga


TINY = """
name: tiny
title: Tiny
players: {min: 2, max: 3}
text: Play your cards onto the pile; the first to empty their hand wins.
sources: ["A test of the rulebook"]
parameters:
  hand_size: {2: 3, 3: 2}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {colour: red, value: 1, count: 6}
      - {colour: blue, value: 2, count: 6}
zones:
  deck: {visibility: count, text: face-down draw pile}
  pile: {visibility: top}
  hand: {per_player: true, visibility: owner}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: hand_size}
actions:
  play:
    text: Play a card of your hand on the pile.
    args: {card: me.hand}
    if: count(pile) == 0 or card.value >= first(pile).value
    label: "play {card}"
    do:
      - move: {cards: '[card]', from: me.hand, to: pile, at: top}
  draw:
    text: Draw a card.
    when: count(deck) > 0
    label: draw
    do:
      - move: {from: deck, to: me.hand}
flow:
  first_player: 0
  ends:
    - when: count(current.hand) == 0
      winners: '[current]'
      reason: a hand is empty
  round:
    turn:
      steps:
        - {name: play a card, actions: [play, draw]}
scoring:
  parts:
    cards: -count(me.hand)
"""

TINY_BOOK = """# Tiny

*A game for 2 to 3 players.*

## Overview and goal

Play your cards onto the pile; the first to empty their hand wins.

**How to win.** When the current player's hand is empty, the game ends and the current player wins.

## Components

**12 cards**

| card | colour | value | count |
|---|---|---|---|
| red 1 | red | 1 | 6 |
| blue 2 | blue | 2 | 6 |

**On the table:**

- **the deck** — face-down draw pile (face down)
- **the pile** (face down, its top card face up)

**Each player has:**

- **hand** (only you see its cards; the others see how many)

## Setup

By the number of players:

| players | hand size |
|---|---|
| 2 | 3 |
| 3 | 2 |

- All 12 cards start in the deck.
- Shuffle the deck.
- Deal *hand size* cards from the deck to each player's hand, one card at a time.

The first player starts.

## Playing

### A turn

On your turn:

1. **Play a card**: *Play* or *Draw* (see *Actions*).

A step you cannot take is skipped.

Then the next player in seat order takes a turn.

## Actions

### Play

Play a card of your hand on the pile.

- **Taken** in the step *Play a card*.
- **Choose** a card of your hand.
- **Allowed only if** the pile is empty, or the value of the chosen card is at least the value of the first card of the pile.
- **Then:**
  - Move the chosen card from your hand to the top of the pile.

### Draw

Draw a card.

- **Taken** in the step *Play a card*.
- **Only when** the deck is not empty.
- **Then:**
  - Move 1 card from the deck to your hand.

## The end and scoring

The game ends:

- when the current player's hand is empty (a hand is empty): the current player wins.

These are checked after every turn and at the end of every round.

**Scoring.** You score minus the number of cards in your hand (*cards*).

When the end does not name the winners, the highest score wins.

Players still tied share the victory.

A game that reaches 1000 turns stops there, and nobody wins.

## An example of play

Ann and Ben play a game (bots, `greedy`, seed 1: `rulebook play tiny --players 2 --seed 1` deals the same cards). Here every card is shown, hands too.

After the setup:

- The deck: 6 cards.
- The pile: 0 cards.
- Ann's hand: blue 2, red 1, red 1.
- Ben's hand: blue 2, blue 2, blue 2.

**Turn 1.** Ann: play blue 2. Ann puts 1 card from their hand in the pile: blue 2.

**Turn 2.** Ben: play blue 2. Ben puts 1 card from their hand in the pile: blue 2.

**Turn 3.** Ann: draw. Ann takes 1 card from the deck into their hand: red 1.

**Turn 4.** Ben: play blue 2. Ben puts 1 card from their hand in the pile: blue 2.

And so on, until the game ends.

## Sources

- A test of the rulebook

---

Written from the ruleset `tiny` by rulebook. `rulebook explain tiny --detail` gives the reference: every zone, parameter, step and effect with its expressions as written.
"""


def test_a_small_ruleset_gives_exactly_this_rulebook():
    assert rulebook_markdown(load_text(TINY)) == TINY_BOOK


def test_the_example_is_the_seeded_game_it_names():
    rules = load_text(TINY)
    game = Game.new(rules, 2, 1)
    hand = ", ".join(rules.card_labels[c] for c in game.state.zones[rules.zone_slot("hand", 2, 0)])
    assert f"- Ann's hand: {hand}." in TINY_BOOK


# rules in sentences --------------------------------------------------------------------------------
PHRASES = [
    ("count(me.hand) == 0", "your hand is empty"),
    ("count(deck) > 0", "the deck is not empty"),
    ("count(row[0]) < 3", "row 1 holds fewer than 3 cards"),
    ("count(current.hand) >= hand_size", "the current player's hand holds at least as many cards as *hand size*"),
    ("sum(me.hand.value) > 10", "the total value of the cards in your hand is more than 10"),
    ("count(distinct(me.hand.colour)) == 2", "the number of different colours in your hand is 2"),
    ("any(players, count(it.hand) == 0)", "some player's hand is empty"),
    ("maxima(players, count(it.hand))", "the players with the most cards in their hand"),
    ("first(me.hand where colour == \"red\")", "the first card of your hand whose colour is red"),
    ("colour == \"red\" or colour == \"blue\"", None),   # bare attributes need an item: no words
    ("next(current)", "the next player"),
    ("others(me) where count(it.hand) > 0", "the other players whose hand is not empty"),
    ("turn % player_count == 0", "the turn number is a multiple of the number of players"),
    ("(flag or count(deck) > 0) and turn > 1", "either *flag* is true or the deck is not empty, and the turn "
                                               "number is more than 1"),
    ("3 if flag else 1", "3 if *flag* is true, otherwise 1"),
    ("combinations(me.hand, 2)", None),
]

PHRASE_RULES = TINY.replace("zones:", "variables:\n  flag: false\nzones:").replace(
    "  pile: {visibility: top}", "  pile: {visibility: top}\n  row: {count: 2}")


@pytest.mark.parametrize("text,expected", PHRASES)
def test_an_expression_in_words_or_as_written(text, expected):
    ph = Phrases(load_text(PHRASE_RULES))
    told = ph.say(text, {}, "cond")
    assert told == (expected if expected is not None else f"`{text}`")


def test_a_parameter_decides_a_condition_when_its_value_is_known():
    ph = Phrases(load("cubirds"))
    assert ph.static('refill_end == "laid"') is True
    assert ph.say('side if refill_end == "laid" else refill_end', {"side": ph.value("left")}) == "left"


def test_every_effect_is_told_in_words():
    assert set(EFFECTS) <= set(TELLERS)


def test_a_short_procedure_is_told_where_it_is_called_with_its_arguments():
    # forehead-poker's `pay` (one effect) with `who: me`: "Take 1 from your chips", never "*who*"
    actions = section(rulebook_markdown(load("forehead-poker")), "Actions")
    assert "- Take 1 from your *chips* and add 1 to *pot*." in actions
    assert "*who*" not in actions


# the HTML page -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["cubirds", "pit", "piepmatz", "souk"])
def test_the_html_page_is_well_formed_and_self_contained(name):
    rules = load(name)
    page = markdown_page(rulebook_markdown(rules), rules.title)
    assert page.startswith("<!DOCTYPE html>\n")
    root = ET.fromstring(page.split("\n", 1)[1])     # well-formed: an XML parser reads every element
    assert root.tag == "html"
    text = "".join(root.itertext())
    assert "Overview and goal" in text and "An example of play" in text
    # nothing is fetched and nothing runs: no script, no stylesheet link, no image, no frame
    for tag in ("script", "link", "img", "iframe", "object"):
        assert root.find(f".//{tag}") is None, tag
    assert "@import" not in page and "url(" not in page and " src=" not in page
    # the Markdown became HTML: no heading marks, bold marks or table pipes are left in the text
    assert "## " not in text and "**" not in text and "|---" not in text
    assert len(root.findall(".//table")) >= 1 and len(root.findall(".//li")) > 10


def test_html_lists_nest_by_indentation():
    page = markdown_page("- a\n  - b\n    - c\n- d\n\n1. one\n2. two\n", "t")
    root = ET.fromstring(page.split("\n", 1)[1])
    outer = root.find(".//ul")
    assert [li.text.strip() for li in outer.findall("li")] == ["a", "d"]
    assert outer.find("li/ul/li/ul/li").text.strip() == "c"
    assert [li.text.strip() for li in root.findall(".//ol/li")] == ["one", "two"]


def test_html_escapes_what_a_ruleset_writes():
    page = markdown_page("# A <b> & c\n\nSee https://example.org/x?a=1&b=2 and `x < y`.\n", "t<")
    assert "<title>t&lt;</title>" in page and "A &lt;b&gt; &amp; c" in page
    assert '<a href="https://example.org/x?a=1&amp;b=2">' in page and "<code>x &lt; y</code>" in page
    ET.fromstring(page.split("\n", 1)[1])


# the command -----------------------------------------------------------------------------------------------
def test_explain_prints_the_rulebook_the_detail_and_writes_html(tmp_path):
    from cli import cli
    runner = CliRunner()
    book = runner.invoke(cli, ["explain", "cubirds"])
    assert book.exit_code == 0 and "## Overview and goal" in book.output
    detail = runner.invoke(cli, ["explain", "cubirds", "--detail"])
    assert detail.exit_code == 0 and "## Zones" in detail.output and "take_while(before" in detail.output
    out = tmp_path / "rules.html"
    written = runner.invoke(cli, ["explain", "cubirds", "--html", "--out", str(out)])
    assert written.exit_code == 0 and written.output == ""
    ET.fromstring(out.read_text(encoding="utf-8").split("\n", 1)[1])
    resolved = runner.invoke(cli, ["explain", "piepmatz-three-perches", "--resolved"])
    assert resolved.exit_code == 0 and "merged from" in resolved.output
