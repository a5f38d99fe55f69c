"""A folder of bad rulesets, each beside the exact diagnostics `rulebook validate` must print."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

BAD = Path(__file__).resolve().parent / "bad"
sys.path.insert(0, str(BAD.parent.parent))

from cli import cli  # noqa: E402

CASES = sorted(BAD.glob("*.yaml"))


def test_there_are_at_least_forty_cases():
    assert len(CASES) >= 40
    assert all(c.with_suffix(".expected").is_file() for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_diagnostics_match_exactly(case):
    expected = case.with_suffix(".expected").read_text(encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(BAD)
    try:
        result = CliRunner().invoke(cli, ["validate", case.name])
    finally:
        os.chdir(cwd)
    actual = result.output + f"exit {result.exit_code}\n"
    assert actual == expected, "regenerate with tests/bad/regenerate.py if the change is intended"
    assert result.exit_code == 1


def test_json_format_carries_the_same_places():
    case = BAD / "23-unknown-name.yaml"
    os.chdir(BAD)
    try:
        result = CliRunner().invoke(cli, ["validate", "--format", "json", case.name])
    finally:
        os.chdir(BAD.parent.parent)
    import json
    d = json.loads(result.output)[0]["diagnostics"][0]
    assert (d["line"], d["col"], d["code"], d["message"], d["hint"]) == (
        37, 28, "unknown-name", "unknown name 'hand_sise'", "did you mean 'hand_size'?")
