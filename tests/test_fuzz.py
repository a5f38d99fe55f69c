"""Property tests: mutated shipped rulesets load into a Ruleset or fail with the project's own error -
never another exception, never a hang - and games of whatever loads run or fail the same way; damaged
saves are refused or play on; random API calls get an answer or the project's error.

The targets live in fuzzing.py; `python benchmarks/fuzz_long.py` runs them much longer and prints
what they tried and found."""
from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

import fuzzing
from helpers import shipped_rulesets
from interpreter import RulebookError, load



def fast(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


@fast(150)
@given(st.sampled_from(sorted(fuzzing.SOURCES)), st.data())
def test_structural_mutations(name, data):
    fuzzing.structural(name, data)


@fast(80)
@given(name=st.sampled_from(sorted(fuzzing.VARIANTS)), data=st.data())
def test_variant_mutations_load_over_their_base_or_fail_in_the_projects_errors(name, data, tmp_path_factory):
    fuzzing.variant(name, data, tmp_path_factory.mktemp("variant"))


@fast(150)
@given(st.sampled_from(sorted(fuzzing.SOURCES)), st.data())
def test_text_mutations(name, data):
    fuzzing.textual(name, data)


@fast(40)
@given(st.sampled_from(sorted(fuzzing.SOURCES)), st.data())
def test_expression_mutations_fail_only_in_the_projects_errors(name, data):
    fuzzing.expression(name, data)


@fast(80)
@given(st.data())
def test_damaged_saves_are_refused_or_play_on(data):
    fuzzing.damaged_save(data.draw(st.sampled_from(sorted(fuzzing.saves()))), data)


@fast(30)
@given(st.data())
def test_random_api_calls_answer_or_refuse(data):
    fuzzing.api_calls(data)



def card_attribute_deletions():
    """Every bundled ruleset with one key of its cards' entries deleted (an attribute, or one of the
    attributes an entry's `each` makes cards of)."""
    for path in shipped_rulesets():
        data = fuzzing.read_file(path).data
        for where in fuzzing.paths(data.get("components") or {}, ("components",)):
            parent = fuzzing._at(data, where[:-1]) if len(where) > 4 else None
            if isinstance(parent, dict) and "cards" in where:
                yield pytest.param(path, where, id=f"{path.stem}-" + "-".join(map(str, where[1:])))


@pytest.mark.parametrize("path,where", list(card_attribute_deletions()))
def test_a_card_attribute_deleted_is_refused_or_loads(path, where, tmp_path):
    """The songbirds variant with one card attribute deleted once raised AttributeError while it loaded."""
    mutant = fuzzing.mutate(fuzzing.read_file(path).data, where, "delete", None)
    (tmp_path / path.name).write_text(yaml.safe_dump(mutant, allow_unicode=True, sort_keys=False))
    try:
        load(str(tmp_path / path.name))
    except RulebookError:
        pass
