"""An error of a ruleset's own text, raised while a game runs, is told at its place: the message starts with
the file, line and column, the error keeps that place (`GameError.location`), and the command line shows the
line and a caret under it, as it shows a load error's; with several worker processes too."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import ROOT
from interpreter import Game, GameError, load_text

HEAD = """\
players: {min: 2, max: 2}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {each: {colour: [red, blue], value: [1, 2, 3]}}
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
  pile: {visibility: public}
variables:
  zero: 0
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
"""   # the cards, zones and setup of the rulesets below (each a template of its actions)

RULESET = """\
name: faults
actions:
  play:
    args: {{c: me.hand}}
    label: "{label}"
    do:
      - {effect}
flow:
  round:
    turn:
      steps:
        - {{name: go, actions: [play]}}
"""

# (the faulty part, the label, the effect, the text at the place told: the error's line and column are where
# that text starts in the ruleset)
CASES = [
    ("an expression of an effect", "play {c}", "set: {zero: 'count(me.hand) / zero'}", "set: {zero"),
    ("a loop past the budget", "play {c}", "for_each: i\n        in: range(10000)\n        do:\n          - set: {zero: 0}\n"
     "          - while: zero < 500\n            max: 1000\n            do: [{add: {zero: 1}}]", "while: zero < 500"),
    ("a label", "play {c} ({1 / zero})", "set: {zero: 0}", "play {c} ({1"),
]


def place(text: str, token: str) -> tuple[int, int]:
    """The line and column (from 1) where `token` starts in `text` (once only)."""
    assert text.count(token) == 1
    before = text[:text.index(token)]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def faulty(label: str, effect: str) -> str:
    return HEAD + RULESET.format(label=label, effect=effect)


@pytest.mark.parametrize("what,label,effect,token", CASES, ids=[c[0] for c in CASES])
def test_an_error_keeps_its_place_and_shows_the_line_and_a_caret(what, label, effect, token):
    text = faulty(label, effect)
    line, col = place(text, token)
    game = Game.new(load_text(text, "faults.yaml"), 2, seed=1)
    with pytest.raises(GameError) as info:
        game.legal_options()   # the labels
        game.apply(0)
    exc = info.value
    assert str(exc).startswith(f"faults.yaml:{line}:{col}: ")
    assert (exc.location.file, exc.location.line, exc.location.col) == ("faults.yaml", line, col)
    message, shown, caret = exc.render().split("\n")
    assert message == str(exc)
    assert shown == "    " + text.splitlines()[line - 1]
    assert caret == " " * (4 + col - 1) + "^"
    assert shown[len(caret) - 1:].startswith(token)   # the caret under the part that failed


def test_an_error_without_a_place_renders_as_its_message():
    exc = GameError("the game is over: there is nothing to choose")
    assert exc.location is None and exc.render() == str(exc)


def run(*args):
    proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def shown(tmp_path) -> str:
    """What the command line shows of the first case's error: the message, the line, the caret."""
    line, col = place(faulty(*CASES[0][1:3]), CASES[0][3])
    return (f"{tmp_path / 'faults.yaml'}:{line}:{col}: ruleset error in 'set': division by zero\n"
            f"          - set: {{zero: 'count(me.hand) / zero'}}\n"
            f"            ^\n")


def test_play_shows_the_line_and_the_caret(tmp_path):
    path = tmp_path / "faults.yaml"
    path.write_text(faulty(*CASES[0][1:3]))
    code, _, err = run("play", str(path), "--agents", "random,random", "--seed", "1")
    assert code == 1
    assert err == "error: " + shown(tmp_path)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_stops_at_a_failed_game_with_its_seed_line_and_caret(tmp_path, jobs):
    """With worker processes, the parent stops them: none prints a traceback, and the run ends (a worker
    that kept the command line's handler of SIGTERM raised there, and could leave the parent waiting)."""
    path = tmp_path / "faults.yaml"
    path.write_text(faulty(*CASES[0][1:3]))
    code, _, err = run("simulate", str(path), "--games", "6", "--jobs", jobs)
    assert code == 1
    assert "Traceback" not in err
    assert err == "error: faults, game seed 0: " + shown(tmp_path)


# An error while a decision's options are listed: told at the expression that raised it (an action's `when`
# or `if`, an argument's list, a choose's), not at the step; the same by the VM and by generated code.

LISTED = """\
name: listed
actions:
  keep:
    when: {when}
    args: {{c: {domain}}}
    if: {cond}
  give:
    args: {{c: me.hand}}
    if: count(me.hand) > 0
    do:
      - choose:
          args: {{d: {inner}}}
          do: [{{move: {{cards: '[d]', from: me.hand, to: pile}}}}]
flow:
  round:
    turn:
      steps:
        - {{name: go, actions: [keep, give]}}
"""

FINE = {"when": "count(me.hand) > 0", "domain": "me.hand", "cond": "count(me.hand where value > 1) >= 0",
        "inner": "me.hand"}

# (the expression that fails, where it is written)
LISTED_CASES = [
    ("when", "count(me.hand) > 1 / zero"),
    ("domain", "'me.hand where value / zero > 0'"),
    ("cond", "count(me.hand where value / zero > 1) >= 0"),   # a part that reads no argument: computed once
    ("cond", "c.value / zero > 0"),                           # read per option
    ("inner", "'me.hand where value / zero > 0'"),
]


def without_after(rules):
    for node in rules.nodes:
        node.after = None
    return rules


@pytest.mark.parametrize("where,expr", LISTED_CASES, ids=[f"{w}: {e}" for w, e in LISTED_CASES])
@pytest.mark.parametrize("ways", ["generated", "vm"])
def test_an_error_while_listing_options_is_told_at_its_expression(where, expr, ways):
    text = HEAD + LISTED.format(**{**FINE, where: expr})
    line, col = place(text, expr.strip("'"))
    told = []
    for seed in range(6):
        rules = load_text(text, "listed.yaml")
        if ways == "vm":
            without_after(rules)
        try:
            game = Game.new(rules, 2, seed=seed)
            while game.state.pending is not None:
                give = [i for i, (a, _) in enumerate(game.state.pending[2]) if a == 1]
                game.apply(give[0] if give else 0)
        except GameError as exc:
            told.append(exc)
    assert told, "no game met the error"
    for exc in told:
        assert (exc.location.line, exc.location.col) == (line, col), str(exc)
        assert "division by zero" in str(exc)


def test_the_browser_is_told_the_line_and_the_caret_and_nothing_changes(tmp_path):
    """`rulebook serve`: a choice the ruleset's text fails on is refused as the ruleset's fault, with the line and
    the caret under the message (`source`), over HTTP and over the websocket; the game is as it was."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.serve.app import create_app
    path = tmp_path / "faults.yaml"
    path.write_text(faulty(*CASES[0][1:3]))
    message, line, caret = shown(tmp_path).splitlines()
    client = TestClient(create_app(str(path)))
    r = client.post("/api/tables", json={"ruleset": "faults", "players": 2, "agents": ["human", "first"], "seed": 1})
    assert r.status_code == 200, r.text
    t = r.json()
    url = f"/api/tables/{t['table']}/1"
    headers = {"Authorization": "Bearer " + t["seats"][0]["token"]}
    before = client.get(url, headers=headers).json()
    at = before["decision"]["at"]
    expected = {"error": "the ruleset cannot play this choice; nothing changed: " + message,
                "source": line + "\n" + caret}
    r = client.post(url + "/choose", json={"index": 0, "at": at}, headers=headers)
    assert r.status_code == 400 and r.json() == expected
    with client.websocket_connect(f"/ws/{t['table']}/1?token={t['seats'][0]['token']}") as ws:
        assert json.loads(ws.receive_text())["board"] == before
        ws.send_text(json.dumps({"choose": 0, "at": at}))
        answer = json.loads(ws.receive_text())
    assert {k: answer[k] for k in expected} == expected and answer["board"] == before
    assert client.get(url, headers=headers).json() == before
    # a refusal that is the player's own: its words alone, as before
    r = client.post(url + "/choose", json={"index": 99, "at": at}, headers=headers)
    assert r.json() == {"error": f"option 99 does not exist: choose 0 to {len(before['decision']['options']) - 1}"}


def test_a_table_whose_setup_fails_is_refused_with_the_line_and_caret(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.serve.app import create_app
    text = faulty(*CASES[0][1:3]).replace("count: 3}", "count: '3 / zero'}")
    line, col = place(text, "deal: {from")
    path = tmp_path / "faults.yaml"
    path.write_text(text)
    client = TestClient(create_app(str(path)))
    r = client.post("/api/tables", json={"ruleset": "faults", "players": 2, "agents": ["human", "first"]})
    assert r.status_code == 400
    assert r.json() == {
        "error": f"the ruleset cannot start this game; nothing changed: {path}:{line}:{col}: ruleset error in 'deal': "
                 "division by zero",
        "source": "    " + text.splitlines()[line - 1] + "\n" + " " * (4 + col - 1) + "^"}
    assert client.get("/api/tables").json() == []


TWO = """\
name: two
actions:
  keep:
    args: {{c: '{first}', k: '{domain}'}}
    if: '{cond}'
flow:
  round:
    turn:
      steps:
        - {{name: go, actions: [keep]}}
"""

# (the first argument's list, the second's, the condition, the one of them that fails): independent lists and
# a list that reads the first argument, their combinations written a part a line. The cases marked * were told
# at the step before (a line of several parts: the step's).
TWO_CASES = [
    ("me.hand", "range(1, 3)", "k / zero > 0", "cond"),                           # *
    ("me.hand", "range(c.value, 3)", "k / zero > 0", "cond"),                     # *
    ("me.hand", "range(c.value / zero, 3)", "k > 0", "domain"),                   # *
    ("me.hand where value / zero > 0", "range(c.value, 3)", "k > 0", "first"),    # *
    ("me.hand", "range(1, 3)", "c.value / zero > k", "cond"),     # a part computed once per card, on its own line
    ("me.hand", "range(1, 3 / zero)", "k > 0", "domain"),         # a list computed once, on its own line
]


@pytest.mark.parametrize("first,domain,cond,failing", TWO_CASES,
                         ids=[f"{f}, {d} if {c}" for f, d, c, _ in TWO_CASES])
def test_an_error_in_the_combinations_of_two_arguments_is_told_at_its_part(first, domain, cond, failing):
    text = HEAD + TWO.format(first=first, domain=domain, cond=cond)
    line, col = place(text, {"first": first, "domain": domain, "cond": cond}[failing])
    with pytest.raises(GameError) as info:
        Game.new(load_text(text, "two.yaml"), 2, seed=1)
    assert (info.value.location.line, info.value.location.col) == (line, col), str(info.value)
    assert "division by zero" in str(info.value)


def test_a_board_the_ruleset_cannot_show_is_told_over_http_and_the_websocket(tmp_path):
    """A label that fails: the seat's board cannot be made. The page is told why, with the line and caret, when
    it connects (it used to get a traceback and a closed socket); nothing else at the table fails."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.serve.app import create_app
    what, label, effect, token = CASES[2]
    text = faulty(label, effect)
    line, col = place(text, token)
    path = tmp_path / "faults.yaml"
    path.write_text(text)
    client = TestClient(create_app(str(path)))
    t = client.post("/api/tables", json={"ruleset": "faults", "players": 2, "agents": ["human", "human"],
                                         "seed": 1}).json()
    expected = {"error": f"the ruleset cannot show this game: {path}:{line}:{col}: ruleset error in the text "
                         "'play {c} ({1 / zero})': division by zero",
                "source": "    " + text.splitlines()[line - 1] + "\n" + " " * (4 + col - 1) + "^"}
    r = client.get(f"/api/tables/{t['table']}/1", headers={"Authorization": "Bearer " + t["seats"][0]["token"]})
    assert r.status_code == 400 and r.json() == expected
    with client.websocket_connect(f"/ws/{t['table']}/1?token={t['seats'][0]['token']}") as ws:
        assert json.loads(ws.receive_text()) == expected
        ws.send_text(json.dumps({"choose": 0, "at": 0}))   # the decision's labels fail: refused, told why
        answer = json.loads(ws.receive_text())
    assert answer["error"].startswith("the ruleset cannot play this choice; nothing changed: ") and "board" not in answer
    assert client.get("/api/tables").json()[0]["moves"] == 0
