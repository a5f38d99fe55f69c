"""docs/agents.md stays true: its worked user agent is run as written (the module, and the commands that
play it), and the JSON shape it gives for tournaments names the keys a tournament prints."""
from __future__ import annotations

import json
import re

from helpers import ROOT
from test_agents import run_here, user_module

DOC = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")


def block_after(heading: str, lang: str) -> str:
    """The first fenced block of `lang` after a heading."""
    at = DOC.index("\n" + heading + "\n")
    m = re.compile(r"^```" + lang + r"\n(.*?)^```$", re.S | re.M).search(DOC, at)
    assert m, f"no ```{lang} block after {heading!r}"
    return m.group(1)


def test_the_worked_agent_plays_by_the_commands_the_doc_gives(tmp_path, capsys, monkeypatch):
    user_module(tmp_path, monkeypatch, "my_agents", block_after("## Your own agent", "python"))
    commands = [line.split() for line in block_after("## Your own agent", "sh").splitlines() if line.strip()]
    assert [c[:2] for c in commands] == [["rulebook", "simulate"], ["rulebook", "tournament"]]
    for command in commands:
        code, out, err = run_here(command[1:], capsys, monkeypatch)
        assert code == 0, err
        assert "my_agents:Keen" in out
    # what the doc says it does: the first option whose label holds the word, else one at random
    import my_agents
    keen = my_agents.Keen(seed=3, word="fly")
    assert keen.choose({}, ["draw", "fly a flock of 3 x", "fly a flock of 2 y"]) == 1
    assert {keen.choose({}, ["a", "b", "c"]) for _ in range(40)} == {0, 1, 2}


def test_the_tournament_json_has_the_keys_the_doc_lists(capsys, monkeypatch):
    shape = block_after("## Tournaments", "text")
    listed = set(re.findall(r'"(\w+)"', shape))
    code, out, _ = run_here(["tournament", "cubirds", "--agents", "random,first", "--games", "2", "--json"],
                            capsys, monkeypatch)
    assert code == 0
    s = json.loads(out)
    found = set(s) | set(s["agents"]["random"]) | set(s["seats"]["P1"]) | set(s["pairwise"][0])
    assert listed - {"P1"} == found   # the seats ("P1", "P2") are named by example


def test_the_worked_agent_plays_from_python_as_it_is(tmp_path, monkeypatch):
    # an instance of the documented class goes straight into agents.play (it failed with a TypeError there)
    from interpreter import Game, load
    from interpreter.agents import RandomAgent, play
    from interpreter.errors import GameError
    import importlib
    user_module(tmp_path, monkeypatch, "my_agents_py", block_after("## Your own agent", "python"))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("my_agents_py")
    game = Game.new(load("cubirds"), 2, seed=1)
    result = play(game, [module.Keen(seed=1), RandomAgent(2)])
    assert result["winners"] and game.is_over

    class Broken:
        def choose(self, view, options):
            raise KeyError("oops")
    fresh = Game.new(load("cubirds"), 2, seed=1)
    try:
        play(fresh, [Broken(), RandomAgent(2)])
    except GameError as exc:
        assert "agent 'Broken' failed: KeyError: 'oops'" in str(exc)
    else:
        raise AssertionError("a failing agent of one's own should stop the game with a GameError")
    try:
        play(Game.new(load("cubirds"), 2, seed=1), [object(), RandomAgent(2)])
    except GameError as exc:
        assert "is not an agent: it has no choose(view, options) method" in str(exc)
    else:
        raise AssertionError("an object without choose should be refused")
