"""`explain_markdown`: every ruleset explained as Markdown; facts of the shipped games; effects in words."""
from __future__ import annotations

import re

import pytest

from interpreter import load, load_text
from interpreter.compiler.effects import EFFECTS
from interpreter.explain import RENDER, bullets, explain_markdown

from helpers import ROOT

SHIPPED = ["cubirds", "piepmatz", "pit", "cubirds-pairs", "piepmatz-songbirds", "cubirds-bga-setup",
           "piepmatz-three-perches", "pit-classic", "pit-bull-bear", "pit-tutorial", "forehead-poker", "souk",
           "lanterns", "harbour-lights"]


def section(md: str, title: str) -> str:
    """The text of one `## title` section, up to the next `## ` heading."""
    start = md.index(f"\n## {title}\n")
    end = md.find("\n## ", start + 1)
    return md[start:end if end != -1 else len(md)]


# every shipped ruleset ------------------------------------------------------------------------
@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_is_explained_completely(name):
    rules = load(name)
    md = explain_markdown(rules)
    assert md.startswith(f"# {rules.title}\n")
    for action in rules.actions:
        assert f"### `{action}`" in section(md, "Actions")
    for zone in rules.zones:
        assert f"| `{zone}` |" in section(md, "Zones")
    for param in rules.params:
        assert f"| `{param}` |" in section(md, "Parameters")
    for part, _ in rules.scoring.parts:
        assert f"- **{part}**: " in section(md, "Scoring")
    for title in ("Players", "Components", "Setup", "Flow of play", "End of the game", "Bots"):
        assert f"\n## {title}\n" in md
    assert f"after {rules.turn_limit} turns" in md and "stalled draw" in md


def test_hidden_information_is_explained():
    md = explain_markdown(load("forehead-poker"))
    zones = section(md, "Zones")
    assert "| `crown` | one per player | its owner sees how many; the others see the cards |" in zones
    assert "| `trophies` | one per player | its owner sees the cards; the others see nothing, not even how many |" \
        in zones
    assert "`chips` (starts at 0; seen only by its player)" in zones
    assert "`backers` (starts at []; back to it when the card changes zone; seen by everyone even on a hidden card)" \
        in zones
    assert "Show `me.crown` to `me` only; they remember them until the end of the round" in section(md, "Actions")


def test_every_shipped_ruleset_file_is_covered():
    names = {path.stem for path in (ROOT / "rulesets").rglob("*.yaml")}
    assert names == set(SHIPPED)


def test_markdown_tables_have_one_cell_per_column():
    for name in SHIPPED:
        rows = []
        for line in explain_markdown(load(name)).splitlines() + [""]:
            if line.startswith("|"):
                rows.append(line)
                continue
            if rows:
                widths = {len(re.split(r"(?<!\\)\|", row)) for row in rows}
                assert len(widths) == 1, (name, rows[0])
            rows = []


# facts of the shipped games --------------------------------------------------------------------
def test_cubirds_components_table_counts_and_total():
    md = explain_markdown(load("cubirds"))
    comps = section(md, "Components")
    assert "| species | small | big | count |" in comps
    assert "| flamingo | 2 | 3 | 7 |" in comps
    assert "| robin | 6 | 9 | 20 |" in comps
    assert "### `bird`: 110 cards, starting in `deck`" in comps
    assert "as declared (total 110)" in comps


def test_declared_total_that_disagrees_is_shown():
    comps = section(explain_markdown(load("cubirds-pairs")), "Components")
    assert "| owl | 15 |" in comps
    assert "the rows make 105 cards (7 distinct), but the ruleset declares a total of 110" in comps


def test_identical_cards_are_grouped_and_labels_shown_when_they_add_something():
    comps = section(explain_markdown(load("piepmatz")), "Components")
    assert "| card | species | value | sex | count |" in comps     # labels such as "sparrow 3♂"
    assert "| kind | eggs | name | count |" in comps        # the label is the name: no column
    assert "| seed | 1 | seed 1 egg | 10 |" in comps
    assert "| crow | — | crow | 3 |" in comps
    assert "36 cards (5 distinct)" in comps


def test_piepmatz_perches_shown_per_player_count():
    md = explain_markdown(load("piepmatz"))
    assert "| `perches` | 2: 2, 3: 2, 4: 3 (by player count) |" in section(md, "Parameters")
    setup = section(md, "Setup")
    assert "| players | `perches` |" in setup
    for row in ("| 2 | 2 |", "| 3 | 2 |", "| 4 | 3 |"):
        assert row in setup
    # the variant fixes the value: no table by player count any more
    variant = explain_markdown(load("piepmatz-three-perches"))
    assert "| `perches` | 3 |" in variant
    assert "No parameter depends on the player count (2 to 4 players)." in section(variant, "Setup")


def test_pit_trade_step_is_simultaneous():
    flow = section(explain_markdown(load("pit")), "Flow of play")
    step = next(line for line in flow.splitlines() if line.startswith("1. **trade**"))
    assert "`corner`, `accept`, `offer` or `withdraw`" in step
    assert "Simultaneous: each of `players` chooses at the same time" in step
    assert "Optional: a player may pass." in step
    assert "Each round starts with `dealer`." in flow
    assert "The round ends when an `end_round` effect runs, in action `corner`." in flow


def test_cubirds_flow_actions_end_and_bots():
    md = explain_markdown(load("cubirds"))
    flow = section(md, "Flow of play")
    assert "The first player is `random(players)`." in flow
    assert "2. **draw**: `draw`. Optional: a player may pass." in flow
    assert "- The round ends when `count(current.hand) == 0` (a hand is empty)." in flow
    actions = section(md, "Actions")
    assert "- Legal when `took == 0`." in actions
    assert "- Choose `side` from `[\"left\", \"right\"]`." in actions
    assert "- Each option must satisfy `count(flock) >= first(flock).small`." in actions
    assert "  - Move `draw_option` cards from `deck` to `me.hand`. If there are too few cards:" in actions
    end = section(md, "End of the game")
    assert "the game ends (collection goal reached): winners are `[current]`." in end
    assert "an `end_game` effect runs, in procedure *exhausted*" in end
    zones = section(md, "Zones")
    assert "| `row` | numbered family of 4 (`row[0]` to `row[3]`) | everyone sees every card |" in zones
    assert "| `hand` | one per player | its owner sees the cards; the others see how many |" in zones
    assert "when short, `discard` is shuffled into it" in zones
    assert "Bots play `random`" in section(md, "Bots")


def test_pit_bots_and_variant_chain():
    md = explain_markdown(load("pit-bull-bear"))
    assert "built on `pit.yaml` ← `pit-bull-bear.yaml`" in md
    bots = section(md, "Bots")
    assert "Bots play `greedy`" in bots and "maximises `1000 * me.score" in bots


def test_piepmatz_choices_notes_tie_breakers_and_game_end_effects():
    md = explain_markdown(load("piepmatz"))
    params = section(md, "Parameters")
    assert re.search(r"\| `bonus_rule` \| at_most \| at_most, below \| UNCONFIRMED: ", params)
    assert "Ties on the total are broken by, in order (highest wins):" in section(md, "Scoring")
    end = section(md, "End of the game")
    assert "the scoring decides the winners. First:" in end
    assert "  - Each of `players` (all at once, then applied one by one) chooses `a` from `me.hand` and " \
           "`b` from `me.hand` such that `a < b`" in end
    assert "- Offered in a choice in procedure *draw_birds*." in section(md, "Actions")


# a changed ruleset changes the document ------------------------------------------------------------
def cubirds_text() -> str:
    return (ROOT / "rulesets" / "cubirds.yaml").read_text()


def test_changed_parameter_changes_output():
    before = explain_markdown(load("cubirds"))
    text = cubirds_text()
    assert "  hand_size: 8\n" in text
    after = explain_markdown(load_text(text.replace("  hand_size: 8\n", "  hand_size: 7\n")))
    assert "| `hand_size` | 8 |" in before and "| `hand_size` | 7 |" in after
    assert "| `hand_size` | 8 |" not in after


def test_changed_ruleset_by_player_count_cards_zones_and_steps():
    text = cubirds_text()
    text = text.replace("  hand_size: 8\n", "  hand_size: {2: 8, 3: 8, 4: 7, 5: 7}\n")
    text = text.replace("{species: flamingo, small: 2, big: 3, count: 7}",
                        "{species: flamingo, small: 2, big: 3, count: 9}")
    text = text.replace("discard: {visibility: public,", "discard: {visibility: top,")
    text = text.replace("{name: draw, actions: [draw], optional: true}", "{name: draw, actions: [draw]}")
    md = explain_markdown(load_text(text))
    setup = section(md, "Setup")
    assert "| players | `hand_size` |" in setup and "| 5 | 7 |" in setup
    comps = section(md, "Components")
    assert "| flamingo | 2 | 3 | 9 |" in comps
    assert "the rows make 112 cards (8 distinct), but the ruleset declares a total of 110" in comps
    assert "| `discard` | shared | everyone sees how many cards and the top card |" in md
    assert "2. **draw**: `draw`.\n" in md


GENERIC = """
name: generic
players: {min: 2, max: 2}
components:
  card: {in: deck, cards: [{value: 1, count: 4}, {value: 2, count: 4}]}
zones:
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  pile: {}
setup:
  - until: count(deck) < 4
    max: 3
    do: [{deal: {from: deck, to: hand, count: 1}}]
actions:
  play:
    args: {card: me.hand}
    do:
      - move: {cards: '[card]', from: me.hand, to: pile}
      - end_turn
flow:
  round:
    first_player: 1
    ends:
      - when: count(deck) == 0
    turn:
      steps:
        - play
        - {actions: [play], player: next(current), if: turn > 1}
      next_player: previous(current)
  ends:
    - when: count(pile) >= 8
      winners: '[current]'
"""


def test_a_ruleset_without_scoring_or_options():
    md = explain_markdown(load_text(GENERIC))
    assert md.startswith("# generic\n\nRuleset `generic`.")
    assert "2 to 2 players." not in md and "2 players." in md
    flow = section(md, "Flow of play")
    assert "The first player is P1." in flow and "Each round starts with P2." in flow
    assert "2. **play**: `play`. Chosen by `next(current)`. Only if `turn > 1`." in flow
    assert "Then `previous(current)` plays next." in flow
    assert "- The round ends when `count(deck) == 0`." in flow
    assert "- Repeat until `count(deck) < 4` (at most 3 times):" in section(md, "Setup")
    assert "  - End the turn (skip its remaining steps)." in section(md, "Actions")
    assert "No score" in section(md, "Scoring")
    assert "| `deck` | shared | nobody sees anything, not even how many cards |" in md


# effects in words -------------------------------------------------------------------------------
EXAMPLES = {
    "move": [
        ({"move": {"from": "deck", "to": "me.hand", "count": 2}}, "- Move 2 cards from `deck` to `me.hand`."),
        ({"move": {"from": "deck", "to": "pile"}}, "- Move 1 card from `deck` to `pile`."),
        ({"move": {"from": "me.hand", "to": "discard", "count": "all"}},
         "- Move all the cards from `me.hand` to `discard`."),
        ({"move": {"cards": "[card]", "from": "me.hand", "to": "pile", "at": "top"}},
         "- Move the cards `[card]` from `me.hand` to the top of `pile`."),
        ({"move": {"from": "row[r]", "take": "end", "to": "deck", "count": "n"}},
         "- Move `n` cards from the end of `row[r]` to `deck`."),
        ({"move": {"from": "deck", "to": "row[r]", "at": "side", "if_empty": [{"call": "exhausted"}]}},
         "- Move 1 card from `deck` to the `side` end of `row[r]`. If there are too few cards:\n"
         "  - Do *exhausted*."),
    ],
    "deal": [
        ({"deal": {"from": "deck", "to": "hand", "count": "hand_size"}},
         "- Deal `hand_size` cards from `deck` to the `hand` of each player in turn, one card at a time."),
        ({"deal": {"from": "deck", "to": "hand", "count": 1, "players": "others(me)",
                   "if_empty": [{"end_game": None}]}},
         "- Deal 1 card from `deck` to the `hand` of each of `others(me)` in turn, one card at a time. "
         "If the cards run out:\n  - The game ends; the scoring decides the winners."),
    ],
    "shuffle": [({"shuffle": "deck"}, "- Shuffle `deck`.")],
    "reveal": [
        ({"reveal": {"cards": "me.hand", "to": "[next(me)]"}},
         "- Show `me.hand` to `[next(me)]` only; they remember them while the cards stay where they are."),
        ({"reveal": {"cards": "take(deck, 2)", "to": "me", "until": "turn"}},
         "- Show `take(deck, 2)` to `me` only; they remember them until the end of the turn while the cards "
         "stay where they are."),
    ],
    "set": [({"set": {"took": 0, "me.points": "count(me.hand)"}},
             "- Set `took` to 0 and `me.points` to `count(me.hand)`.")],
    "add": [({"add": {"me.points": 2, "p.score": "-penalty"}}, "- Add 2 to `me.points` and `-penalty` to `p.score`.")],
    "let": [({"let": {"a": "first(me.hand)", "b": "true", "c": 3}},
             "- Let `a` be `first(me.hand)`, `b` be `true` and `c` be 3.")],
    "if": [
        ({"if": "count(pile) == 0", "then": [{"shuffle": "deck"}], "else": ["end_turn"]},
         "- If `count(pile) == 0`:\n  - Shuffle `deck`.\n- Otherwise:\n  - End the turn (skip its remaining steps)."),
        ({"if": "x > 1", "then": [{"log": "big"}]}, '- If `x > 1`:\n  - Log "big".'),
    ],
    "while": [({"while": "count(row[0]) < 3", "max": 20, "do": [{"move": {"from": "deck", "to": "row[0]"}}]},
               "- Repeat while `count(row[0]) < 3` (at most 20 times):\n  - Move 1 card from `deck` to `row[0]`."),
              ({"while": "ok", "do": ["end_round"]}, "- Repeat while `ok` (at most 1000 times):\n  - End the round.")],
    "until": [({"until": "count(me.hand) >= hand_size", "max": "hand_size", "do": [{"shuffle": "deck"}]},
               "- Repeat until `count(me.hand) >= hand_size` (at most `hand_size` times):\n  - Shuffle `deck`.")],
    "for_each": [({"for_each": "p", "in": "players", "do": [{"add": {"p.points": 1}}]},
                  "- For each `p` in `players`:\n  - Add 1 to `p.points`.")],
    "choose": [
        ({"choose": {"player": "next(me)", "prompt": "pick a card", "args": {"gift": "next(me).hand"},
                     "label": "give {gift}", "do": [{"move": {"cards": "[gift]", "from": "next(me).hand",
                                                               "to": "me.hand"}}]}},
         '- `next(me)` chooses `gift` from `next(me).hand` ("pick a card"):\n'
         "  - Move the cards `[gift]` from `next(me).hand` to `me.hand`."),
        ({"choose": {"players": "players", "args": {"a": "me.hand", "b": "me.hand"}, "if": "a < b",
                     "optional": True}},
         "- Each of `players` (all at once, then applied one by one) chooses `a` from `me.hand` and "
         "`b` from `me.hand` such that `a < b`, or passes."),
        ({"choose": {"prompt": "draw", "actions": ["take", "draw"]}},
         '- `me` chooses an option of `take` or `draw` ("draw").'),
    ],
    "sort": [({"sort": {"zone": "me.hand", "by": "value"}}, "- Sort `me.hand` by `value`, the smallest first."),
             ({"sort": {"zone": "row[0]", "by": "rank", "descending": True}},
              "- Sort `row[0]` by `rank`, the greatest first.")],
    "call": [({"call": "trade", "with": {"other": "other", "mine": "take(me.hand, 2)"}},
              "- Do *trade* (with `other` = `other` and `mine` = `take(me.hand, 2)`)."),
             ({"call": "tidy_up"}, "- Do *tidy_up*.")],
    "react": [
        ({"react": {"actions": ["snap"]}},
         "- every other player may at once `snap` out of turn, or pass; only the first who acts, going round "
         "the table from `me`, is applied."),
        ({"react": {"actions": ["claim", "pass_on"], "players": "others(current)", "until": "all"}},
         "- `others(current)` may at once `claim` or `pass_on` out of turn, or pass; every reaction is applied."),
    ],
    "log": [({"log": "{me} scores {n}"}, '- Log "{me} scores {n}".'),
            ({"log": {"text": "you hold {me.coins}", "to": "[me]"}},
             '- Log "you hold {me.coins}" (only `[me]` read it).')],
    "end_turn": [("end_turn", "- End the turn (skip its remaining steps)."),
                 ({"end_turn": None}, "- End the turn (skip its remaining steps).")],
    "end_round": [("end_round", "- End the round.")],
    "end_game": [
        ({"end_game": {"winners": "maxima(players, count(it.hand))", "reason": "most cards wins"}},
         "- The game ends (most cards wins): winners are `maxima(players, count(it.hand))`."),
        ("end_game", "- The game ends; the scoring decides the winners."),
        ({"end_game": {"reason": "the deck ran out"}},
         "- The game ends (the deck ran out); the scoring decides the winners."),
    ],
}


def test_every_effect_has_a_renderer_and_an_example():
    assert set(EFFECTS) - set(RENDER) == set(), "effects without a renderer"
    assert set(EFFECTS) - set(EXAMPLES) == set(), "effects without an example in this test"


@pytest.mark.parametrize("effect,example,expected",
                         [(name, ex, exp) for name, cases in EXAMPLES.items() for ex, exp in cases])
def test_effect_in_words(effect, example, expected):
    assert "\n".join(bullets([example])) == expected


def test_nested_effects_are_indented_by_depth():
    lines = bullets([{"for_each": "p", "in": "players",
                      "do": [{"if": "x", "then": [{"shuffle": "deck"}]}]}], depth=1)
    assert lines == ["  - For each `p` in `players`:", "    - If `x`:", "      - Shuffle `deck`."]


def test_explain_module_names_no_game():
    source = "".join(p.read_text() for p in (ROOT / "interpreter" / "explain").glob("*.py")).lower()
    for word in ("cubirds", "piepmatz", "pit", "flamingo", "wheat"):
        assert not re.search(rf"\b{word}\b", source), word


def test_no_ruleset_cites_a_path_of_this_repository():
    # explain shows a ruleset's sources to its readers: a path into rulebook's own files means nothing to them
    from interpreter.bundled import bundled
    for name in bundled():
        for source in load(name).sources:
            assert "shared/" not in source and "seeds/" not in source, (name, source)


def test_the_rulebook_calls_a_variable_what_the_display_names_it():
    """`display: names` gives a variable its words in the rulebook too: in the list of what is kept, in the
    actions' sentences and in the scoring, as on the board (and a score part its name)."""
    from interpreter.explain import rulebook_markdown
    from test_present import NAMED
    lines = rulebook_markdown(load_text(NAMED, "named.yaml")).splitlines()
    assert [line.strip() for line in lines if "taken so far" in line or "n taken" in line] == [
        "- *taken so far* (starts at 0)", "- Add 1 to *taken so far*.",
        "**Scoring.** You score *taken so far* times 2 (*points*)."]   # the score part by its name too
