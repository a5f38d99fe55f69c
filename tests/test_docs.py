"""Keep docs/language.md honest: every effect, function and key is documented, and the examples work.

Conventions of the document that these tests rely on:
- the toy game is the first ```yaml block after the heading "## 1. A ruleset at a glance";
- the lines added to it for the examples are the first ```yaml block after "### Extra lines used by the examples";
- a fenced block preceded by the line `<!-- doc-test: skip -->` is not run (wrong-on-purpose YAML, quotes);
- every other ```yaml block is run: a list of effects is appended to the toy game's setup, a map of
  top-level sections is merged into the toy game (maps merge by key, lists replace) and played;
- tables with the header `| Expression | Value |` are evaluated in the position described in section 8.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import yaml

from interpreter import Game, load_text
from interpreter.compiler import ruleset as ruleset_module
from interpreter.effects import EFFECTS
from interpreter.expr.functions import FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent
DOC_PATH = ROOT / "docs" / "language.md"
DOC = DOC_PATH.read_text(encoding="utf-8")

TOY_HEADING = "## 1. A ruleset at a glance"
EXTRA_HEADING = "### Extra lines used by the examples"
SKIP_MARK = "<!-- doc-test: skip -->"
MAX_DECISIONS = 5000


# reading the markdown -----------------------------------------------------------------------

def fenced_blocks(text: str):
    """Every fenced code block: (language, code, start offset, skipped?)."""
    out = []
    for m in re.finditer(r"^```(\w*)[ \t]*\n(.*?)^```[ \t]*$", text, re.S | re.M):
        before = text[:m.start()].rstrip("\n").splitlines()
        skipped = bool(before) and before[-1].strip() == SKIP_MARK
        out.append((m.group(1), m.group(2), m.start(), skipped))
    return out


BLOCKS = fenced_blocks(DOC)


def first_yaml_after(heading: str) -> tuple[str, int]:
    at = DOC.find("\n" + heading + "\n")
    assert at >= 0, f"the heading {heading!r} is missing from docs/language.md"
    for lang, code, start, _ in BLOCKS:
        if start > at and lang == "yaml":
            return code, start
    raise AssertionError(f"no ```yaml block after {heading!r}")


def prose() -> str:
    """The document without its fenced blocks (so that ``` fences do not pair with inline backticks)."""
    return re.sub(r"^```.*?^```[ \t]*$", "", DOC, flags=re.S | re.M)


def code_spans() -> set[str]:
    return {m.group(1).strip() for m in re.finditer(r"`([^`\n]+)`", prose())}


def headings() -> list[str]:
    return [line for line in prose().splitlines() if line.startswith("#")]


def documented(name: str) -> bool:
    """The name is in backticks (alone, or as `name(...)` / `name: ...`), or is a word of a heading."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    for span in code_spans():
        if span == name or re.match(rf"{re.escape(name)}\s*[(:]", span):
            return True
    return any(word.search(h) for h in headings())


# (a) effects and functions ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_every_effect_is_documented(name):
    assert documented(name), f"effect '{name}' is not documented in docs/language.md"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_is_documented(name):
    assert documented(name), f"function '{name}' is not documented in docs/language.md"


def test_every_function_has_an_example():
    """Each function appears in at least one checked example (an expression table or a yaml block)."""
    examples = " ".join(text for text, _ in EXPRESSION_ROWS)
    examples += " ".join(code for lang, code, _, _ in BLOCKS if lang == "yaml")
    missing = [f for f in FUNCTIONS if not re.search(rf"(?<![A-Za-z0-9_.]){f}\(", examples)]
    assert not missing, f"functions without an example: {missing}"


# (b) keys -----------------------------------------------------------------------------------

KEY_CONSTANTS = {
    ruleset_module: ["TOP_KEYS", "ZONE_KEYS", "ACTION_KEYS", "STEP_KEYS", "FLOW_KEYS", "ROUND_KEYS",
                     "TURN_KEYS", "END_KEYS", "SCORING_KEYS", "COMPONENT_KEYS", "PLAYERS_KEYS",
                     "LIMITS_KEYS", "PROCEDURE_KEYS", "PARAMETER_KEYS"],
}
REQUIRED_CONSTANTS = {"TOP_KEYS", "ZONE_KEYS", "ACTION_KEYS", "STEP_KEYS", "FLOW_KEYS", "ROUND_KEYS", "TURN_KEYS",
                      "END_KEYS", "SCORING_KEYS", "COMPONENT_KEYS"}


def key_cases():
    for module, names in KEY_CONSTANTS.items():
        for const in names:
            keys = getattr(module, const, None)
            if keys is None:
                assert const not in REQUIRED_CONSTANTS, f"{module.__name__}.{const} is gone"
                continue
            for key in sorted(keys):
                yield pytest.param(const, key, id=f"{const}-{key}")
    for name, effect in sorted(EFFECTS.items()):
        for key in list(effect.beside) + list(effect.fields or ()):   # the keys beside it, and its fields
            yield pytest.param(f"EFFECTS[{name}]", key, id=f"{name}-{key}")


@pytest.mark.parametrize("const,key", list(key_cases()))
def test_every_key_is_in_backticks(const, key):
    assert documented(key), f"key '{key}' ({const}) is not documented in backticks in docs/language.md"


def test_end_words_are_documented():
    from interpreter.runtime.effects import BACK_WORDS, FRONT_WORDS
    text = prose()
    for word in sorted(FRONT_WORDS | BACK_WORDS):
        assert f"`{word}`" in text, f"the end word '{word}' of move's take/at is not documented"


def test_visibilities_are_documented():
    from interpreter.engine.view import VISIBILITIES
    for v in VISIBILITIES:
        assert documented(v), f"visibility '{v}' is not documented"


# (c) the toy game ---------------------------------------------------------------------------

def toy_text() -> str:
    return first_yaml_after(TOY_HEADING)[0]


def merge(base, over):
    """Maps merge by key; anything else replaces."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base[k], v) if k in base else v
        return out
    return over


def toy_data() -> dict:
    return yaml.safe_load(toy_text())


def example_data() -> dict:
    """The toy game with the extra lines of section 1."""
    return merge(toy_data(), yaml.safe_load(first_yaml_after(EXTRA_HEADING)[0]))


def load_data(data: dict, name: str):
    return load_text(yaml.safe_dump(data, sort_keys=False), name)


def play_random(rules, players: int, seed: int) -> Game:
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if game.is_over:
            break
        n = game.option_count()
        assert n > 0
        game.apply(rng.randrange(n))
    return game


def test_toy_game_loads():
    rules = load_text(toy_text(), "toy.yaml")
    assert rules.name == "high_card"
    assert (rules.min_players, rules.max_players) == (2, 4)
    warnings = [d.render() for d in getattr(rules, "warnings", [])]
    assert not warnings, "the toy game should be a clean example:\n" + "\n".join(warnings)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(5))
def test_toy_game_plays_to_the_end(players, seed):
    rules = load_text(toy_text(), "toy.yaml")
    game = play_random(rules, players, seed)
    assert game.is_over, "a random game of the toy did not finish"
    result = game.result
    assert not result["stalled"], result["reason"]
    assert result["winners"], "the toy game should always have a winner"
    assert max(row["points"] for row in result["scores"]) >= 12


def test_toy_game_with_extra_lines_loads():
    load_data(example_data(), "toy-extra.yaml")


# the other examples -------------------------------------------------------------------------

def yaml_examples():
    toy_start = first_yaml_after(TOY_HEADING)[1]
    extra_start = first_yaml_after(EXTRA_HEADING)[1]
    for lang, code, start, skipped in BLOCKS:
        if lang != "yaml" or skipped or start in (toy_start, extra_start):
            continue
        line = DOC.count("\n", 0, start) + 1
        yield pytest.param(code, id=f"line-{line}")


def test_yaml_blocks_parse():
    for lang, code, start, skipped in BLOCKS:
        if lang == "yaml" and not skipped:
            yaml.safe_load(code)


@pytest.mark.parametrize("code", list(yaml_examples()))
def test_yaml_example_works(code):
    """A list of effects runs as the end of the toy game's setup; a map of sections is merged and played."""
    data = yaml.safe_load(code)
    base = example_data()
    if isinstance(data, list):
        base["setup"] = list(base.get("setup") or []) + data
        rules = load_data(base, "example.yaml")
        for seed in range(3):
            Game.new(rules, 3, seed=seed)
    elif isinstance(data, dict) and set(data) <= ruleset_module.TOP_KEYS:
        rules = load_data(merge(base, data), "example.yaml")
        for seed in range(3):
            play_random(rules, 3, seed)
    # any other block is a fragment (a card row, one action...): parsing it is all we check


# expression tables (section 8) --------------------------------------------------------------

def expression_rows():
    rows = []
    lines = DOC.splitlines()
    in_table = False
    for i, line in enumerate(lines):
        if re.match(r"^\|\s*Expression\s*\|\s*Value\s*\|\s*$", line):
            in_table = True
            continue
        if in_table:
            if not line.startswith("|"):
                in_table = False
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set(cells[0]) <= set("-: "):
                continue
            m1, m2 = re.fullmatch(r"`(.+)`", cells[0]), re.fullmatch(r"`(.*)`", cells[1])
            assert m1 and m2, f"line {i + 1}: expected | `expression` | `value` |"
            rows.append((m1.group(1), m2.group(1)))
    return rows


EXPRESSION_ROWS = expression_rows()

# The position of section 8: 3 players, P1 to play.
LAYOUT = [
    ("hand", 0, ["red 1", "blue 3", "red 3", "blue 2"]),
    ("hand", 1, ["red 2"]),
    ("hand", 2, []),
    ("pile", None, ["blue 1", "red 2"]),
    ("row", 0, ["red 3", "blue 1"]),
    ("row", 1, []),
    ("row", 2, ["blue 2"]),
]
POINTS = [4, 7, 7]


def arranged_game():
    rules = load_data(example_data(), "example.yaml")
    game = Game.new(rules, 3, seed=0)
    g = game.state
    deck = rules.zone_slot("deck", 3)
    cards = sorted(c for zone in g.zones for c in zone)
    g.zones = [[] for _ in g.zones]   # new lists: a zone's list is replaced, never changed in place
    g.zones[deck] = cards
    for name, k, labels in LAYOUT:
        zone = rules.zones[name]
        slot = rules.zone_slot(name, 3, owner=k) if zone.per_player else rules.zone_slot(name, 3, index=k or 0)
        for label in labels:
            card = next(c for c in g.zones[deck] if rules.card_labels[c] == label)
            g.zones[deck] = [c for c in g.zones[deck] if c != card]
            g.zones[slot] = g.zones[slot] + [card]
    g.pvars["points"] = list(POINTS)
    g.current = 0
    return rules, game


ITEM = {"cards": "card", "players": "player", "groups": "cards"}


def shown(rules, value, kind):
    """A value as the tables show it: cards by label, players as P1, lists in brackets."""
    if value is None:
        return "none"
    if kind == "card":
        return rules.card_labels[value]
    if kind == "player":
        return f"P{value + 1}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        inner = ITEM.get(kind, "any")
        return "[" + ", ".join(shown(rules, v, inner) for v in value) + "]"
    return str(value)


def test_expression_tables_found():
    assert len(EXPRESSION_ROWS) >= 60


@pytest.mark.parametrize("text,expected", EXPRESSION_ROWS, ids=[r[0] for r in EXPRESSION_ROWS])
def test_expression_example(text, expected):
    rules, game = arranged_game()
    fn = rules.expression(text)
    value = fn(game.state, {"me": 0}, None)
    assert shown(rules, value, fn.kind) == expected


# the CuBirds walkthrough (section 11) --------------------------------------------------------

def walkthrough_blocks():
    at = DOC.find("\n## 11.")
    assert at >= 0, "section 11 (the CuBirds walkthrough) is missing"
    return [code for lang, code, start, _ in BLOCKS if start > at and lang == "yaml"]


def test_walkthrough_quotes_the_real_cubirds_file():
    """Each yaml block of section 11 is a contiguous excerpt of rulesets/cubirds.yaml (indentation aside)."""
    source = [line.strip() for line in (ROOT / "rulesets" / "cubirds.yaml").read_text(encoding="utf-8").splitlines()]
    blocks = walkthrough_blocks()
    assert blocks
    for code in blocks:
        lines = [line.strip() for line in code.splitlines() if line.strip()]
        found = any(source[i:i + len(lines)] == lines for i in range(len(source) - len(lines) + 1))
        assert found, "this excerpt is no longer in rulesets/cubirds.yaml:\n" + code
