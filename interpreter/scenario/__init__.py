"""Scenario files: a ruleset, a starting position and steps (choices, changes, random outcomes, expectations) ->
pass or the failures found, by playing them through the real interpreter (format in docs/scenarios.md).

Modules along the way: `words` (the author's words), `arrange` (setup and set), `forms` (what an
option label could be), `chance` (random outcomes), `expect` (expectations), `run` (one scenario),
`report` (text, JSON, JUnit XML).
"""
from __future__ import annotations

from pathlib import Path

import os

from ..errors import RulebookError, RulesetError
from ..source import read_file
from .arrange import STAGING, Table, zone_slot
from .expect import MATCHERS
from .report import Failure, ScenarioResult, format_results, junit_xml, results_json, summary
from .run import _Run
from .words import ScenarioError, card_ids, expand, players_prefix, same, seat, show

__all__ = ["run_scenario", "run_scenarios", "scenario_files", "format_results", "results_json", "junit_xml",
           "summary", "ScenarioResult", "ScenarioError", "Failure", "STAGING", "MATCHERS", "Table", "card_ids",
           "expand", "players_prefix", "same", "seat", "show", "zone_slot"]


def run_scenario(path) -> ScenarioResult:
    """Play one scenario file; every problem, in the file or in the game, becomes a failure line."""
    _check_path(path, "run_scenario")
    result = ScenarioResult(Path(path).stem, str(path))
    try:
        source = read_file(path)
    except RulesetError as exc:
        result.failures += [Failure(f"{d.location}: {d.message}" if d.location else d.message, None, d.location,
                                    d.location is not None) for d in exc.diagnostics]
        return result
    run = _Run(source, result)
    try:
        run.start(source.data)
        run.run(source.data.get("steps", []))
    except ScenarioError as exc:
        loc = run.where(exc)
        result.failures.append(Failure(f"{loc}: " + (f"step {run.step}: " if run.step else "") + exc.message,
                                       run.step or None, loc, True))
    return result


def _check_path(path, where: str) -> None:
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise RulebookError(f"{where} takes the path of a scenario file or folder, not {path!r:.40}")


def scenario_files(paths) -> list:
    """The files to run: each file given, and the .yaml files directly inside each folder given."""
    return [f for p in map(Path, paths) for f in (sorted(p.glob("*.yaml")) if p.is_dir() else [p])]


def run_scenarios(paths) -> tuple[list, int]:
    """Run scenario files and folders (a list of paths, or one path); the exit code is 0 when there were
    some and all passed, else 1."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if not isinstance(paths, (list, tuple)):
        raise RulebookError(f"run_scenarios takes a list of files and folders, not {type(paths).__name__}")
    for p in paths:
        _check_path(p, "run_scenarios")
    results = [run_scenario(p) for p in scenario_files(paths)]
    if not results:
        results = [ScenarioResult("no scenarios", ", ".join(map(str, paths)),
                                  [Failure("no scenario files were found")])]
    return results, 0 if all(r.passed for r in results) else 1
