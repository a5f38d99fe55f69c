"""Play in a real browser (headless Chromium driven by Selenium): a whole CuBirds game against bots, a Pit hand
with two people in two pages, and a page that never shows another seat's cards."""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
import urllib.request
from contextlib import contextmanager

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)) and not os.environ.get("CI"):
    pytest.skip("headless Chromium is not installed here (apt-get install chromium chromium-driver)",
                allow_module_level=True)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(ruleset: str):
    """`rulebook serve RULESET` on a free port, in a thread: (its address, the app)."""
    import uvicorn
    from interpreter.serve.app import create_app
    port = free_port()
    app = create_app(ruleset)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        srv.should_exit = True
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def server():
    with serving("cubirds") as served:
        yield served


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)


@pytest.fixture()
def pages():
    opened = []

    def open_page(url):
        b = browser()
        opened.append(b)
        b.get(url)
        return b
    yield open_page
    for b in opened:
        b.quit()


def start(base, spec) -> dict:
    req = urllib.request.Request(base + "/api/tables", data=json.dumps(spec).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def wait(fn, timeout=30.0):  # generous: shared CI machines can be slow
    end = time.time() + timeout
    while time.time() < end:
        value = fn()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the page did not get there in time")


def version(page) -> int:
    return int(page.find_element(By.TAG_NAME, "body").get_attribute("data-version") or -1)


def test_a_whole_cubirds_game_against_bots(server, pages):
    base, _ = server
    table = start(base, {"ruleset": "cubirds", "players": 2, "agents": ["human", "first"], "seed": 11})
    page = pages(table["seats"][0]["url"])
    wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option"))
    assert page.find_element(By.ID, "title").text == "CuBirds"
    clicks = 0
    enabled = "#decision button.option:enabled"
    while not page.find_element(By.ID, "result").is_displayed():
        buttons = wait(lambda: page.find_elements(By.CSS_SELECTOR, enabled)
                       or page.find_element(By.ID, "result").is_displayed())
        if buttons is True:
            break
        before = version(page)
        try:
            steps = "step" in buttons[0].get_attribute("class")
            buttons[0].click()
        except StaleElementReferenceException:   # redrawn meanwhile: look again
            continue
        clicks += 1
        # a choice sent disables the buttons until the next board; a part chosen (steps) redraws them at once
        wait(lambda: version(page) != before or page.find_elements(By.CSS_SELECTOR, enabled)
             or page.find_element(By.ID, "result").is_displayed())
        if not steps:
            assert version(page) != before or page.find_element(By.ID, "result").is_displayed()
        assert clicks < 2000
    result = page.find_element(By.ID, "result").text
    winners = server[1].state.hub.get(table["table"]).game.result["winners"]
    # told to the person as their result, not as "Winner: P1"
    assert "Game over" in result and ("You win!" if winners == [0] else "P2 wins.") in result
    assert "Winner" not in result and "\nyou " in result
    assert page.find_element(By.CSS_SELECTOR, "#result a.lobby-link").get_attribute("href").endswith("/")
    # the box closes, to look at the board, and comes back
    page.find_element(By.CSS_SELECTOR, "#result button.close").click()
    wait(lambda: not page.find_element(By.ID, "result").is_displayed())
    page.find_element(By.ID, "show-result").click()
    wait(lambda: page.find_element(By.ID, "result").is_displayed())
    assert page.find_elements(By.CSS_SELECTOR, "#story li")
    # every kind of bird its own colour (a hash of the word gave two kinds one colour)
    hues = page.execute_script("""const seen = {};
        document.querySelectorAll('.card').forEach((t) => {
          seen[t.dataset.card.split(' ')[0]] = t.style.getPropertyValue('--h'); });
        return seen;""")
    assert len(hues) >= 3 and len(set(hues.values())) == len(hues)
    # play again: a new table like this one (same ruleset, seats and bots), opened at this person's seat
    before = page.current_url
    page.find_element(By.CSS_SELECTOR, "#result button.rematch").click()
    wait(lambda: page.current_url.split("#")[0] != before.split("#")[0])
    wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option"))
    assert page.find_element(By.ID, "title").text == "CuBirds"
    new_table = page.current_url.split("/t/")[1].split("/")[0]
    game = server[1].state.hub.get(new_table).game
    assert new_table != table["table"] and game.state.n == 2 and not game.is_over


def test_a_pit_hand_with_two_people_in_two_pages(server, pages):
    base, app = server
    table = start(base, {"ruleset": "pit", "players": 4, "agents": ["human", "human", "first", "first"],
                         "seed": 5, "params": {"corner_size": 3}})
    one, two = pages(table["seats"][0]["url"]), pages(table["seats"][1]["url"])
    for page in (one, two):
        wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option"))
        # the market step is everyone's at once: the header says so and every seat is outlined, not one
        status = page.find_element(By.ID, "status").text
        assert "everyone chooses at once" in status and "to play" not in status
        assert len(page.find_elements(By.CSS_SELECTOR, ".seat.turn")) == 4
    game = app.state.hub.get(table["table"]).game
    rules = game.rs
    from helpers import may_see_card
    for seat, page in ((0, one), (1, two)):
        # the other person's hand is a face-down count: no card tile in its row
        other = f"P{2 - seat}"
        row = page.find_element(By.CSS_SELECTOR, f'.seat[data-seat="{other}"] .row[data-zone="hand"]')
        assert row.find_elements(By.CSS_SELECTOR, ".card") == [] and "9 cards" in row.text
        # and no commodity this seat cannot see anywhere (those out of play, in the box) is on the page
        mine = {rules.card_labels[c] for c in rules.card_values if may_see_card(game, seat, c)}
        unseen = {rules.card_labels[c] for c in rules.card_values if not may_see_card(game, seat, c)} - mine
        text = page.find_element(By.TAG_NAME, "body").text
        assert unseen and not [label for label in unseen if re.search(rf"\b{label}\b", text)]
    # both ring the bell in the same market step, each from their own page
    # (found and clicked in one script: the other page's choice may redraw the buttons meanwhile)
    click_corner = """const b = [...document.querySelectorAll('#decision button.option')]
                          .find((x) => x.textContent.includes('corner'));
                      if (b) { b.click(); return b.textContent; } return null;"""
    for page in (one, two):
        assert wait(lambda: page.execute_script(click_corner)), page.find_element(By.ID, "decision").text
    for page in (one, two):
        # told to each as their reader: "you corner the market" to whoever did, "P2 corners ..." to the other
        wait(lambda: re.search(r"(you corner|P[12] corners) the market", page.find_element(By.ID, "story").text))
        wait(lambda: "round 2" in page.find_element(By.ID, "status").text)
    # whoever cornered scored: the live score on both pages says so
    for page in (one, two):
        assert re.search(r"score [1-9]", page.find_element(By.ID, "seats").text)


def test_the_lobby_gives_back_the_seats_this_browser_opened(server, pages):
    base, _ = server
    table = start(base, {"ruleset": "cubirds", "players": 2, "agents": ["human", "random"], "seed": 4})
    url = table["seats"][0]["url"]
    page = pages(url)
    wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option"))
    # the link was shown once, in the lobby that started the game; closed, it comes back from the lobby
    page.get(base + "/")
    # the lobby links the rules of the game chosen
    assert wait(lambda: page.find_element(By.ID, "rules-link").get_attribute("href") or "").endswith("/rules/cubirds")
    links = wait(lambda: page.find_elements(By.CSS_SELECTOR, "#mine a.mylink"))
    mine = [a for a in links if a.get_attribute("href") == url]
    assert mine and mine[0].text == "CuBirds: your seat P1"
    mine[0].click()
    page.switch_to.window(page.window_handles[-1])
    wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option"))
    # another browser (another person) has no seat of this game to get back
    other = pages(base + "/")
    wait(lambda: other.find_elements(By.CSS_SELECTOR, "#games li"))
    assert other.find_elements(By.CSS_SELECTOR, "#mine a.mylink") == []


def test_the_rules_beside_the_table_and_undo_against_bots(server, pages):
    base, app = server
    table = start(base, {"ruleset": "cubirds", "players": 2, "agents": ["human", "random"], "seed": 659726042})
    page = pages(table["seats"][0]["url"])
    wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option"))
    # the rules: a panel beside the board with the rulebook of this game
    assert not page.find_element(By.ID, "rules").is_displayed()
    page.find_element(By.ID, "rules-button").click()
    wait(lambda: page.find_element(By.ID, "rules").is_displayed())
    page.switch_to.frame(page.find_element(By.ID, "rules-frame"))
    wait(lambda: "Overview and goal" in page.find_element(By.TAG_NAME, "body").text)
    assert page.find_element(By.TAG_NAME, "h1").text == "CuBirds"
    page.switch_to.default_content()
    page.find_element(By.ID, "rules-close").click()
    wait(lambda: not page.find_element(By.ID, "rules").is_displayed())
    # no undo before a move; a move (the lay in its steps), the bot's turn, then undo
    assert page.find_elements(By.CSS_SELECTOR, "#decision button.undo") == []
    first = page.find_element(By.ID, "seats").text
    game = app.state.hub.get(table["table"])
    while not page.find_elements(By.CSS_SELECTOR, "#decision button.undo"):
        buttons = wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option:enabled"))
        try:
            buttons[0].click()
        except StaleElementReferenceException:
            continue
        time.sleep(0.05)
    moves = len(game.game.state.history)
    before = version(page)
    page.find_element(By.CSS_SELECTOR, "#decision button.undo").click()
    wait(lambda: version(page) > before)
    assert len(game.game.state.history) < moves and game.game.state.redeals
    # the board is the one before the move (the cards this person cannot see are dealt again)
    wait(lambda: page.find_element(By.ID, "seats").text == first)
    assert page.find_elements(By.CSS_SELECTOR, "#decision button.undo") == []


def test_the_next_game_with_two_people_in_two_pages(server, pages):
    base, app = server
    table = start(base, {"ruleset": "forehead-poker", "players": 3, "agents": ["human", "human", "random"],
                         "seed": 4, "names": ["Ann", "Ben"], "params": {"hands": 1}})
    hub = app.state.hub
    t = hub.get(table["table"])
    while not t.game.is_over:   # played to its end by the tables' own API (the choosing is not what is tested)
        for seat in (0, 1):
            d = next((d for d in t.game.decisions() if d.player == seat), None)
            if d is not None and seat not in t.ahead:
                t.choose(seat, 0, d.asked_at)
    one, two = pages(table["seats"][0]["url"]), pages(table["seats"][1]["url"])
    for page in (one, two):
        wait(lambda: page.find_element(By.ID, "result").is_displayed())
        assert page.find_element(By.CSS_SELECTOR, "#result button.rematch").text == "Play again"
    one.find_element(By.CSS_SELECTOR, "#result button.rematch").click()
    wait(lambda: "/t/" + table["table"] not in one.current_url)
    # the other page is told: its button joins the game the first person started
    wait(lambda: two.find_element(By.CSS_SELECTOR, "#result button.rematch").text == "Join the next game")
    two.find_element(By.CSS_SELECTOR, "#result button.rematch").click()
    wait(lambda: "/t/" + table["table"] not in two.current_url)
    new_one, new_two = (p.current_url.split("/t/")[1].split("#")[0].split("/") for p in (one, two))
    assert new_one[0] == new_two[0] and (new_one[1], new_two[1]) == ("1", "2")
    for page in (one, two):
        wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option")
             or "Waiting" in page.find_element(By.ID, "decision").text)
        assert "Forehead Poker" in page.find_element(By.ID, "title").text


def test_a_choice_the_ruleset_fails_on_shows_its_line_and_caret(tmp_path, pages):
    """The ruleset's fault, told as the terminal tells it: the message, then its line with a caret under the
    column in a block of fixed-width text; the decision stays open."""
    from test_error_places import CASES, faulty, shown
    path = tmp_path / "faults.yaml"
    path.write_text(faulty(*CASES[0][1:3]))
    message, line, caret = shown(tmp_path).splitlines()
    with serving(str(path)) as (base, _):
        table = start(base, {"ruleset": "faults", "players": 2, "agents": ["human", "first"], "seed": 1})
        page = pages(table["seats"][0]["url"])
        wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option:enabled"))[0].click()
        box = wait(lambda: page.find_elements(By.CSS_SELECTOR, "#error pre"))[0]
        assert box.get_attribute("textContent") == line + "\n" + caret
        assert page.find_element(By.ID, "error").text.startswith(
            "the ruleset cannot play this choice; nothing changed: " + message)
        assert page.execute_script("return getComputedStyle(document.querySelector('#error pre')).whiteSpace") == "pre"
        wait(lambda: page.find_elements(By.CSS_SELECTOR, "#decision button.option:enabled"))
