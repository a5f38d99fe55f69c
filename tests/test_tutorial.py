"""docs/authoring.md: its files are the ones shown, and every command in it does what it says."""
from __future__ import annotations

import re

import pytest

from click.testing import CliRunner

from interpreter import Game, IllegalChoice, load
from interpreter.simulate import simulate
from cli import cli
from helpers import ROOT, place

DOC = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
GAME = ROOT / "docs" / "tutorial" / "harvest.yaml"
SCENARIO = ROOT / "docs" / "tutorial" / "harvest-bank.yaml"


def blocks(kind):
    return re.findall(rf"```{kind}\n(.*?)```", DOC, re.S)


def test_the_doc_shows_the_files_exactly():
    assert blocks("yaml") == [GAME.read_text(encoding="utf-8"), SCENARIO.read_text(encoding="utf-8")]


def test_the_game_validates_without_warnings():
    result = CliRunner().invoke(cli, ["validate", str(GAME)])
    assert result.exit_code == 0 and result.output.strip() == f"{GAME}: ok"
    assert load(str(GAME)).warnings == []


def test_the_typo_example_is_what_validate_prints(tmp_path):
    typo = tmp_path / "harvest.yaml"
    typo.write_text(GAME.read_text().replace("args: {card: market}", "args: {card: markt}"))
    result = CliRunner().invoke(cli, ["validate", str(typo)])
    shown = blocks("text")[0]
    assert result.output.replace(str(typo), "docs/tutorial/harvest.yaml").startswith(shown)


def test_the_scenario_passes():
    result = CliRunner().invoke(cli, ["test", str(SCENARIO)])
    assert result.exit_code == 0
    assert result.output == "PASS Harvest: bank two plums, then a third for the bonus\n1 passed, 0 failed\n"


def test_the_refusal_quoted_in_the_doc():
    game = Game.new(load(str(GAME)), 2, seed=1)
    place(game, "hand", ["plum 3", "plum 4", "apple 1"], owner=game.current_player)
    game.reconsider()
    with pytest.raises(IllegalChoice) as info:
        game.apply("bank your apples")
    message = str(info.value)
    quoted = ("bank: `count(me.hand where kind == fruit) >= set_size` is false "
              "(count(me.hand where kind == fruit) = 1, set_size = 2)")
    assert quoted in message
    assert quoted.replace("\n", " ") in " ".join(DOC.split())


def test_every_game_ends_and_none_stalls():
    rules = load(str(GAME))
    for players in (2, 3, 4):
        stats = simulate(rules, 100, players, ["random"], seed=0)
        assert stats["stalled"] == 0
        assert list(stats["end_reasons"]) == ["the market is empty"]
