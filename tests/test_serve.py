"""`rulebook serve`'s app without a browser: tables, seats, choices, websockets, and payloads that never leak."""
from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from helpers import may_see_card
from interpreter.serve.app import create_app


@pytest.fixture()
def client():
    return TestClient(create_app("cubirds"))


def start(client, **spec):
    r = client.post("/api/tables", json=spec)
    assert r.status_code == 200, r.text
    return r.json()


def auth(t, seat: int) -> dict:
    """The header that carries seat `seat`'s token (seats from 1)."""
    return {"Authorization": "Bearer " + t["seats"][seat - 1]["token"]}


def ws_url(t, seat: int) -> str:
    return f"/ws/{t['table']}/{seat}?token={t['seats'][seat - 1]['token']}"


def test_the_lobby_lists_the_named_ruleset_first(client):
    names = [r["name"] for r in client.get("/api/rulesets").json()]
    assert names[0] == "cubirds" and "pit" in names
    assert "Start a game" in client.get("/").text
    assert "play.js" in client.get("/t/x/1").text


def test_a_game_against_bots_is_played_by_seat(client):
    t = start(client, ruleset="cubirds", players=3, agents=["human", "first"], seed=4)
    assert [s["agent"] for s in t["seats"]] == ["human", "first", "random"]
    url = f"/api/tables/{t['table']}/1"
    b = client.get(url, headers=auth(t, 1)).json()
    while not b.get("result"):
        assert b["decision"] is not None and b["decision"]["now"]
        r = client.post(url + "/choose", json={"index": 0, "at": b["decision"]["at"]}, headers=auth(t, 1))
        assert r.status_code == 200, r.text
        b = r.json()
    assert b["result"]["winners"] and b["result"]["parts"] == ["birds"]


def test_a_seat_takes_a_built_in_bot_with_its_settings(client):
    """mcts, and settings after a bot's name, as on the command line; the bot answers a person's move."""
    t = start(client, ruleset="piepmatz", players=2, agents=["human", " mcts:iterations=5 "], seed=2)
    assert [s["agent"] for s in t["seats"]] == ["human", "mcts:iterations=5"]
    url = f"/api/tables/{t['table']}/1"
    b = client.get(url, headers=auth(t, 1)).json()
    for _ in range(3):
        r = client.post(url + "/choose", json={"index": 0, "at": b["decision"]["at"]}, headers=auth(t, 1))
        assert r.status_code == 200, r.text
        b = r.json()
        assert b["decision"] is not None and b["decision"]["now"]   # the bot answered: the person is asked again
    assert b["agents"] == ["human", "mcts:iterations=5"]


@pytest.mark.parametrize("path,body,status,message", [
    ("/api/tables", {"ruleset": "nope"}, 400, "unknown ruleset 'nope'"),
    ("/api/tables", {"ruleset": "pit", "players": 2}, 400, "pit is for 3 to 8 players, not 2"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "genius"]}, 400, "agent 'genius': unknown agent 'genius'"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "mcts:iter=5"]}, 400,
     "agent 'mcts:iter=5': agent 'mcts' has no setting 'iter'"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "os:System"]}, 400,
     "agent 'os:System': a seat is human or a built-in bot"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "human:x=1"]}, 400, "agent 'human' has no setting 'x'"),
    ("/api/tables", {"ruleset": "pit", "params": {"targt": 5}}, 400, "targt"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "mcts:iterations=1000000"]}, 400,
     "agent 'mcts:iterations=1000000': a bot at this server looks ahead at most 2000 times"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "mcts:iterations=0:time=60"]}, 400,
     "(mcts's iterations, greedy's trials x worlds), 100000 decisions played (mcts's steps, 0 is no limit) and 2 "
     "seconds per decision"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "mcts:steps=0"]}, 400, "100000 decisions played"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "mcts:steps=200000"]}, 400, "100000 decisions played"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "greedy:trials=100:worlds=100"]}, 400,
     "at most 2000 times"),
    ("/api/tables", {"ruleset": "pit", "agents": ["human", "mcts:iterations=0"]}, 400, "needs a time"),
])
def test_bad_requests_say_why(client, path, body, status, message):
    r = client.post(path, json=body)
    assert r.status_code == status and message in r.json()["error"]


def test_a_bot_seat_and_a_missing_table_are_refused(client):
    t = start(client, ruleset="cubirds", players=2, agents=["human", "random"], seed=1)
    r = client.post(f"/api/tables/{t['table']}/2/choose", json={"index": 0, "at": 0}, headers=auth(t, 1))
    assert r.status_code == 403 and r.json()["error"] == "P2 is played by a bot: nobody sees its seat or acts for it"
    at = client.get(f"/api/tables/{t['table']}/1", headers=auth(t, 1)).json()["decision"]["at"]
    r = client.post(f"/api/tables/{t['table']}/1/choose", json={"index": 999, "at": at}, headers=auth(t, 1))
    assert r.status_code == 400 and "option 999 does not exist" in r.json()["error"]
    assert client.get("/api/tables/nothing/1").status_code == 404
    assert client.get(f"/api/tables/{t['table']}/7").json()["error"] == "no seat '7' at this table"


def test_simultaneous_choices_from_two_seats_over_websockets(client):
    """Pit: both people choose in the same market step, each from their own socket; choices given ahead
    of one's turn wait for it."""
    t = start(client, ruleset="pit", players=3, agents=["human", "human", "greedy"], seed=2)
    with client.websocket_connect(ws_url(t, 1)) as one, client.websocket_connect(ws_url(t, 2)) as two:
        b1, b2 = json.loads(one.receive_text())["board"], json.loads(two.receive_text())["board"]
        assert b1["decision"] and b2["decision"]
        turn = b1["turn"]
        later = b2 if not b2["decision"]["now"] else b1
        ws_later = two if later is b2 else one
        ws_later.send_text(json.dumps({"choose": len(later["decision"]["options"]) - 1,    # pass, ahead
                                       "at": later["decision"]["at"]}))
        assert json.loads(ws_later.receive_text())["board"]["chosen"] == "pass"
        first = one if ws_later is two else two
        first.receive_text()     # the other page hears of the change too
        now = b1 if later is b2 else b2
        first.send_text(json.dumps({"choose": len(now["decision"]["options"]) - 1, "at": now["decision"]["at"]}))
        after = json.loads(first.receive_text())["board"]
        assert after["turn"] > turn


def test_payloads_hold_only_what_their_seat_may_see(client):
    """Every board sent to a Pit seat: its own hand by commodity, the others' as counts; and no card
    label that only others hold."""
    t = start(client, ruleset="pit", players=4, agents=["human", "human"], seed=3)
    table = client.app.state.hub.get(t["table"])
    game = table.game
    for seat in (0, 1):
        b = client.get(f"/api/tables/{t['table']}/{seat + 1}", headers=auth(t, seat + 1)).json()
        for s in b["seats"]:
            hand = next(z for z in s["zones"] if z["zone"] == "hand")["members"][0]
            if s["you"]:
                assert sum(g["count"] for g in hand["groups"]) == 9
            else:
                assert hand["groups"] is None and hand["cards"] is None and hand["count"] == 9
        mine = {game.rs.card_labels[c] for c in game.rs.card_values if may_see_card(game, seat, c)}
        others = {game.rs.card_labels[c] for c in game.rs.card_values if not may_see_card(game, seat, c)} - mine
        text = json.dumps(b)
        assert not [label for label in others if f'"{label}' in text or f" {label}" in text]
