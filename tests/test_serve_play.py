"""`rulebook serve` for a person at the table (no browser): the rules as a page, undo against bots (the cards the
person cannot see dealt again, stored, brought back after a restart) and the next game of a table with
several people, each taking their own seat in it."""
from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from interpreter.serve.app import create_app


def start(client, **spec):
    r = client.post("/api/tables", json=spec)
    assert r.status_code == 200, r.text
    return r.json()


def auth(t, seat: int) -> dict:
    return {"Authorization": "Bearer " + t["seats"][seat - 1]["token"]}


def choose(client, t, seat: int, index: int = 0) -> dict:
    url = f"/api/tables/{t['table']}/{seat}"
    b = client.get(url, headers=auth(t, seat)).json()
    r = client.post(url + "/choose", json={"index": index, "at": b["decision"]["at"]}, headers=auth(t, seat))
    assert r.status_code == 200, r.text
    return r.json()


def test_the_rules_of_a_game_and_of_a_ruleset_as_pages():
    client = TestClient(create_app("cubirds"))
    t = start(client, ruleset="piepmatz", players=2, agents=["human"], seed=3)
    page = client.get(f"/t/{t['table']}/rules")    # the rules are no secret: no token
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<h1>Piepmatz (Little Songbirds)</h1>" in page.text and "Overview and goal" in page.text
    assert "<script" not in page.text
    assert "<h1>Pit (Deluxe)</h1>" in client.get("/rules/pit").text
    assert client.get("/rules/nothing").status_code == 404
    assert client.get("/t/nothing/rules").status_code == 404


def test_undo_against_bots_takes_back_the_move_and_deals_again(tmp_path):
    db = tmp_path / "games.sqlite3"
    client = TestClient(create_app("cubirds", db=db))
    t = start(client, ruleset="cubirds", players=2, agents=["human", "random"], seed=659726042)
    url = f"/api/tables/{t['table']}/1"
    first = client.get(url, headers=auth(t, 1)).json()
    assert first["can_undo"] is False          # nothing chosen yet
    assert client.post(url + "/undo", headers=auth(t, 1)).status_code == 400
    b = choose(client, t, 1)
    assert b["can_undo"] is True
    hub = client.app.state.hub
    moves = len(hub.get(t["table"]).game.state.history)
    r = client.post(url + "/undo", headers=auth(t, 1))
    assert r.status_code == 200, r.text
    after = r.json()
    game = hub.get(t["table"]).game
    assert len(game.state.history) < moves and game.state.redeals
    # back at the same decision, with the same board for this person (the hidden cards dealt again)
    assert after["decision"]["options"] == first["decision"]["options"]
    assert [z["members"] for z in after["zones"]] == [z["members"] for z in first["zones"]]
    assert [s["zones"] for s in after["seats"]] == [s["zones"] for s in first["seats"]]
    # another seat's token cannot undo; an onlooker cannot
    assert client.post(url + "/undo").status_code == 403
    assert client.post(f"/api/tables/{t['table']}/watch/undo").status_code == 400
    # a restart brings the game back as it is, the new deal included
    digest_now = hub.store.load(t["table"]).digest
    again = TestClient(create_app("cubirds", db=db))
    restored = again.app.state.hub.get(t["table"]).game
    assert restored.to_json()["state"]["zones"] == game.to_json()["state"]["zones"]
    assert again.app.state.problems == [] and again.app.state.hub.store.load(t["table"]).digest == digest_now
    # and play goes on after it
    b = choose(again, t, 1)
    assert b["decision"] is not None or b["result"]


def test_undo_is_for_one_person_against_bots():
    client = TestClient(create_app("cubirds"))
    t = start(client, ruleset="pit", players=3, agents=["human", "human", "random"], seed=5)
    url = f"/api/tables/{t['table']}/1"
    assert client.get(url, headers=auth(t, 1)).json()["can_undo"] is False
    r = client.post(url + "/undo", headers=auth(t, 1))
    assert r.status_code == 400 and "one person at the table" in r.json()["error"]


def finish(client, t, humans):
    """Play a game to its end through the API, every person taking their first option."""
    for _ in range(5000):
        b = client.get(f"/api/tables/{t['table']}/1", headers=auth(t, 1)).json()
        if b.get("result"):
            return b
        for seat in humans:
            b = client.get(f"/api/tables/{t['table']}/{seat}", headers=auth(t, seat)).json()
            if b.get("decision"):
                client.post(f"/api/tables/{t['table']}/{seat}/choose", json={"index": 0, "at": b["decision"]["at"]},
                            headers=auth(t, seat))
    pytest.fail("the game did not end")


def test_the_next_game_of_a_table_with_several_people():
    client = TestClient(create_app("cubirds"))
    t = start(client, ruleset="forehead-poker", players=3, agents=["human", "human", "random"], seed=4,
              names=["Ann", "Ben"], params={"hands": 1})
    url = f"/api/tables/{t['table']}"
    r = client.post(url + "/1/rematch", headers=auth(t, 1))
    assert r.status_code == 400 and "not over" in r.json()["error"]
    end = finish(client, t, [1, 2])
    assert end["rematch"] is False
    one = client.post(url + "/1/rematch", headers=auth(t, 1)).json()
    # the other person's board now offers the next game; they take their own seat in it
    assert client.get(url + "/2", headers=auth(t, 2)).json()["rematch"] is True
    two = client.post(url + "/2/rematch", headers=auth(t, 2)).json()
    assert one["table"] == two["table"] != t["table"]
    assert one["url"].split("#")[0].endswith(f"/t/{one['table']}/1") and two["url"].split("#")[0].endswith("/2")
    token1, token2 = one["url"].split("#")[1], two["url"].split("#")[1]
    new = f"/api/tables/{one['table']}"
    b1 = client.get(new + "/1", headers={"Authorization": f"Bearer {token1}"})
    b2 = client.get(new + "/2", headers={"Authorization": f"Bearer {token2}"})
    assert b1.status_code == 200 and b2.status_code == 200
    assert b1.json()["names"][:2] == ["Ann", "Ben"] and b1.json()["agents"] == ["human", "human", "random"]
    assert client.get(new + "/1", headers={"Authorization": f"Bearer {token2}"}).status_code == 403
    # a seat's link in the next game is given once
    again = client.post(url + "/2/rematch", headers=auth(t, 2))
    assert again.status_code == 400 and "given already" in again.json()["error"]


def test_a_store_of_the_first_format_is_read_and_gains_the_redeals(tmp_path):
    import sqlite3
    db = tmp_path / "games.sqlite3"
    client = TestClient(create_app("cubirds", db=db))
    t = start(client, ruleset="cubirds", players=2, agents=["human", "random"], seed=3)
    choose(client, t, 1)
    client.app.state.hub.store.close()
    old = sqlite3.connect(db)   # as the first format left it: no redeals, version 1
    old.execute("DROP TABLE redeals")
    old.execute("PRAGMA user_version=1")
    old.commit()
    old.close()
    again = TestClient(create_app("cubirds", db=db))
    assert again.app.state.problems == []
    r = again.post(f"/api/tables/{t['table']}/1/undo", headers=auth(t, 1))
    assert r.status_code == 200, r.text
    assert again.app.state.hub.store.db.execute("PRAGMA user_version").fetchone()[0] == 2
