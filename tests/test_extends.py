"""Variants by extension: the merge rules, errors located in base or variant, and the shipped variants."""
from __future__ import annotations

import pytest

from interpreter import Game, RulesetError, load
from interpreter.extends import load_merged
from helpers import ROOT, labels

CUBIRDS = ROOT / "rulesets" / "cubirds.yaml"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def variant(tmp_path, body, name="v.yaml"):
    return write(tmp_path, name, f"extends: {CUBIRDS}\nname: v\n" + body)


def test_maps_merge_by_key(tmp_path):
    data = load_merged(variant(tmp_path, "zones:\n  row: {count: 2}\n")).data
    assert data["zones"]["row"] == {"count": 2, "visibility": "public", "text": "the rows of birds, left to right"}
    assert set(data["zones"]) == {"deck", "discard", "row", "hand", "collection"}
    rules = load(str(tmp_path / "v.yaml"))
    game = Game.new(rules, 2, seed=1)
    assert len(game.view(0)["zones"]["row"]) == 2


def test_lists_and_scalars_replace(tmp_path):
    data = load_merged(variant(tmp_path, "flow:\n  round:\n    turn:\n      steps: [lay]\n"
                                         "sources: [mine]\n")).data
    assert data["flow"]["round"]["turn"]["steps"] == ["lay"]
    assert data["sources"] == ["mine"]
    assert data["flow"]["round"]["turn"]["start"] == [{"set": {"took": 0}}]   # sibling keys kept


def test_null_removes(tmp_path):
    data = load_merged(variant(tmp_path, "scoring: null\nlimits:\n  turns: null\n")).data
    assert "scoring" not in data
    assert data["limits"] == {}


def test_extends_key_is_not_in_the_merged_data(tmp_path):
    assert "extends" not in load_merged(variant(tmp_path, "")).data


def test_an_error_written_in_the_variant_points_at_the_variant(tmp_path):
    path = variant(tmp_path, "actions:\n  draw:\n    when: tok == 0\n")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    d = info.value.diagnostics[0]
    assert (d.location.file, d.location.line, d.location.col) == (str(path), 5, 11)
    assert d.message == "unknown name 'tok'"


def test_an_error_caused_in_the_base_points_at_the_base(tmp_path):
    # making the discard pile a zone of each player breaks the base's shared uses of it
    path = variant(tmp_path, "zones:\n  discard: {per_player: true}\n")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    d = info.value.diagnostics[0]
    assert d.location.file == str(CUBIRDS)
    assert "refill_from: discard" in CUBIRDS.read_text().splitlines()[d.location.line - 1]
    assert d.message == ("refill_from links a zone to a single zone: a shared zone to a shared one, a player's "
                         "zone to that player's own or to a shared one; 'discard' cannot refill 'deck'")


def test_removing_what_the_base_uses_points_at_the_removal(tmp_path):
    # one error at the variant's null, naming where the base still uses it; not one per use
    path = variant(tmp_path, "actions:\n  draw: null\n")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    text = CUBIRDS.read_text().splitlines()
    line = next(i for i, l in enumerate(text, 1) if "actions: [draw]" in l)
    col = text[line - 1].index("[draw]") + 2
    assert [(d.code, str(d.location), d.message) for d in info.value.diagnostics] == [
        ("removed-in-use", f"{path}:4:3",
         f"this removes 'draw' (null removes), but it is still used (first at {CUBIRDS}:{line}:{col})")]


def test_an_empty_parameters_section_is_one_error_in_the_variant(tmp_path):
    path = variant(tmp_path, "parameters:\n")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    [d] = info.value.diagnostics
    assert (d.code, str(d.location)) == ("removed-in-use", f"{path}:3:1")
    assert d.message.startswith("'parameters:' is empty (null), which removes every entry of the base's "
                                "'parameters'; still used: ")
    used = d.message.split("still used: ")[1].split(" (first at")[0].split(", ")
    assert len(used) >= 3 and set(used) <= set(load("cubirds").params)
    assert d.hint == "write the entries to change under 'parameters:', or delete the line to keep the base's"


# a variant's parameters are checked against the base's, in the variant's own file ------------------

@pytest.mark.parametrize("body, line, col, code, message, hint", [
    ("  species_to_wn: 5\n", 4, 18, "unknown-parameter",
     "the base ruleset has no parameter 'species_to_wn' and nothing reads it", "did you mean 'species_to_win'?"),
    ("  brand_new: 5\n", 4, 14, "unknown-parameter",
     "the base ruleset has no parameter 'brand_new' and nothing reads it",
     "a variant adds a parameter only for expressions it adds as well"),
    ('  species_to_win: "five"\n', 4, 20, "parameter", "parameter 'species_to_win' takes a whole number, not 'five'",
     None),
    ("  species_to_win: true\n", 4, 19, "parameter", "parameter 'species_to_win' takes a whole number, not True",
     None),
    ("  hand_size: {2: 8, 3: x}\n", 4, 14, "parameter", "parameter 'hand_size' takes a whole number, not 'x'", None),
    ("  refill_end: 3\n", 4, 15, "parameter", "parameter 'refill_end' takes a text, not 3", None),
    ("  refill_end: lft\n", 4, 15, "parameter", "parameter 'refill_end' may be laid, left, right, not 'lft'",
     "did you mean 'left'?"),
])
def test_variant_parameters_are_checked_in_the_variant(tmp_path, body, line, col, code, message, hint):
    path = variant(tmp_path, "parameters:\n" + body)
    with pytest.raises(RulesetError) as info:
        load(str(path))
    assert [(str(d.location), d.code, d.message, d.hint) for d in info.value.diagnostics] == [
        (f"{path}:{line}:{col}", code, message, hint)]


def test_a_variant_may_add_a_parameter_that_it_reads(tmp_path):
    path = variant(tmp_path, "parameters:\n  bonus: 2\nscoring:\n  parts:\n    extra: bonus\n")
    assert load(str(path)).params["bonus"] == 2


def test_a_variant_parameter_that_nothing_reads_any_more_is_a_warning(tmp_path):
    # the variant turns draw_option, and replaces the only action that read it
    path = variant(tmp_path, "parameters:\n  draw_option: 3\nactions:\n  draw:\n    label: draw\n"
                             "    do: [{move: {from: deck, to: me.hand}}]\n")
    rules = load(str(path))
    assert [(str(w.location), w.code, w.message) for w in rules.warnings] == [
        (f"{path}:4:16", "unused", "this variant sets parameter 'draw_option', but no expression reads it "
         "(anything that read it was replaced or removed)")]


def test_a_plain_value_turns_a_long_form_parameter_and_keeps_its_choices(tmp_path):
    ok = load(str(variant(tmp_path, "parameters:\n  refill_end: left\n")))
    assert ok.params["refill_end"] == "left" and ok.param_choices["refill_end"] == ["laid", "left", "right"]
    path = variant(tmp_path, "parameters:\n  refill_end: lft\n", "bad.yaml")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    d = info.value.diagnostics[0]
    assert (d.location.file, d.location.line, d.code) == (str(path), 4, "parameter")
    assert d.hint == "did you mean 'left'?"


def test_missing_base(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: no-such-game\nname: v\n")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    d = info.value.diagnostics[0]
    assert (d.code, d.location.line, d.location.col) == ("extends-missing", 1, 10)


def test_missing_base_file(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: ./nothing.yaml\nname: v\n")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    assert info.value.diagnostics[0].message == "the base ruleset './nothing.yaml' does not exist"


def test_cycle(tmp_path):
    write(tmp_path, "a.yaml", "extends: ./b.yaml\nname: a\n")
    write(tmp_path, "b.yaml", "extends: ./a.yaml\nname: b\n")
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "a.yaml"))
    d = info.value.diagnostics[0]
    assert d.code == "extends-cycle"
    assert d.message == "rulesets extend each other in a circle: a.yaml -> b.yaml -> a.yaml"


def test_chains_of_variants(tmp_path):
    write(tmp_path, "a.yaml", f"extends: {CUBIRDS}\nname: a\nparameters:\n  hand_size: 7\n")
    write(tmp_path, "b.yaml", "extends: ./a.yaml\nname: b\nparameters:\n  draw_option: 3\n")
    rules = load(str(tmp_path / "b.yaml"))
    assert (rules.name, rules.params["hand_size"], rules.params["draw_option"]) == ("b", 7, 3)
    assert [p.split("/")[-1] for p in rules.chain] == ["cubirds.yaml", "a.yaml", "b.yaml"]


# the shipped variants really differ where they should ----------------------------------------

def test_bga_setup_variant_sends_duplicates_back_to_the_deck():
    base, bga = load("cubirds"), load("cubirds-bga-setup")
    differ = 0
    for seed in range(30):
        a, b = Game.new(base, 3, seed=seed), Game.new(bga, 3, seed=seed)
        assert labels(b, "discard") == []
        differ += labels(a, "discard") != []
    assert differ > 0


def test_three_perches_variant_uses_three_perches_with_two_players():
    base, three = load("piepmatz"), load("piepmatz-three-perches")
    a, b = Game.new(base, 2, seed=1), Game.new(three, 2, seed=1)
    assert [len(labels(a, "perch", index=i)) for i in range(3)] == [1, 1, 0]
    assert [len(labels(b, "perch", index=i)) for i in range(3)] == [1, 1, 1]
    assert any(o.endswith("perch 3") for o in b.decision.options)
    assert not any(o.endswith("perch 3") for o in a.decision.options)


def test_pairs_variant_is_flagged_for_its_card_total():
    rules = load("cubirds-pairs")
    assert [(w.code, w.message) for w in rules.warnings] == [
        ("card-total", "'bird' declares 110 cards but its rows define 105")]
    game = Game.new(rules, 2, seed=0)
    assert len(labels(game, "hand", owner=0)) == 7 and len(labels(game, "row")) == 3


def test_songbirds_variant_plays_its_own_game():
    rules = load("piepmatz-songbirds")
    game = Game.new(rules, 3, seed=0)
    assert len(labels(game, "area")) == 4
    assert all(len(labels(game, "hand", owner=p)) == 5 for p in range(3))
    assert game.decision.options[0].startswith("take ")
