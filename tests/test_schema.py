"""The JSON Schema for rulesets: valid itself, accepts every shipped ruleset, agrees with the compiler's
key sets (the effects' part is written from the effects' definitions), and rejects broken rulesets at the
place that is broken."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from interpreter import load_text
from interpreter.bundled import schema_path
from interpreter.compiler import ruleset as rs
from interpreter.effects import BARE, EFFECTS
from interpreter.compiler.ruleset import VISIBILITY_KEYS
from interpreter.engine.view import LEVELS, VISIBILITIES
from interpreter.errors import RulesetError
from interpreter.extends import load_merged
from interpreter.schema import schema_diagnostics, schema_text, with_effects, with_variants
from interpreter.source import parse_text, read_file

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "schema" / "ruleset.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
DEFS = SCHEMA["$defs"]
VALIDATOR = Draft202012Validator(SCHEMA)
SHIPPED = sorted((ROOT / "rulesets").rglob("*.yaml"))
CUBIRDS = read_file(ROOT / "rulesets" / "cubirds.yaml").data


def keys(schema: dict) -> set:
    return set(schema["properties"])


def errors(data) -> list:
    return list(VALIDATOR.iter_errors(data))


def effect_names_dispatched() -> set:
    """The effects the effect map knows: one `if: {required: [name]}` branch each."""
    out = set()
    for branch in DEFS["effect_map"]["allOf"]:
        required = branch["if"].get("required")
        if required:
            assert branch["then"] == {"$ref": f"#/$defs/effect_{required[0]}"}
            out.add(required[0])
    return out


def walk(node, path=()):
    """Every (path, subschema) in the schema."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))


# 1. the schema itself ------------------------------------------------------------------------------

def test_schema_is_valid_draft_2020_12():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)


def test_the_interpreter_applies_this_schema():
    assert schema_path().resolve() == SCHEMA_FILE.resolve()


def test_every_ref_resolves_and_every_definition_is_used():
    refs = {sub["$ref"] for _, sub in walk(SCHEMA) if isinstance(sub.get("$ref"), str)}
    assert all(r.startswith("#/$defs/") for r in refs), refs
    used = {r.removeprefix("#/$defs/") for r in refs}
    assert used <= set(DEFS), used - set(DEFS)
    assert set(DEFS) <= used, set(DEFS) - used


def test_every_property_and_definition_has_a_description():
    assert SCHEMA.get("title") and SCHEMA.get("description")
    missing = [("$defs", name) for name, d in DEFS.items() if not d.get("description")]
    for path, sub in walk(SCHEMA):
        if path[-1:] == ("properties",):
            continue  # the map of property names itself, not a schema
        for name, prop in sub.get("properties", {}).items():
            if not prop.get("description"):
                missing.append(path + ("properties", name))
        extra = sub.get("additionalProperties")
        if isinstance(extra, dict) and not extra.get("description"):
            missing.append(path + ("additionalProperties",))
    assert not missing, missing


# 2. shipped rulesets ----------------------------------------------------------------------------------

def test_there_are_shipped_rulesets():
    assert SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_shipped_ruleset_validates(path):
    """As the interpreter checks it: the file's data (a variant merged over its base first)."""
    problems = [(list(e.absolute_path), e.message) for e in errors(load_merged(path).data)]
    assert problems == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_shipped_file_validates_as_written(path):
    """What an editor checks through the file's `$schema` line: bases whole, variants partial."""
    assert [(list(e.absolute_path), e.message) for e in errors(read_file(path).data)] == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_shipped_file_modeline_names_this_schema(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix)
    assert (path.parent / first.removeprefix(prefix)).resolve() == SCHEMA_FILE.resolve()


def test_variant_and_effect_definitions_are_made_from_the_others():
    """The `variant_*` definitions and the effects' are generated: after editing the schema or an effect's
    definition (interpreter/effects/), run `python tests/regenerate_schema.py`."""
    assert with_effects(SCHEMA) == SCHEMA
    assert with_variants(SCHEMA) == SCHEMA
    assert schema_text(SCHEMA) == SCHEMA_FILE.read_text(encoding="utf-8")


def test_a_file_is_a_variant_exactly_when_it_extends():
    assert SCHEMA["if"] == {"required": ["extends"]}
    assert SCHEMA["then"] == {"$ref": "#/$defs/variant_ruleset"} and SCHEMA["else"] == {"$ref": "#/$defs/ruleset"}
    assert DEFS["variant_ruleset"]["required"] == ["extends"]
    assert keys(DEFS["variant_ruleset"]) == keys(DEFS["ruleset"])


# 3. drift: the schema and the compiler agree on every key set ----------------------------------------

@pytest.mark.parametrize("where, expected", [
    ("zone", rs.ZONE_KEYS),
    ("action", rs.ACTION_KEYS),
    ("step", rs.STEP_KEYS),
    ("flow", rs.FLOW_KEYS),
    ("round", rs.ROUND_KEYS),
    ("turn", rs.TURN_KEYS),
    ("end_condition", rs.END_KEYS),
    ("scoring", rs.SCORING_KEYS),
    ("component", rs.COMPONENT_KEYS),
    ("players", rs.PLAYERS_KEYS),
    ("limits", rs.LIMITS_KEYS),
    ("procedure", rs.PROCEDURE_KEYS),
    ("parameter_long", rs.PARAMETER_KEYS),
] + [(f"{name}_fields", effect.fields) for name, effect in EFFECTS.items() if effect.fields is not None])
def test_section_keys_match_the_compiler(where, expected):
    assert keys(DEFS[where]) == set(expected)
    assert DEFS[where]["additionalProperties"] is False


def test_top_level_keys_match_the_compiler():
    assert keys(DEFS["ruleset"]) == rs.TOP_KEYS
    assert DEFS["ruleset"]["additionalProperties"] is False


def test_effect_names_match_the_compiler():
    assert effect_names_dispatched() == set(EFFECTS)
    assert set(DEFS["effect_name"]["enum"]) == set(EFFECTS)
    assert {n.removeprefix("effect_") for n in DEFS if n.startswith("effect_") and n[7:] in EFFECTS} == set(EFFECTS)


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_effect_sibling_keys_match_the_compiler(name):
    d = DEFS[f"effect_{name}"]
    assert name in d["required"]
    assert d["additionalProperties"] is False
    assert keys(d) - {name} == set(EFFECTS[name].beside)


@pytest.mark.parametrize("name", sorted(n for n, effect in EFFECTS.items() if effect.is_map()))
def test_effects_whose_value_is_a_map_have_an_object_schema(name):
    head = DEFS[f"effect_{name}"]["properties"][name]
    if "$ref" in head:
        head = DEFS[head["$ref"].removeprefix("#/$defs/")]
    assert "object" in (head["type"] if isinstance(head["type"], list) else [head["type"]])


def test_bare_effects_are_argument_less_effects():
    assert DEFS["bare_effect"]["enum"] == list(BARE)
    for name in BARE:
        assert EFFECTS[name].beside == {}
        assert not EFFECTS[name].is_map() or EFFECTS[name].null_ok


def test_visibility_enum_matches_the_engine():
    words, levels = DEFS["visibility"]["oneOf"]
    assert set(words["enum"]) == set(VISIBILITIES)
    assert set(DEFS["visibility_level"]["enum"]) == set(LEVELS)
    assert set(levels["properties"]) == set(VISIBILITY_KEYS)
    assert DEFS["zone"]["properties"]["visibility"]["$ref"] == "#/$defs/visibility"


# 4. broken rulesets are rejected at the broken place ------------------------------------------------

def _set(path, value):
    def mutate(data):
        node = data
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    return mutate


def _pop(path):
    def mutate(data):
        node = data
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]
    return mutate


def _rename(path, new):
    def mutate(data):
        node = data
        for k in path[:-1]:
            node = node[k]
        node[new] = node.pop(path[-1])
    return mutate


DRAW_MOVE = ("actions", "draw", "do", 0)
assert "move" in CUBIRDS["actions"]["draw"]["do"][0]
assert CUBIRDS["setup"][0] == {"shuffle": "deck"}
assert "if" in CUBIRDS["setup"][1]["do"][0]["do"][1]

BROKEN = [
    # (id, how to break cubirds, where the error must point)
    ("misspelt top-level key", _rename(("zones",), "zonez"), ()),
    ("ruleset without name", _pop(("name",)), ()),
    ("misspelt zone field", _rename(("zones", "deck", "visibility"), "visiblity"), ("zones", "deck")),
    ("unknown visibility", _set(("zones", "hand", "visibility"), "secret"), ("zones", "hand", "visibility")),
    ("players without max", _pop(("players", "max")), ("players",)),
    ("players above 64", _set(("players", "max"), 65), ("players", "max")),
    ("card count is a string", _set(("components", "bird", "cards", 0, "count"), "7"),
     ("components", "bird", "cards", 0, "count")),
    ("card count too large", _set(("components", "bird", "cards", 1, "count"), 10001),
     ("components", "bird", "cards", 1, "count")),
    ("effect with two effect keys", _set(("setup", 0, "end_turn"), None), ("setup", 0)),
    ("unknown effect name", _set(("setup", 0), {"shufle": "deck"}), ("setup", 0)),
    ("unknown bare effect", _set(("setup", 0), "end_trun"), ("setup", 0)),
    ("move with an unknown field", _set(DRAW_MOVE + ("move", "cuont"), 2), DRAW_MOVE + ("move",)),
    ("move without to", _pop(DRAW_MOVE + ("move", "to")), DRAW_MOVE + ("move",)),
    ("misspelt sibling of if", _rename(("setup", 1, "do", 0, "do", 1, "then"), "thne"),
     ("setup", 1, "do", 0, "do", 1)),
    ("sibling of another effect", _set(("setup", 0, "do"), []), ("setup", 0)),
    ("expression that is a map", _set(("flow", "ends", 0, "when"), {"a": 1}), ("flow", "ends", 0, "when")),
    ("zone name not an identifier", _set(("zones", "draw-pile"), {}), ("zones",)),
    ("parameter table with a word key", _set(("parameters", "hand_size"), {"two": 8}), ("parameters", "hand_size")),
    ("parameter long form, misspelt field", _set(("parameters", "side"), {"value": "left", "choice": ["left"]}),
     ("parameters", "side")),
    ("parameter long form without value", _set(("parameters", "side"), {"choices": ["left", "right"]}),
     ("parameters", "side")),
    ("step with a misspelt field", _set(("flow", "round", "turn", "steps", 1, "optinal"), True),
     ("flow", "round", "turn", "steps", 1)),
    ("turn without steps", _pop(("flow", "round", "turn", "steps")), ("flow", "round", "turn")),
    ("end condition without when", _pop(("flow", "round", "ends", 0, "when")), ("flow", "round", "ends", 0)),
    ("turn limit of zero", _set(("limits", "turns"), 0), ("limits", "turns")),
]


@pytest.mark.parametrize("break_it, where", [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_broken_ruleset_is_rejected_at_the_broken_place(break_it, where):
    data = copy.deepcopy(CUBIRDS)
    break_it(data)
    found = errors(data)
    assert found, "the schema accepted a broken ruleset"
    paths = [tuple(e.absolute_path) for e in found]
    assert where in paths, paths


FINE = [
    # Valid spellings the schema must keep accepting.
    ("parameter table by player count", _set(("parameters", "hand_size"), {2: 8, 3: 7, 4: 6, 5: 5})),
    ("bare end_game", _set(("setup", 0), "end_game")),
    ("end_turn written as a map", _set(("setup", 0), {"end_turn": None})),
    ("step as an action name", _set(("flow", "round", "turn", "steps", 1), "draw")),
    ("zone with no fields", _set(("zones", "pile"), None)),
    ("procedure with args", _set(("procedures", "note"), {"args": ["n"], "do": [{"log": "{n}"}]})),
    ("call with arguments", _set(("setup", 0), {"call": "exhausted", "with": {}})),
    ("set a player variable", _set(("setup", 0), {"set": {"took": 1, "current.took": 2}})),
    ("constant expressions", _set(("flow", "ends", 0, "when"), False)),
    ("move everything", _set(DRAW_MOVE + ("move", "count"), "all")),
    ("empty optional sections", lambda d: d.update(variables=None, scoring=None, limits=None, setup=None)),
    ("parameter long form with a table", _set(("parameters", "hand_size"),
                                              {"value": {2: 8, 3: 7}, "choices": [7, 8], "text": "cards dealt"})),
    ("a variant names only what it changes",
     lambda d: [d.clear(), d.update(extends="cubirds", name="cubirds_short", parameters={"species_to_win": 5})]),
]


@pytest.mark.parametrize("change", [c[1] for c in FINE], ids=[c[0] for c in FINE])
def test_valid_variations_are_accepted(change):
    data = copy.deepcopy(CUBIRDS)
    change(data)
    assert [(list(e.absolute_path), e.message) for e in errors(data)] == []


@pytest.mark.parametrize("old, new, needle, at_key", [
    ("deck: {visibility: count,", "deck: {visibility: secret,", "visibility: secret", False),
    ("deck: {visibility: count,", "deck: {visiblity: count,", "visiblity", True),
])
def test_schema_diagnostics_point_at_the_yaml_line(old, new, needle, at_key):
    """What authors see: each schema error located at the line (and column) of the broken value or key."""
    text = (ROOT / "rulesets" / "cubirds.yaml").read_text(encoding="utf-8")
    broken = text.replace(old, new, 1)
    assert broken != text
    line_no, line = next((i, s) for i, s in enumerate(broken.splitlines(), 1) if needle in s)
    col = line.index(needle) + 1 if at_key else line.index(needle) + len(needle.split(": ")[0]) + 3
    diags = schema_diagnostics(parse_text(broken, "cubirds.yaml"))
    assert [(d.location.line, d.location.col) for d in diags] == [(line_no, col)]
    with pytest.raises(RulesetError):
        load_text(broken, "cubirds.yaml")


# 5. variants: what the merge rules accept, the schema accepts -----------------------------------------

def _variant(**sections):
    return {"extends": "cubirds", **sections}


VARIANTS_FINE = [
    # (id, a variant file's data): each is accepted by the merge rules, so by the schema
    ("only extends", _variant()),
    ("a parameter turned", _variant(parameters={"species_to_win": 5})),
    ("a table by player count in part", _variant(parameters={"hand_size": {2: 9}})),
    ("the choices of a long-form parameter alone", _variant(parameters={"refill_end": {"choices": ["left"]}})),
    ("a parameter removed", _variant(parameters={"draw_option": None})),
    ("an empty section (null: removes it)", _variant(scoring=None, limits=None)),
    ("a zone field changed", _variant(zones={"row": {"count": 2}})),
    ("a zone field removed", _variant(zones={"row": {"text": None}})),
    ("a card type without its home or rows", _variant(components={"bird": {"total": 110}})),
    ("players in part", _variant(players={"max": 4})),
    ("a round without its turn", _variant(flow={"round": {"first_player": "0"}})),
    ("a turn without its steps", _variant(flow={"round": {"turn": {"start": None}}})),
    ("an action's argument removed", _variant(actions={"fly": {"args": {"species": None}}})),
    ("an action removed", _variant(actions={"draw": None})),
    ("a whole new zone", _variant(zones={"pile": {"visibility": "top"}})),
    ("the default bot removed", _variant(agents={"default": None})),
]


@pytest.mark.parametrize("data", [c[1] for c in VARIANTS_FINE], ids=[c[0] for c in VARIANTS_FINE])
def test_variant_may_be_partial_and_remove(data):
    assert [(list(e.absolute_path), e.message) for e in errors(data)] == []


VARIANTS_BROKEN = [
    # (id, a variant file's data, where the error must point): lists replace whole, so what is in a
    # list is checked in full; unknown keys and wrong kinds are wrong in a variant too
    ("extends is not a name", _variant(extends=3), ("extends",)),
    ("a misspelt section", _variant(zonez={}), ()),
    ("a misspelt zone field", _variant(zones={"row": {"cuont": 2}}), ("zones", "row")),
    ("a wrong visibility", _variant(zones={"row": {"visibility": "secret"}}), ("zones", "row", "visibility")),
    ("players as text", _variant(players={"max": "four"}), ("players", "max")),
    ("a step list item in part", _variant(flow={"round": {"turn": {"steps": [{"optional": True}]}}}),
     ("flow", "round", "turn", "steps", 0)),
    ("an effect in a list without its target", _variant(setup=[{"move": {"from": "deck"}}]), ("setup", 0, "move")),
    ("a card row with a text count", _variant(components={"bird": {"cards": [{"count": "7"}]}}),
     ("components", "bird", "cards", 0, "count")),
    ("a parameter table with a word key", _variant(parameters={"hand_size": {"two": 8}}), ("parameters", "hand_size")),
]


@pytest.mark.parametrize("data, where", [c[1:] for c in VARIANTS_BROKEN], ids=[c[0] for c in VARIANTS_BROKEN])
def test_variant_is_still_checked(data, where):
    paths = [tuple(e.absolute_path) for e in errors(data)]
    assert where in paths, paths


def test_a_complete_ruleset_still_needs_its_sections():
    found = errors({"name": "x"})
    assert sorted(e.message for e in found) == sorted(
        f"'{k}' is a required property" for k in ("players", "components", "zones", "flow"))
