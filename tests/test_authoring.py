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


MODELINE = "# yaml-language-server: $schema="


def test_new_variant_names_a_schema_an_editor_can_open(tmp_path):
    import json
    from jsonschema import Draft202012Validator
    from interpreter.bundled import schema_path
    from interpreter.source import read_file
    target = tmp_path / "v.yaml"
    r = CliRunner().invoke(cli, ["new", "variant", "pit", str(target)])
    assert r.exit_code == 0
    first = target.read_text().splitlines()[0]
    # outside rulebook's own project: a copy of the schema beside the file, named by its file name (an
    # absolute path into the installation breaks when it moves)
    assert first == MODELINE + "ruleset.schema.json"
    schema_file = target.parent / "ruleset.schema.json"
    assert schema_file.read_text() == schema_path().read_text()
    assert f"wrote {schema_file}: the ruleset schema" in r.output
    validator = Draft202012Validator(json.loads(schema_file.read_text()))
    assert list(validator.iter_errors(read_file(target).data)) == []
    # a second variant in the same folder uses the copy already there
    r2 = CliRunner().invoke(cli, ["new", "variant", "pit", str(tmp_path / "w.yaml")])
    assert r2.exit_code == 0 and "the ruleset schema" not in r2.output
    assert (tmp_path / "w.yaml").read_text().splitlines()[0] == MODELINE + "ruleset.schema.json"


@pytest.mark.parametrize("where, expected", [
    ("my-games/v.yaml", "../schema/ruleset.schema.json"),          # inside the project: relative
    ("my-games/deeper/v.yaml", "../../schema/ruleset.schema.json"),
])
def test_the_schema_path_is_relative_within_a_project(where, expected):
    from cli import _schema_ref
    from helpers import ROOT
    assert _schema_ref(ROOT / where) == (expected, None)
