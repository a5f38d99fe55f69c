"""The interpreter and the command line name no game: no bundled ruleset, card type or card value
appears as a word in interpreter/ or cli.py, not even in a docstring or a help text."""
from __future__ import annotations

import re

from interpreter import load
from interpreter.bundled import bundled
from helpers import ROOT

# Words of the bundled games that are also the language's own or plain English vocabulary.
GENERIC = {"action", "seed", "setup", "three", "pairs", "classic", "special", "card"}


def game_words() -> set:
    """Every word of a bundled ruleset's name, card type or text-valued card attribute."""
    words = set()
    for name in bundled():
        words |= set(re.findall(r"[a-z]+", name))
        for card in load(name).cards:
            for value in card.values():
                if isinstance(value, str):
                    words |= set(re.findall(r"[a-z_]+", value.lower()))
    return words - GENERIC


def test_game_words_are_found():
    words = game_words()
    assert len(words) > 30
    assert {"cubirds", "owl", "wheat"} <= words


def test_interpreter_and_cli_name_no_game():
    words = game_words()
    files = sorted((ROOT / "interpreter").rglob("*.py")) + sorted((ROOT / "interpreter").rglob("*.lark"))
    files.append(ROOT / "cli.py")
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for word in re.findall(r"[A-Za-z_]+", line):
                if word.lower() in words:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {word}")
    assert found == []
