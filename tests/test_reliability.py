"""What once escaped the project's own errors, or let a file do more than be read: saves that name code or are
damaged, a seed the store cannot keep, a NUL byte in a YAML file, a base that is not a ruleset, escape
sequences on their way to a terminal. Each case here failed before it was mended."""
from __future__ import annotations

import copy
import json
import sys

import pytest

from helpers import ROOT
from interpreter import Game, GameError, RulesetError, load, load_text
from interpreter.extends import load_merged
from interpreter.present.text import clean

CUBIRDS = (ROOT / "rulesets" / "cubirds.yaml").read_text()


def run_cli(args, monkeypatch, capsys, stdin: str = ""):
    """`rulebook ARGS` through the real entry point, in this process: (exit code, stdout + stderr)."""
    import io
    from cli import main
    monkeypatch.setattr(sys, "argv", ["rulebook", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", "off")
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture()
def saved(tmp_path, monkeypatch, capsys):
    """A game of CuBirds saved by `quit` after one choice: the data of its file."""
    monkeypatch.chdir(tmp_path)
    code, _ = run_cli(["play", "cubirds", "--players", "2", "--agents", "human,random", "--seed", "3", "--plain"],
                      monkeypatch, capsys, "1\n1\nquit\nsave.json\n")
    assert code == 0
    return json.loads((tmp_path / "save.json").read_text())


def damaged(saved, change):
    data = copy.deepcopy(saved)
    change(data)
    return data


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(agents=["human", "evil:Bot"]), "names agent 'evil:Bot', code of your own: a saved game "
                                                       "never loads code"),
    (lambda d: d.update(seed="x"), "is damaged: 'seed' must be a whole number, not str"),
    (lambda d: d.pop("game"), "is damaged: it has no 'game'"),
    (lambda d: d.update(agents=[]), "is damaged: 'agents' must be 2 agent names, one a seat"),
    (lambda d: d.update(agents="human"), "is damaged: 'agents' must be a list, not str"),
    (lambda d: d.update(names=[1, 2]), "is damaged: 'names' must be texts"),
    (lambda d: d.update(players=3), "is damaged: 'agents' must be 3 agent names"),
    (lambda d: d["game"]["state"]["pending"].__setitem__(2, []),
     "the saved game is damaged: the decision it waits for offers no option"),
])
def test_a_damaged_or_code_naming_save_is_refused_with_the_projects_own_error(saved, change, message, tmp_path,
                                                                             monkeypatch, capsys):
    (tmp_path / "evil.py").write_text("raise SystemExit('the save ran code')\n")
    (tmp_path / "bad.json").write_text(json.dumps(damaged(saved, change)))
    code, out = run_cli(["play", "--resume", "bad.json", "--plain"], monkeypatch, capsys, "quit\nno\n")
    assert code == 1 and message in out and "Traceback" not in out and "ran code" not in out
    assert "evil" not in sys.modules


def test_a_save_nested_too_deep_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deep.json").write_text('{"format": "rulebook saved game", "game": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, out = run_cli(["play", "--resume", "deep.json"], monkeypatch, capsys)
    assert (code, out.strip()) == (1, "error: deep.json is not a saved game (its JSON nests too deep)")


def test_code_of_ones_own_named_on_the_command_line_may_play_a_saved_game(saved, tmp_path, monkeypatch, capsys):
    """What a save may not do, its player may: --agents names the agents (here the built-in ones)."""
    (tmp_path / "ok.json").write_text(json.dumps(damaged(saved, lambda d: d.update(agents=["human", "evil:Bot"]))))
    code, out = run_cli(["play", "--resume", "ok.json", "--agents", "human,random", "--plain"], monkeypatch, capsys,
                        "quit\nno\n")
    assert code == 0 and "Traceback" not in out


def test_a_save_whose_decision_has_no_options_is_refused_by_from_json():
    game = Game.new(load("cubirds"), 2, seed=1)
    data = game.to_json()
    data["state"]["pending"][2] = []
    with pytest.raises(GameError) as info:
        Game.from_json(game.rs, data)
    assert "offers no option" in str(info.value)


@pytest.mark.parametrize("seed", [1e308, -1, 2 ** 63, 1.5, "x", True, [1]])
def test_serve_refuses_a_seed_it_cannot_keep(seed, tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from interpreter.serve.app import create_app
    client = TestClient(create_app("cubirds", db=str(tmp_path / "games.sqlite3")))
    r = client.post("/api/tables", json={"ruleset": "cubirds", "players": 2, "agents": ["human", "random"],
                                         "seed": seed})
    assert r.status_code == 400, r.text
    assert "seed" in r.text


def test_serve_takes_a_seed_written_as_digits_or_a_whole_float(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from interpreter.serve.app import create_app
    client = TestClient(create_app("cubirds", db=str(tmp_path / "games.sqlite3")))
    for seed, want in (("42", 42), (7.0, 7), (2 ** 63 - 1, 2 ** 63 - 1)):
        r = client.post("/api/tables", json={"ruleset": "cubirds", "players": 2, "seed": seed})
        assert r.status_code == 200 and r.json()["seed"] == want


@pytest.mark.parametrize("through_extends", [False, True])
def test_a_nul_byte_in_a_yaml_file_is_told_at_its_place(tmp_path, through_extends):
    (tmp_path / "nul.yaml").write_text("name: x\x00\nplayers: {min: 2, max: 2}\n")
    (tmp_path / "variant.yaml").write_text("extends: nul.yaml\nname: y\n")
    with pytest.raises(RulesetError) as info:
        load_merged(tmp_path / ("variant.yaml" if through_extends else "nul.yaml"))
    d = info.value.diagnostics[0]
    assert (d.location.file.endswith("nul.yaml"), d.location.line, d.location.col) == (True, 1, 8)
    assert d.message == "the file holds a NUL (U+0000), which YAML does not allow"


def test_a_base_that_is_not_a_ruleset_file_is_not_read_nor_quoted(tmp_path):
    (tmp_path / "secret.txt").write_text("the secret line\n")
    (tmp_path / "variant.yaml").write_text("extends: ./secret.txt\nname: y\n")
    with pytest.raises(RulesetError) as info:
        load_merged(tmp_path / "variant.yaml")
    text = info.value.render()
    assert "secret line" not in text
    assert "'./secret.txt' is not a ruleset file: a base is a bundled name or a .yaml file" in text


ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"


def test_texts_reach_the_terminal_without_what_would_steer_it(tmp_path, monkeypatch, capsys):
    text = CUBIRDS.replace("title: CuBirds", 'title: "Cu\\e]0;pwned\\aBirds\\e[2J"').replace(
        'label: "{species}"', 'label: "{species}\\e[31m"')
    assert text != CUBIRDS
    (tmp_path / "esc.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    outs = []
    for args, stdin in ((["transcript", "esc.yaml", "--players", "2", "--seed", "1"], ""),
                        (["play", "esc.yaml", "--players", "2", "--agents", "human,random", "--names",
                          "Ada" + ESCAPES + ",Bo", "--plain"], "quit\nno\n"),
                        (["explain", "esc.yaml"], "")):
        code, out = run_cli(args, monkeypatch, capsys, stdin)
        assert code == 0, out
        outs.append(out)
    assert all(clean(out) == out for out in outs)
    assert "CuBirds" in outs[2] and "Ada" in outs[1]


@pytest.mark.parametrize("text, want", [
    ("plain", "plain"), ("a\tb\nc", "a\tb\nc"), ("\x1b[2Jcleared", "[2Jcleared"), ("bell\x07", "bell"),
    ("c1\x9b", "c1"), ("\u202eevil", "evil"), ("ümlaut ×2 →", "ümlaut ×2 →"),
])
def test_clean_keeps_text_and_drops_what_steers_a_terminal(text, want):
    assert clean(text) == want


# what a mutated ruleset used to pass `validate` with, and fail in the middle of a game: caught when it loads

@pytest.mark.parametrize("old, new, message", [
    # a parameter's values are known: a list where a number is added
    ("  draw_option: 2 ", "  draw_option: [2] ", "'+' needs numbers, but this is a list"),
    # a list and a number never add up
    ("  - shuffle: deck\n", "  - shuffle: deck\n  - let: {n: '[1, 2] + 3'}\n", "'+' needs numbers, but this is a list"),
    # an end of a zone given by a parameter that may be no end
    ("              at: 'side if refill_end == \"laid\" else refill_end'", "              at: refill_end",
     "parameter 'refill_end' may be 'laid', which names no end of a zone"),
    # who chooses, who is next: players, not true/false or a text or cards
    ("  first_player: random(players)", "  first_player: 'true'", "this names players"),
    ("  first_player: random(players)", "  first_player: first(deck)", "this names players"),
    # what a choice's argument is chosen from is a list
    ("      r: range(count(row))", "      r: 3", "'r' is chosen from a list of values, but this is a number"),
    ("      r: range(count(row))", "      r: 'count(row) > 1'",
     "'r' is chosen from a list of values, but this is true/false"),
])
def test_a_mistake_known_when_the_ruleset_loads_is_refused_there(old, new, message):
    assert old in CUBIRDS
    text = CUBIRDS.replace(old, new, 1)
    if "draw_option: [2]" in new:
        text = text.replace("count(me.hand)", "count(me.hand) + draw_option", 1)
    with pytest.raises(RulesetError) as info:
        load_text(text, "mistake.yaml")
    assert message in str(info.value)
