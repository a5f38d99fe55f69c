"""The cache of `list` and `validate` results: used while nothing changed, never trusted when anything did."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import cli
from interpreter import cache
from helpers import ROOT

CUBIRDS = (ROOT / "rulesets" / "cubirds.yaml").read_text()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(where))
    return where


def validate(path):
    result = CliRunner().invoke(cli, ["validate", str(path)])
    return result.exit_code, result.output


def entries(folder, kind="validate"):
    return sorted(folder.glob(f"{kind}-*.json"))


def test_validate_answers_from_the_cache_with_the_same_output(folder, tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text(CUBIRDS.replace("when: took == 0", "when: tok == 0"))
    first = validate(game)
    assert first[0] == 1 and "unknown name 'tok'" in first[1]
    [entry] = entries(folder)
    # the stored entry is what the second run prints: make it say something else, with a valid checksum
    data = json.loads(entry.read_text())
    data["body"]["result"][0]["message"] = "from the cache"
    data["check"] = cache._checksum(data["body"])
    entry.write_text(json.dumps(data))
    code, out = validate(game)
    assert code == 1 and "from the cache" in out and "unknown name 'tok'" not in out


def test_a_changed_ruleset_is_checked_again(folder, tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text(CUBIRDS.replace("when: took == 0", "when: tok == 0"))
    assert validate(game)[0] == 1
    game.write_text(CUBIRDS)
    assert validate(game) == (0, f"{game}: ok\n")


def test_a_changed_base_makes_its_variants_stale(folder, tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text(CUBIRDS)
    variant = tmp_path / "variant.yaml"
    variant.write_text(f"extends: {base}\nname: v\nparameters: {{hand_size: 7}}\n")
    assert validate(variant) == (0, f"{variant}: ok\n")
    base.write_text(CUBIRDS.replace("when: took == 0", "when: tok == 0"))
    code, out = validate(variant)
    assert code == 1 and "unknown name 'tok'" in out


@pytest.mark.parametrize("damage", [
    "not json at all {",
    "{}",
    '{"format": 1, "code": "x", "body": {"files": [], "result": []}, "check": "y"}',
])
def test_a_damaged_or_foreign_entry_is_ignored_and_written_again(folder, tmp_path, damage):
    game = tmp_path / "game.yaml"
    game.write_text(CUBIRDS.replace("when: took == 0", "when: tok == 0"))
    expected = validate(game)
    [entry] = entries(folder)
    entry.write_text(damage)
    assert validate(game) == expected
    assert json.loads(entry.read_text())["code"] == cache.code_hash()


def test_an_entry_whose_checksum_does_not_match_is_not_trusted(folder, tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text(CUBIRDS)
    assert validate(game)[0] == 0
    [entry] = entries(folder)
    data = json.loads(entry.read_text())
    data["body"]["result"] = [cache.diagnostic_data(cache.diagnostic_of(
        {"code": "x", "message": "forged", "severity": "error", "hint": None, "path": [], "location": None}))]
    entry.write_text(json.dumps(data))   # the checksum is the old one
    assert validate(game) == (0, f"{game}: ok\n")


def test_other_interpreter_code_makes_every_entry_stale(folder, tmp_path, monkeypatch):
    game = tmp_path / "game.yaml"
    game.write_text(CUBIRDS)
    validate(game)
    assert cache.lookup("validate", str(game)) == []
    monkeypatch.setattr(cache, "_code", "another version")
    assert cache.lookup("validate", str(game)) is None


def test_list_uses_the_cache_and_prints_the_same(folder):
    first = CliRunner().invoke(cli, ["list"])
    assert first.exit_code == 0 and len(entries(folder, "list")) >= 12
    second = CliRunner().invoke(cli, ["list"])
    assert second.output == first.output


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", "off")
    game = tmp_path / "game.yaml"
    game.write_text(CUBIRDS)
    assert validate(game) == (0, f"{game}: ok\n")
    assert cache.cache_dir() is None and cache.lookup("validate", str(game)) is None


def test_diagnostics_come_back_as_they_were():
    from interpreter.errors import Diagnostic, Location
    d = Diagnostic("unknown-name", "unknown name 'x'", Location("a.yaml", 3, 7, "  when: x\n"), "error",
                   "did you mean 'y'?", ("flow", 0))
    back = cache.diagnostic_of(json.loads(json.dumps(cache.diagnostic_data(d))))
    assert back == d and back.render() == d.render()


def test_the_command_line_names_the_runners_backends():
    # cli.py names them itself so that `list` and `validate` do not import the engine
    import cli as command_line
    from interpreter.analysis.runner import BACKENDS
    assert command_line.BACKENDS == BACKENDS
