"""Take the README's screenshots again: a CuBirds game in the terminal -> docs/play-terminal.png, and the same kind of
game in the browser -> docs/play-browser.png. Needs the test extra (selenium) and Debian's chromium and
chromium-driver, as the browser tests do: `python docs/screenshots.py`."""
from __future__ import annotations

import html
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from interpreter import Game, load  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SEED = 20261203
NAMES = ["Ada", "Bea", "Cy"]


def terminal(path: Path) -> None:
    """A session at the terminal, in colour (rich), drawn to HTML and photographed by headless Chromium."""
    from rich.console import Console
    from interpreter.present.screen import Screen
    from interpreter.present.terminal import Session
    rules = load("cubirds")
    console = Console(record=True, width=100, force_terminal=True, color_system="truecolor", highlight=False)
    screen = Screen(False, width=100)
    screen.console = console
    screen.clear = lambda: console.export_text(clear=True)   # a new board: the picture starts again
    answers = iter(["2", "1", "1", "1"])

    def ask(prompt: str) -> str:
        try:
            answer = next(answers)
        except StopIteration:
            raise EOFError() from None
        console.print(prompt + answer, highlight=False, markup=False)
        return answer
    game = Game.new(rules, 3, SEED)
    session = Session(rules, game, ["human", "random", "random"], SEED, {}, NAMES, screen, ask)
    session.run()
    console.print("> ", end="", highlight=False, markup=False)
    page = console.export_html(inline_styles=True, code_format=(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
        '<body style="margin:0;background:#1e1e1e;color:#e6e6e6">'
        '<pre style="margin:0;padding:8px 10px;font:14px/20px \'DejaVu Sans Mono\',monospace">'
        '<code>{code}</code></pre></body></html>'))
    shoot(page, path, 860, 500)


def shoot(page: str, path: Path, width: int, height: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "page.html"
        source.write_text(page, encoding="utf-8")
        subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={width},{height}", f"--screenshot={path}", source.as_uri()],
                       check=True, capture_output=True, timeout=60)


def browser(path: Path) -> None:
    """A seat's page in headless Chromium, served by `rulebook serve`'s app, a few moves into a game."""
    import socket
    import uvicorn
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from interpreter.serve.app import create_app
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app("cubirds")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    hub = app.state.hub
    table, tokens = hub.create(load("cubirds"), 3, ["human", "random", "random"], SEED, {}, NAMES)
    for index in (1, 0, 3, 1):   # a few moves of the person's (the bots answer each)
        d = next(d for d in table.game.decisions() if d.player == 0)
        table.choose(0, min(index, len(d.options) - 1), d.asked_at)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,800"):
        options.add_argument(flag)
    page = webdriver.Chrome(service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")
                                                            or "/usr/bin/chromedriver"), options=options)
    try:
        page.get(f"http://127.0.0.1:{port}/t/{table.id}/1#{tokens[0]}")
        for _ in range(200):
            if page.find_elements(By.CSS_SELECTOR, "#decision button.option"):
                break
            time.sleep(0.05)
        time.sleep(0.3)
        # the window as tall as the page (its frame takes some height in headless Chromium too)
        inner = page.execute_script("return window.innerHeight")
        outer = page.get_window_size()["height"]
        height = page.execute_script("return document.documentElement.scrollHeight")
        page.set_window_size(1280, height + outer - inner)
        time.sleep(0.3)
        page.save_screenshot(str(path))
    finally:
        page.quit()
        server.should_exit = True


if __name__ == "__main__":
    terminal(HERE / "play-terminal.png")
    browser(HERE / "play-browser.png")
    print("wrote", html.escape(str(HERE / "play-terminal.png")), "and", HERE / "play-browser.png")
