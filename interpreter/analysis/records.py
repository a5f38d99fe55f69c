"""Per-game records -> flat rows with documented columns, written as JSON lines (.jsonl) or CSV (.csv).

The columns (docs/simulation.md lists them): `ruleset`, `game`, `seed`, `players`, `params`, then per
seat `agent_P1`..., `winners` (seats, `P1;P3` in CSV), `win_P1`... (1 if that seat won or shared the
win), `shared`, `stalled`, `tie_break_used`, `reason`, `turns`, `rounds`, `decisions`,
`score_P1_<part>`... and `score_P1_total`..., then `counter_<name>`..., and where the run measured the
course of its games, `course_<metric>`... (analysis/course.py). A comparison adds `side` (A or B) and
`label` first.
"""
from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path

from ..errors import RulebookError

FORMATS = {".jsonl": "jsonl", ".csv": "csv"}


def seat(i: int) -> str:
    return f"P{i + 1}"


def flat_row(ruleset: str, record: dict, extra: dict | None = None) -> dict:
    """One game's record as a flat row: one column per value, so a table program needs no unpacking."""
    row = dict(extra or {})
    row.update({"ruleset": ruleset, "game": record["game"], "seed": record["seed"], "players": record["players"],
                "params": record["params"]})
    n = record["players"]
    for i, name in enumerate(record["agents"]):
        row[f"agent_{seat(i)}"] = name
    winners = record["winners"]
    row["winners"] = [seat(w) for w in winners]
    for i in range(n):
        row[f"win_{seat(i)}"] = int(i in winners)
    row.update({"shared": len(winners) > 1, "stalled": record["stalled"], "tie_break_used": record["tie_break_used"],
                "reason": record["reason"], "turns": record["turns"], "rounds": record["rounds"],
                "decisions": record["decisions"]})
    for i, scores in enumerate(record["scores"]):
        for part, value in scores.items():
            row[f"score_{seat(i)}_{part}"] = value
    for name, value in record["counters"].items():
        row[f"counter_{name}"] = value
    for name, value in (record.get("metrics") or {}).items():
        row[f"course_{name}"] = value
    return row


def record_format(path: str) -> str | None:
    """'jsonl' or 'csv' by the file's extension; None for any other."""
    return FORMATS.get(Path(path).suffix.lower())


class RecordWriter:
    """Writes rows to a .jsonl or .csv file as games finish (a long run keeps no rows in memory).

    The rows go to a temporary file beside the target, which replaces the target only when the run
    succeeds: a run that fails or is interrupted leaves an existing file as it was."""

    def __init__(self, path: str, columns: list[str]):
        self.path = path
        self.format = record_format(path)
        target = Path(path)
        try:
            handle, self.partial = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                                    dir=target.parent)
            self.file = os.fdopen(handle, "w", encoding="utf-8", newline="")
        except OSError as exc:
            raise RulebookError(f"cannot write {path}: {exc.strerror}") from None
        self.rows = 0
        self.csv = None
        if self.format == "csv":
            self.csv = csv.DictWriter(self.file, fieldnames=columns, restval="", extrasaction="raise")
            self.csv.writeheader()

    def write(self, row: dict) -> None:
        self.rows += 1
        if self.csv is not None:
            self.csv.writerow({k: _cell(v) for k, v in row.items()})
        else:
            self.file.write(json.dumps(row, ensure_ascii=False) + "\n")

    def close(self, keep: bool = True) -> None:
        """Finish the file and put it in place (`keep`), or throw the rows away."""
        self.file.close()
        if not keep:
            os.unlink(self.partial)
            return
        try:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self.partial, 0o666 & ~umask)   # as open() would have made it, not mkstemp's 0600
            os.replace(self.partial, self.path)
        except OSError as exc:
            os.unlink(self.partial)
            raise RulebookError(f"cannot write {self.path}: {exc.strerror}") from None


def _cell(value):
    """A CSV cell: lists joined with ';', parameter overrides as name=value;..., booleans as 0/1."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list):
        return ";".join(map(str, value))
    if isinstance(value, dict):
        return ";".join(f"{k}={v}" for k, v in value.items())
    return value


def columns(score_parts: list[str], players: int, counter_names: list[str], extra: list[str] = (),
            metrics: tuple = ()) -> list[str]:
    """The column names of a run's rows, in order (`score_parts` with "total"; a comparison passes
    the parts and counters of both rulesets; `metrics`: the course-of-game metrics the run measures, from
    analysis/course.METRICS)."""
    cols = list(extra) + ["ruleset", "game", "seed", "players", "params"]
    cols += [f"agent_{seat(i)}" for i in range(players)] + ["winners"] + [f"win_{seat(i)}" for i in range(players)]
    cols += ["shared", "stalled", "tie_break_used", "reason", "turns", "rounds", "decisions"]
    cols += [f"score_{seat(i)}_{part}" for i in range(players) for part in score_parts]
    cols += [f"counter_{name}" for name in counter_names]
    cols += [f"course_{name}" for name in metrics]
    return cols
