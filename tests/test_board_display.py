"""What the board draws from a ruleset's display hints: a family's members in use only, a variable that holds
nothing left out, a header too long for one line split, Piepmatz's board at two players."""
from __future__ import annotations

import pytest

from interpreter import Game, load, load_text
from interpreter.errors import RulesetError
from interpreter.present.board import board
from interpreter.present.screen import screen_lines

BASE = """
name: rows
players: {min: 2, max: 4}
parameters:
  used: {2: 2, 3: 3, 4: 3}
components:
  card:
    label: "c{n}"
    in: deck
    cards: [{n: 1, count: 4}]
zones:
  deck: {visibility: public}
  row: {count: 3, visibility: public}
actions:
  pass_on:
    label: pass on
    do: []
flow:
  ends: [{when: turn >= 2}]
  round: {turn: {steps: [pass_on]}}
scoring: {parts: {none: 0}}
display:
  zones:
    row: ROW
"""


def rules(row: str):
    return load_text(BASE.replace("ROW", row))


@pytest.mark.parametrize("row,players,shown", [
    ("{members: used}", 2, 2), ("{members: used}", 3, 3), ("{members: 1}", 4, 1), ("{}", 2, 3),
])
def test_a_family_draws_the_members_in_use(row, players, shown):
    b = board(Game.new(rules(row), players, seed=1), 0)
    (entry,) = [z for z in b["zones"] if z["zone"] == "row"]
    assert [m["key"] for m in entry["members"]] == [str(k) for k in range(1, shown + 1)]


@pytest.mark.parametrize("row,message", [
    ("{members: usd}", "unknown parameter 'usd'"),
    ("{members: -1}", "expected a whole number, or the name of a parameter"),
])
def test_members_mistakes(row, message):
    with pytest.raises(RulesetError) as err:
        rules(row)
    assert message in str(err.value)


def test_members_is_for_a_family():
    text = BASE.replace("ROW", "{}").replace("    row: {}", "    row: {}\n    deck: {members: 1}")
    with pytest.raises(RulesetError) as err:
        load_text(text)
    assert "members is for a family of zones" in str(err.value)


def test_piepmatz_at_two_players_shows_what_decides_and_what_is_out():
    game = Game.new(load("piepmatz"), 2, seed=3)
    b = board(game, 0)
    perches = next(z for z in b["zones"] if z["zone"] == "perch")
    assert len(perches["members"]) == 2            # the third perch is not used at 2 players
    out = {v["name"]: v["value"] for v in b["vars"]}
    gone = game.state.vars["species_out"]
    assert gone and out == {"species out": gone}
    lines = [text for _, text in screen_lines(b, 0, 100)]
    assert all(len(line) <= 100 for line in lines[:2])   # the header is split, not cut
    assert lines[1].strip().endswith(f"species out {gone}")
    three = board(Game.new(load("piepmatz"), 3, seed=3), 0)
    assert three["vars"] == [] and len(next(z for z in three["zones"] if z["zone"] == "perch")["members"]) == 2


def test_piepmatz_collections_show_value_and_sex():
    from interpreter.agents import Request, make_agent
    game = Game.new(load("piepmatz"), 2, seed=3)
    bots = [make_agent("first", seed=1), make_agent("first", seed=2)]
    while not game.is_over and game.state.turn < 40:
        game.apply(bots[game.current_player].choose(Request(game, game.current_player)))
    b = board(game, 0)
    shown = [g["label"] for s in b["seats"] for z in s["zones"] if z["zone"] == "collection"
             for m in z["members"] for g in (m.get("groups") or [])]
    # the value and the sex make the pairs: every collected bird shows both (grouped by species, it showed neither)
    birds = [label for label in shown if not label.startswith("seed")]   # seed cards are collected too
    assert birds and all(("♀" in label or "♂" in label) and any(ch.isdigit() for ch in label) for label in birds)
