"""`rulebook new variant`: a commented starting file that validates as it is and turns a parameter when edited."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from interpreter import load
from helpers import shipped_rulesets
from cli import cli

BASES = [p.stem for p in shipped_rulesets()]


@pytest.mark.parametrize("base", BASES)
def test_new_variant_validates_and_changes_nothing(base, tmp_path):
    target = tmp_path / "mine.yaml"
    result = CliRunner().invoke(cli, ["new", "variant", base, str(target)])
    assert result.exit_code == 0, result.output
    text = target.read_text()
    assert f"extends: {base}" in text
    rules, original = load(str(target)), load(base)
    assert rules.name == "mine"
    assert rules.params == original.params
    for name in original.params:
        assert f"#   {name}: " in text


def test_uncommenting_a_parameter_turns_it(tmp_path):
    target = tmp_path / "three.yaml"
    CliRunner().invoke(cli, ["new", "variant", "piepmatz", str(target)])
    text = target.read_text().replace("# parameters:", "parameters:").replace(
        "#   perches: {2: 2, 3: 2, 4: 3}", "  perches: 3")
    target.write_text(text)
    assert load(str(target)).params["perches"] == 3


def test_new_variant_of_a_file_refers_to_it_by_relative_path(tmp_path):
    base = tmp_path / "games" / "base.yaml"
    base.parent.mkdir()
    base.write_text((shipped_rulesets()[0]).read_text())
    target = tmp_path / "variants" / "v.yaml"
    target.parent.mkdir()
    result = CliRunner().invoke(cli, ["new", "variant", str(base), str(target)])
    assert result.exit_code == 0
    assert "extends: ../games/base.yaml" in target.read_text()
    assert load(str(target)).name == "v"


def test_new_variant_does_not_overwrite(tmp_path):
    target = tmp_path / "x.yaml"
    target.write_text("keep me")
    result = CliRunner().invoke(cli, ["new", "variant", "cubirds", str(target)])
    assert result.exit_code == 2 and target.read_text() == "keep me"


def test_new_variant_into_a_missing_folder_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(cli, ["new", "variant", "cubirds", str(tmp_path / "no" / "such" / "v.yaml")])
    assert result.exit_code == 1
    assert "cannot write" in result.output and "Traceback" not in result.output
