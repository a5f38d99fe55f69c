"""Property tests: mutated shipped rulesets load into a Ruleset or fail with the project's own error -
never another exception, never a hang - and games of whatever loads run or fail the same way; damaged
saves are refused or play on; random API calls get an answer or the project's error.

The targets live in fuzzing.py; `python benchmarks/fuzz_long.py` runs them much longer and prints
what they tried and found."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

import fuzzing



def fast(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


@fast(150)
@given(st.sampled_from(sorted(fuzzing.SOURCES)), st.data())
def test_structural_mutations(name, data):
    fuzzing.structural(name, data)


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

