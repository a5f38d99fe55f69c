"""A ruleset, a table and a number of games -> per-game records and the run's statistics."""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..agents import make_agent
from ..engine.game import Game
from ..errors import GameError, Location
from .course import METRICS
from .records import columns, flat_row
from .runner import Batch, Runner, RulesetRef
from .summary import Tally, summarise


def seat_agents(names: list[str], players: int) -> list[str]:
    """Agent names for each seat: the list given, repeated to fill the table."""
    if not names:
        names = ["random"]
    return [names[i % len(names)] for i in range(players)]


def counter_names(rules) -> list[str]:
    """The variables the ruleset declares as counters (reported per game and per round)."""
    return list(getattr(rules, "counters", None) or [])


def score_parts(rules) -> list[str]:
    """The score parts of every row, in order, ending with the total."""
    return [name for name, _ in rules.scoring.parts] + ["total"]


@dataclass
class Table:
    """One side of a run: a ruleset at a table of seated agents, with parameter overrides."""

    rules: object
    players: int
    seats: list
    params: dict
    course: int = 0     # 1: measure the course-of-game metrics; 2: also keep a row per decision

    def check(self, seed: int) -> None:
        """Refuse an unknown agent, a player count or a parameter the ruleset does not allow, before any
        game is sent to a worker (the messages are the engine's own)."""
        for name in set(self.seats):
            make_agent(name)
        Game.new(self.rules, self.players, seed=seed, params=self.params, record=False)

    def batch(self, seed: int, games: int, track_actions: bool = False) -> Batch:
        return Batch(RulesetRef.of(self.rules), self.players, tuple(self.seats), seed, games,
                     tuple(self.params.items()), track_actions, course=self.course)

    def columns(self, extra=()) -> list[str]:
        return columns(score_parts(self.rules), self.players, counter_names(self.rules), extra,
                       METRICS if self.course else ())


@dataclass
class Run:
    """A finished run: its statistics and the compact per-game data behind them (for plots, comparisons)."""

    summary: dict
    tally: Tally


def game_failed(rules, record: dict) -> GameError:
    """A game that raised an error: its message, with the seed that reproduces it."""
    exc = GameError(f"{rules.name}, game seed {record['seed']}: {record['error']}", "game")
    exc.location = error_place(record)
    return exc


def error_place(record: dict) -> Location | None:
    """Where in the ruleset a failed game's error was raised (runner.play_game), or None."""
    at = record.get("error_at")
    return None if at is None else Location(*at)


def run_tables(tables: list[Table], games: int, seed: int, runner: Runner | None = None, progress=None,
               on_row=None, on_course=None) -> tuple[list[Tally], float]:
    """Play `games` games at each table on seeds seed, seed+1, ... -> one Tally per table and the wall time.

    `on_row(table index, flat row)` sees every game as it is tallied (the record file), `on_course(table
    index, row)` every decision of a game whose table keeps them (the --course file)."""
    runner = runner or Runner()
    for table in tables:
        table.check(seed)
    tallies = [Tally(t.players, t.seats, counter_names(t.rules)) for t in tables]
    start = time.perf_counter()
    for index, record in runner.run([t.batch(seed, games) for t in tables], progress):
        if record["error"] is not None:
            raise game_failed(tables[index].rules, record)
        tallies[index].add(record)
        if on_row is not None:
            on_row(index, flat_row(tables[index].rules.name, record))
        if on_course is not None:
            head = {"ruleset": tables[index].rules.name, "game": record["game"], "seed": record["seed"]}
            for row in record.get("course", ()):
                on_course(index, {**head, **row})
    return tallies, time.perf_counter() - start


def run_simulation(rules, games: int, players: int, agent_names: list[str], seed: int = 0, params=None,
                   runner: Runner | None = None, progress=None, on_row=None, course: int = 0,
                   on_course=None) -> Run:
    """Games seed, seed+1, ... of one ruleset -> its statistics and per-game data; `course` 1 measures
    the course-of-game metrics, 2 also passes every decision's row to `on_course(row)`."""
    runner = runner or Runner()
    table = Table(rules, players, seat_agents(agent_names, players), dict(params or {}), course)
    (tally,), seconds = run_tables([table], games, seed, runner, progress,
                                   on_row and (lambda _, row: on_row(row)),
                                   on_course and (lambda _, row: on_course(row)))
    meta = {"ruleset": rules.name, "players": players, "seed": seed, "params": table.params,
            "seconds": seconds, "jobs": runner.jobs, "backend": runner.backend}
    return Run(summarise(tally, meta), tally)


def simulate(rules, games: int, players: int, agent_names: list[str], seed: int = 0, params=None,
             progress=None, runner: Runner | None = None) -> dict:
    """Run `games` games with seeds seed, seed+1, ... and summarise them."""
    return run_simulation(rules, games, players, agent_names, seed, params, runner, progress).summary
