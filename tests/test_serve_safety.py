"""`rulebook serve` keeps seats private and survives bad input: seat tokens, onlookers, malformed, stale,
repeated and misdirected choices, and requests that fail half-way."""
from __future__ import annotations

import base64
import json
import random
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient, WebSocketDenialResponse

from helpers import may_see_card, shipped_rulesets
from interpreter import Game, load
from interpreter.errors import GameError
from interpreter.serve import hub as hub_module
from interpreter.serve.app import MAX_BODY, MAX_MESSAGE, create_app


@pytest.fixture()
def client():
    return TestClient(create_app("cubirds"))


def start(client, **spec) -> dict:
    r = client.post("/api/tables", json=spec)
    assert r.status_code == 200, r.text
    return r.json()


def token(t, seat: int) -> str:
    return t["seats"][seat - 1]["token"]


def bearer(value: str) -> dict:
    return {"Authorization": "Bearer " + value}


def board(client, t, seat: int) -> dict:
    r = client.get(f"/api/tables/{t['table']}/{seat}", headers=bearer(token(t, seat)))
    assert r.status_code == 200, r.text
    return r.json()


def history(client, t) -> list:
    return list(client.app.state.hub.get(t["table"]).game.state.history)


def pit(client, seed=2):
    return start(client, ruleset="pit", players=3, agents=["human", "human", "first"], seed=seed)


# seat tokens ------------------------------------------------------------------------------------

def test_tokens_are_unguessable_distinct_and_listed_nowhere(client):
    tables = [pit(client, seed) for seed in range(3)]
    tokens = [s["token"] for t in tables for s in t["seats"] if "token" in s]
    assert len(tokens) == 6 == len(set(tokens))
    for tok in tokens:
        assert len(base64.urlsafe_b64decode(tok + "=" * (-len(tok) % 4))) * 8 >= 128
    # everything anyone may fetch without a token, and what each seat is sent, holds no token
    t = tables[0]
    texts = [client.get(u).text for u in ("/", "/api/tables", "/api/rulesets", f"/api/tables/{t['table']}/watch",
                                          f"/t/{t['table']}/1", "/static/play.js", "/static/lobby.js")]
    texts += [json.dumps(board(client, t, seat)) for seat in (1, 2)]
    assert [tok for tok in tokens for text in texts if tok in text] == []
    # the lobby lists the games, with their seats, and no way into a seat
    listed = client.get("/api/tables").json()
    assert {row["table"] for row in listed} == {t["table"] for t in tables}
    assert all(set(row) == {"table", "ruleset", "players", "params", "agents", "names", "moves", "over", "updated",
                             "watch"}
               for row in listed)
    # the store keeps hashes, not tokens
    hub = client.app.state.hub
    dump = "\n".join(hub.store.db.iterdump())
    assert [tok for tok in tokens if tok in dump] == []


@pytest.mark.parametrize("how", ["none", "empty", "short", "long", "other seat", "one character off",
                                 "other table", "query"])
def test_a_seat_without_its_token_gets_403_and_nothing_of_it(client, how):
    t, other = pit(client, 2), pit(client, 3)
    good = token(t, 1)
    given = {"none": None, "empty": "", "short": "x", "long": "nope" * 10, "other seat": token(t, 2),
             "one character off": good[:-1] + ("A" if good[-1] != "A" else "B"),
             "other table": token(other, 1), "query": None}[how]
    headers = bearer(given) if given is not None else {}
    url, query = f"/api/tables/{t['table']}/1", ""
    if how == "query":
        query = "?token=" + token(t, 2)
    before = history(client, t)
    mine = board(client, t, 1)
    r = client.get(url + query, headers=headers)
    assert r.status_code == 403
    assert r.json() == {"error": "this link does not give seat P1: its token is missing or wrong"}
    r = client.post(url + "/choose" + query, json={"index": 0, "at": mine["decision"]["at"]}, headers=headers)
    assert r.status_code == 403 and history(client, t) == before
    ws = f"/ws/{t['table']}/1" + (f"?token={given}" if given is not None else "")
    if how == "query":
        ws += "?token=" + token(t, 2)
    with pytest.raises(WebSocketDenialResponse) as denied:
        with client.websocket_connect(ws):
            pass
    assert denied.value.status_code == 403 and "token is missing or wrong" in denied.value.json()["error"]


def test_the_right_token_opens_the_seat_by_header_or_query(client):
    t = pit(client)
    by_header = board(client, t, 2)
    by_query = client.get(f"/api/tables/{t['table']}/2?token={token(t, 2)}").json()
    assert by_header == by_query and by_header["seat"] == "P2" and by_header["decision"]


def test_tokens_are_compared_in_constant_time(client, monkeypatch):
    t = pit(client)
    calls = []
    real = hub_module.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)
    monkeypatch.setattr(hub_module.hmac, "compare_digest", spy)
    assert client.get(f"/api/tables/{t['table']}/1", headers=bearer("wrong")).status_code == 403
    assert client.get(f"/api/tables/{t['table']}/1", headers=bearer(token(t, 1))).status_code == 200
    assert len(calls) == 2 and all(len(a) == len(b) == 64 for a, b in calls)


# onlookers --------------------------------------------------------------------------------------

def shown_cards(value) -> set:
    """Every card id an ids=True view shows: in card lists, as a top card, as a known card."""
    out = set()
    if isinstance(value, list):
        for x in value:
            if type(x) is int:
                out.add(x)
            elif isinstance(x, dict) and "card" in x:
                out.add(x["card"])
            else:
                out |= shown_cards(x)
    elif isinstance(value, dict):
        for k, x in value.items():
            if k != "backs":
                out |= shown_cards(x)
    return out


@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.stem)
def test_an_onlooker_sees_only_what_every_player_sees(path):
    """Game.view(None): every card it shows, every player may see; no private variable; at every step of
    seeded games (a card on a forehead is seen by the others but not by its owner: not by onlookers)."""
    rules = load(str(path))
    checked, seed = 0, 0
    while checked < 100:
        seed += 1
        game = Game.new(rules, rules.max_players, seed=seed)
        rng = random.Random(seed)
        for _ in range(120):
            view = game.view(None, ids=True)
            assert view["player"] is None
            cards = shown_cards(view["zones"])
            assert [c for c in cards if not all(may_see_card(game, p, c) for p in range(game.state.n))] == []
            for name, values in view["player_vars"].items():
                if game.rs.var_specs.get(name) and game.rs.var_specs[name].visible != "public":
                    assert all(v == {"hidden": True} for v in values.values())
            checked += 1
            if game.is_over:
                break
            game.apply(rng.randrange(game.option_count()))
    assert checked >= 100


def test_the_watch_link_shows_no_hand_and_cannot_choose(client):
    t = start(client, ruleset="pit", players=4, agents=["human", "human"], seed=3)
    game = client.app.state.hub.get(t["table"]).game
    b = client.get(f"/api/tables/{t['table']}/watch").json()
    assert b["seat"] is None and b["decision"] is None
    text = json.dumps(b)
    private = {game.rs.card_labels[c] for c in game.rs.card_values
               if not all(may_see_card(game, p, c) for p in range(4))}
    assert private and [label for label in private if f'"{label}' in text or f" {label}" in text] == []
    r = client.post(f"/api/tables/{t['table']}/watch/choose", json={"index": 0, "at": 0})
    assert r.status_code == 400 and r.json()["error"] == "an onlooker cannot choose"
    with client.websocket_connect(f"/ws/{t['table']}/watch") as ws:
        assert json.loads(ws.receive_text())["board"]["seat"] is None
        ws.send_text(json.dumps({"choose": 0, "at": 0}))
        assert json.loads(ws.receive_text())["error"] == "an onlooker cannot choose"


# bad input --------------------------------------------------------------------------------------

USAGE = 'a message is JSON: {"choose": option number, "at": the decision\'s "at"}'


def bad_messages(at: int, options: int) -> list:
    """(message, the error it gets): none of them may change the game."""
    return [
        ("hello", USAGE),
        ("", USAGE),
        ("[0, 1]", USAGE),
        ("null", USAGE),
        ('{"at": 0}', USAGE),
        ("{" * 600, USAGE),
        ("x" * (MAX_MESSAGE + 1), f"a message is at most {MAX_MESSAGE} bytes"),
        (json.dumps({"choose": 0, "at": at, "pad": "é" * MAX_MESSAGE}), f"a message is at most {MAX_MESSAGE} bytes"),
        (b"\x00\x01", "messages are text: " + USAGE),
        (json.dumps({"choose": 0}), "a choice names the decision it answers: the 'at' of the board's decision"),
        (json.dumps({"choose": 0, "at": str(at)}), "a choice names the decision it answers"),
        (json.dumps({"choose": 0, "at": True}), "a choice names the decision it answers"),
        (json.dumps({"choose": 0, "at": at + 1}),
         f"that choice answers decision {at + 1}, but decision {at} is the one open"),
        (json.dumps({"choose": 0, "at": at - 1}), f"that choice answers decision {at - 1}, but decision {at}"),
        (json.dumps({"choose": options, "at": at}), f"option {options} does not exist: choose 0 to {options - 1}"),
        (json.dumps({"choose": -1, "at": at}), "option -1 does not exist"),
        (json.dumps({"choose": 1.0, "at": at}), "option 1.0 does not exist"),
        (json.dumps({"choose": True, "at": at}), "option True does not exist"),
        (json.dumps({"choose": "0", "at": at}), "option '0' does not exist"),
        (json.dumps({"choose": None, "at": at}), "option None does not exist"),
        (json.dumps({"choose": 10 ** 40, "at": at}), "does not exist"),
        ('{"choose": NaN, "at": %d}' % at, "option nan does not exist"),
        ('{"choose": 0, "at": Infinity}', "a choice names the decision it answers"),
    ]


def test_bad_messages_are_refused_with_a_message_and_change_nothing(client):
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=5)
    before = history(client, t)
    with client.websocket_connect(f"/ws/{t['table']}/1?token={token(t, 1)}") as ws:
        b = json.loads(ws.receive_text())["board"]
        at, n = b["decision"]["at"], len(b["decision"]["options"])
        assert at == len(before)   # a decision is numbered by the choices made before it
        for message, error in bad_messages(at, n):
            if isinstance(message, bytes):
                ws.send_bytes(message)
            else:
                ws.send_text(message)
            answer = json.loads(ws.receive_text())
            assert error in answer["error"], (message[:40], answer["error"])
            assert history(client, t) == before
        # and the seat still plays: a good choice is taken once
        ws.send_text(json.dumps({"choose": 0, "at": at}))
        answer = json.loads(ws.receive_text())
        assert "error" not in answer and answer["reply"] == at
    after = history(client, t)
    assert after[:len(before) + 1] == before + [0]


@pytest.mark.parametrize("body,status,error", [
    (b"x" * (MAX_BODY + 1), 413, f"the request is larger than {MAX_BODY} bytes"),
    (b"not json", 400, "the request is not JSON"),
    (b"\xff\xfe{", 400, "the request is not JSON"),
    (b"[1]", 400, "the request is not a JSON object"),
    (b'{"index": 0}', 400, "a choice names the decision it answers: the 'at' of the board's decision"),
    (b'{"index": "0", "at": AT}', 400, "option '0' does not exist: choose 0 to"),
    (b'{"index": 0, "at": AT1}', 400, "that choice answers decision AT1, but decision AT is the one open"),
])
def test_bad_http_choices_are_refused_and_change_nothing(client, body, status, error):
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=5)
    at = board(client, t, 1)["decision"]["at"]
    before = history(client, t)
    fill = {b"AT1": str(at + 1).encode(), b"AT": str(at).encode()}
    for k, v in fill.items():
        body = body.replace(k, v)
    r = client.post(f"/api/tables/{t['table']}/1/choose", content=body, headers=bearer(token(t, 1)))
    assert r.status_code == status and r.json()["error"].startswith(
        error.replace("AT1", str(at + 1)).replace("AT", str(at)))
    assert history(client, t) == before


def test_a_choice_sent_twice_is_taken_once(client):
    """Both copies are sent before either is answered; the second answers a decision already taken."""
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=6)
    with client.websocket_connect(f"/ws/{t['table']}/1?token={token(t, 1)}") as ws:
        b = json.loads(ws.receive_text())["board"]
        at = b["decision"]["at"]
        moves = len(history(client, t))
        message = json.dumps({"choose": 0, "at": at})
        ws.send_text(message)
        ws.send_text(message)
        first, second = json.loads(ws.receive_text()), json.loads(ws.receive_text())
        assert "error" not in first and first["reply"] == at
        assert second["reply"] == at and (f"that choice answers decision {at}, but decision" in second["error"]
                                          or second["error"] == "P1 has nothing to choose now")
    # every request that is taken counts once: one was
    assert second["board"]["version"] == first["board"]["version"] == 1
    assert history(client, t)[moves] == 0


def test_a_simultaneous_choice_given_ahead_is_not_taken_twice(client):
    t = pit(client, seed=2)
    ones = [board(client, t, s) for s in (1, 2)]
    later = next(s for s, b in zip((1, 2), ones) if not b["decision"]["now"])
    d = ones[later - 1]["decision"]
    url = f"/api/tables/{t['table']}/{later}/choose"
    spec = {"index": len(d["options"]) - 1, "at": d["at"]}
    r = client.post(url, json=spec, headers=bearer(token(t, later)))
    assert r.status_code == 200 and r.json()["chosen"] == "pass"
    r = client.post(url, json=spec, headers=bearer(token(t, later)))
    assert r.status_code == 400 and r.json()["error"] == f"P{later} has chosen already (pass): waiting for the others"


def test_a_seat_cannot_choose_for_another(client):
    t = pit(client, seed=2)
    b2 = board(client, t, 2)
    before = history(client, t)
    # P1's token on P2's seat: refused; P1's socket cannot name another seat
    r = client.post(f"/api/tables/{t['table']}/2/choose", json={"index": 0, "at": b2["decision"]["at"]},
                    headers=bearer(token(t, 1)))
    assert r.status_code == 403 and history(client, t) == before
    with client.websocket_connect(f"/ws/{t['table']}/1?token={token(t, 1)}") as ws:
        json.loads(ws.receive_text())
        ws.send_text(json.dumps({"choose": 0, "at": b2["decision"]["at"], "seat": 2, "player": "P2"}))
        answer = json.loads(ws.receive_text())
    assert answer["board"]["seat"] == "P1"
    assert client.app.state.hub.get(t["table"]).ahead.get(1) is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=80), st.binary(max_size=40),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                              lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                                  st.sampled_from(["choose", "at", "seat", "x"]), inner, max_size=4),
                              max_leaves=12).map(json.dumps)))
def test_no_message_crashes_a_socket_or_changes_the_game_unless_it_is_a_legal_choice(message):
    client = TestClient(create_app("cubirds"))
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=7)
    with client.websocket_connect(f"/ws/{t['table']}/1?token={token(t, 1)}") as ws:
        b = json.loads(ws.receive_text())["board"]
        before = history(client, t)
        ws.send_bytes(message) if isinstance(message, bytes) else ws.send_text(message)
        answer = json.loads(ws.receive_text())
        try:
            spec = json.loads(message)
        except (ValueError, UnicodeDecodeError):
            spec = None
        legal = (isinstance(message, str) and isinstance(spec, dict) and type(spec.get("choose")) is int
                 and type(spec.get("at")) is int and spec["at"] == b["decision"]["at"]
                 and 0 <= spec["choose"] < len(b["decision"]["options"]) and len(message.encode()) <= MAX_MESSAGE)
        if legal:
            assert "error" not in answer and history(client, t)[len(before)] == spec["choose"]
        else:
            assert answer["error"] and history(client, t) == before
        # the socket still answers
        ws.send_text("ping")
        assert json.loads(ws.receive_text())["error"] == USAGE


# requests that fail half-way change nothing ---------------------------------------------------

def stored_choices(client, t) -> list:
    return client.app.state.hub.store.load(t["table"]).choices


def test_a_failing_bot_move_or_store_leaves_the_game_as_it_was(client, monkeypatch):
    """The rules' work budget (or any GameError) in a bot's move after a person's choice, or a store that
    cannot write: the request is refused with a message and the game, the table and the store are as before."""
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=8)
    table = client.app.state.hub.get(t["table"])
    url = f"/api/tables/{t['table']}/1/choose"

    def over_budget(request):
        raise GameError("a step of the rules did more work than allowed", "budget")
    monkeypatch.setattr(table.bots[1], "choose", over_budget)
    for _ in range(100):    # P1 plays until its turn ends and the bot has to move
        spec = {"index": 0, "at": board(client, t, 1)["decision"]["at"]}
        before, version = list(table.game.state.history), table.version
        r = client.post(url, json=spec, headers=bearer(token(t, 1)))
        if r.status_code != 200:
            break
    assert r.status_code == 400 and r.json()["error"] == "a step of the rules did more work than allowed"
    assert table.game.state.history == before and table.version == version and stored_choices(client, t) == before
    assert board(client, t, 1)["decision"]["at"] == spec["at"]
    monkeypatch.undo()

    def broken_disk(*args):
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(table.store, "save", broken_disk)
    r = client.post(url, json=spec, headers=bearer(token(t, 1)))
    assert r.status_code == 400
    assert r.json()["error"] == "the game could not be stored (disk I/O error): the choice was not taken"
    assert table.game.state.history == before and table.version == version and stored_choices(client, t) == before
    monkeypatch.undo()
    r = client.post(url, json=spec, headers=bearer(token(t, 1)))
    assert r.status_code == 200 and stored_choices(client, t) == table.game.state.history != before


def test_a_request_whose_bots_run_too_long_is_stopped_and_changes_nothing(client, monkeypatch):
    """However long the rules let bots play, one request stops after MAX_REQUEST_SECONDS: refused, nothing kept."""
    t = start(client, ruleset="cubirds", players=2, agents=["human", "first"], seed=9)
    table = client.app.state.hub.get(t["table"])
    monkeypatch.setattr(hub_module, "MAX_REQUEST_SECONDS", -1.0)
    why = "the bots played for more than -1 seconds without a person choosing: the request was stopped and changed nothing"
    r = client.post("/api/tables", json={"ruleset": "cubirds", "players": 2, "agents": ["first", "random"], "seed": 1})
    assert r.status_code == 400 and r.json() == {"error": why}
    assert [g["table"] for g in client.get("/api/tables").json()] == [t["table"]]
    before, version = list(table.game.state.history), table.version
    spec = {"index": 0, "at": board(client, t, 1)["decision"]["at"]}
    r = client.post(f"/api/tables/{t['table']}/1/choose", json=spec, headers=bearer(token(t, 1)))
    assert r.status_code == 400 and r.json() == {"error": why}
    assert table.game.state.history == before and table.version == version and stored_choices(client, t) == before
    monkeypatch.undo()
    r = client.post(f"/api/tables/{t['table']}/1/choose", json=spec, headers=bearer(token(t, 1)))
    assert r.status_code == 200 and table.game.state.history[:len(before) + 1] == before + [0]
