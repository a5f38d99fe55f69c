"""Golden transcripts: seeded games replayed and diffed line by line against tests/golden/*.txt."""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
sys.path.insert(0, str(GOLDEN))

from regenerate import GAMES, render, transcript_name  # noqa: E402
from helpers import shipped_rulesets  # noqa: E402


@pytest.mark.parametrize("case", GAMES, ids=lambda c: transcript_name(*c))
def test_transcript_matches_golden(case):
    expected = (GOLDEN / transcript_name(*case)).read_text(encoding="utf-8")
    actual = render(*case)
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            "golden", "now", n=2))
        pytest.fail("transcript differs (regenerate with tests/golden/regenerate.py if intended):\n" + diff[:4000])


def test_every_shipped_ruleset_has_a_golden_transcript():
    covered = {case[0] for case in GAMES}
    missing = [p.stem for p in shipped_rulesets() if p.stem not in covered]
    assert not missing, f"rulesets without golden transcripts: {missing}"


def test_transcripts_are_deterministic():
    case = GAMES[0]
    assert render(*case) == render(*case)
