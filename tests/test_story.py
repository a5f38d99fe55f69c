"""The story people read (present/narrate.py, present/log.py, present/screen.py): told in the order the rules tell
it, rows refilled told, what a pass passed, its reader called 'you' and never by seat, zones as people call
them, and a 'Last:' that keeps the move that ended a round (issue 31, item 5)."""
from __future__ import annotations

import random
import re

import pytest

from interpreter import Game, load
from interpreter.present.board import board
from interpreter.present.log import lines as log_lines
from interpreter.present.narrate import personal, story
from interpreter.present.prompt import Prompt
from interpreter.present.screen import fitted, screen_lines


def played(name: str, players: int, seed: int, choices: int) -> Game:
    game = Game.new(load(name), players, seed)
    rng = random.Random(seed)
    for _ in range(choices):
        if game.is_over:
            break
        game.apply(rng.randrange(game.option_count()))
    return game


@pytest.mark.parametrize("seed", range(1, 6))
def test_birds_are_laid_before_the_surrounded_ones_are_taken(seed):
    game = played("cubirds", 2, seed, 120)
    told = story(game, 0)
    checked = 0
    for i, line in enumerate(told):
        found = re.match(r"(?:you|P\d) (?:take|takes) \d+ birds? from (row \d)", line)
        if found:
            # the line before the taking is the laying, into the same row
            assert re.match(rf"(?:you|P\d) (?:put|puts) \d+ birds? from (?:your|their) hand in {found.group(1)}:",
                            told[i - 1]), told[i - 1: i + 1]
            checked += 1
    assert checked > 0


def test_rows_refilled_from_the_deck_are_told_and_the_setup_is_not():
    game = played("cubirds", 2, 3, 200)
    told = story(game, 0)
    refills = [line for line in told if re.match(r"\d+ birds? go(?:es)? from the deck to row \d: ", line)]
    assert refills, "no refill told"
    first_turn = next(i for i, line in enumerate(told) if line.startswith("turn "))
    assert not any(re.match(r"\d+ birds? go(?:es)? from", line) for line in told[:first_turn])
    # every card that went from the deck to a row after the first choice is in one of those lines
    g, rs = game.state, game.rs
    deck = rs.zone_slot("deck", 2)
    rows = {rs.zone_slot("row", 2, index=i) for i in range(4)}
    started = next(i for i, r in enumerate(g.log) if type(r) is tuple and r[0] == "choice")
    moved = sum(len(e[5]) for e in g.events if e[0] == "move" and e[3] == deck and e[4] in rows and e[1] > started)
    told_cards = sum(int(line.split(" ", 1)[0]) for line in refills)
    assert told_cards == moved


def test_a_pass_says_what_was_passed():
    said = log_lines(played("cubirds", 2, 1, 60))
    passes = [line for line in said if re.search(r": pass\b", line)]
    assert passes and all(re.search(r": pass \((draw|fly a flock)\)$", line) for line in passes), passes[:3]
    piepmatz = "\n".join(log_lines(played("piepmatz", 2, 1, 200)))
    assert "pass (you may add a bird from your hand to your collection)" in piepmatz


@pytest.mark.parametrize("name,players", [("cubirds", 2), ("pit", 3), ("forehead-poker", 3), ("souk", 2)])
def test_a_story_calls_its_reader_you_never_by_seat(name, players):
    game = played(name, players, 2, 80)
    for seat in range(players):
        told = story(game, seat)
        assert any(re.search(r"\byou\b", line) for line in told)
        mine = f"P{seat + 1}"
        assert not [line for line in told if re.search(rf"\b{mine}\b", line)], mine


@pytest.mark.parametrize("line,expected", [
    ("P1 corners the market in barley", "you corner the market in barley"),
    ("round 2: P1 starts", "round 2: you start"),
    ("P3 was too late for P1's offer of 2", "P3 was too late for your offer of 2"),
    ("P1 was too late for P3's offer of 2", "you were too late for P3's offer of 2"),
    ("P1 and P3 trade 2 cards", "you and P3 trade 2 cards"),
    ("turn 4 P1: pass (draw)", "turn 4 you: pass (draw)"),
    ("P2 backed P1 and receives 2", "P2 backed you and receives 2"),
    ("P1 passes", "you pass"),
    ("P1 has no lantern left: +10", "you have no lantern left: +10"),
    ("P1 carries 2", "you carry 2"),
    ("P12 wins", "P12 wins"),
    ("P2 sees P2's crown", "P2 sees P2's crown"),
])
def test_the_reader_in_a_line_of_the_log(line, expected):
    assert personal(line, 0) == expected


def test_zones_are_called_as_people_say_them():
    told = "\n".join(line for line in story(played("piepmatz", 2, 3, 60), 0)
                     if not line.startswith("turn "))   # the narrated lines (a choice's label is the ruleset's)
    assert "the queue at perch 1" in told and "seed position" in told and "the face-up birds" in told
    assert "feeder card" in told
    for internal in ("ground ", "seeds ", "the display", " 1 feeder:", " feeder from", "feeders "):
        assert internal not in told, internal


def test_last_keeps_the_move_that_ended_a_round():
    lines = ["turn 20 P2: lay 1 robin in row 2 on the left", "P2 puts 1 bird from their hand in row 2: robin",
             "P2 takes 2 birds from row 2 into their hand: owl, duck", "round 1 ends: a hand is empty",
             "8 cards dealt to each player; yours: a, b", "round 2: P2 starts",
             "turn 21 P2: lay 2 owl in row 1 on the right", "P2 puts 2 birds from their hand in row 1: owl ×2"]
    kept, left_out = fitted(lines, 4)
    assert kept == ["turn 20 P2: lay 1 robin in row 2 on the left", "round 1 ends: a hand is empty",
                    "round 2: P2 starts", "turn 21 P2: lay 2 owl in row 1 on the right"]
    assert left_out == 4
    assert fitted(lines, 20) == (lines, 0)
    # on the screen: the lines kept, and how to read the rest
    b = board(Game.new(load("cubirds"), 2, 1), 0)
    b["story"] = lines
    shown = [text for _, text in screen_lines(b, 5)]
    assert " Last: turn 20 P2: lay 1 robin in row 2 on the left" in shown
    assert "       (and 4 more lines: type 'log')" in shown


def test_log_shows_the_whole_story_since_your_last_move():
    said = []
    answers = iter(["log", "1"])
    prompt = Prompt(lambda _: next(answers), said.append, story=lambda: ["turn 3 P2: draw 2 cards", "round 1 ends"])
    decision = {"prompt": "draw", "options": [{"label": "draw 2 cards", "parts": ["draw 2 cards"]},
                                              {"label": "pass", "parts": ["pass"]}]}
    assert prompt.choose(decision) == 0
    assert " What happened since your last move:" in said and "  turn 3 P2: draw 2 cards" in said
