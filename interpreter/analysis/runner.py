"""Batches of seeded games -> one record per game, in game order: in this process, on local processes or as Ray tasks.

Game i of a batch always uses seed `first_seed + i` and its agents seeds derived from that seed, so
the records (everything but timings) are the same whichever backend plays them and however many
jobs share the work.
"""
from __future__ import annotations

import concurrent.futures as cf
import logging
import math
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass

import yaml

from ..agents import Request, checked, make_agent
from ..engine.game import Game
from ..errors import GameError, RulebookError
from .course import Course

BACKENDS = ("local", "ray")
MAX_CHUNK = 100          # games per task: small enough for steady progress and a quick stop
_RULESETS: dict[str, object] = {}   # fingerprint -> compiled Ruleset, in this process


@dataclass(frozen=True)
class RulesetRef:
    """A ruleset any process can rebuild: its merged YAML text and the fingerprint it must compile to."""

    name: str
    text: str
    fingerprint: str

    @classmethod
    def of(cls, rules) -> "RulesetRef":
        _RULESETS.setdefault(rules.fingerprint, rules)
        text = yaml.safe_dump(rules.data, sort_keys=False, allow_unicode=True)
        return cls(rules.name, text, rules.fingerprint)

    def load(self):
        """The compiled ruleset: the one already in this process, else compiled from the text once."""
        rules = _RULESETS.get(self.fingerprint)
        if rules is None:
            from .. import load_text
            rules = load_text(self.text, f"<{self.name}>")
            if rules.fingerprint != self.fingerprint:
                raise RulebookError(f"ruleset '{self.name}' compiles differently on this worker: "
                                    "is the same version of rulebook installed everywhere?")
            _RULESETS[self.fingerprint] = rules
        return rules


@dataclass(frozen=True)
class Batch:
    """Games to play: one ruleset at one table; game i of the batch is played on seed first_seed + i."""

    ruleset: RulesetRef
    players: int
    seats: tuple                 # the agent's name at each seat
    first_seed: int = 0
    games: int = 1
    params: tuple = ()           # (name, value) parameter overrides
    track_actions: bool = False  # note the actions taken (for validate --simulate)
    timed: bool = False          # count and time each seat's decisions (for tournaments; timings vary by run)
    course: int = 0              # the course of each game: 1 its metrics, 2 also a row per decision (--course)


def play_game(rules, batch: Batch, index: int) -> dict:
    """Play game `index` of a batch -> its record (plain data; 'error' holds a game error's message)."""
    seed = batch.first_seed + index
    record = {"game": index, "seed": seed, "players": batch.players, "agents": list(batch.seats),
              "params": dict(batch.params), "error": None}
    taken: set[str] = set()
    asked = 0   # the turn of the last decision (a game that reaches its turn limit long after it loops)
    decisions, seconds = [0] * batch.players, [0.0] * batch.players
    course = Course(rules, batch.players, batch.course > 1) if batch.course else None
    try:
        # validate --simulate (track_actions) also writes the log and the labels, as play does, so that
        # a text that fails there is found
        game = Game.new(rules, batch.players, seed=seed, params=dict(batch.params), record=batch.track_actions)
        agents = [make_agent(name, seed=seed * 1000 + seat) for seat, name in enumerate(batch.seats)]
        while not game.is_over:
            who = game.current_player
            if batch.timed:
                start = time.perf_counter()
                choice = agents[who].choose(Request(game, who))
                seconds[who] += time.perf_counter() - start
                decisions[who] += 1
            else:
                choice = agents[who].choose(Request(game, who))
            choice = checked(choice, game, agents[who])
            if course is not None:
                course.observe(game, who, len(game.state.pending[2]), getattr(agents[who], "estimate", None))
            if batch.track_actions:
                game.legal_options()   # the labels and the prompt
                asked = game.state.turn
                node_id, _, options = game.state.pending
                actions = getattr(rules.nodes[node_id], "actions", None)
                if actions and options[choice][0] >= 0:
                    taken.add(actions[options[choice][0]].name)
            game.apply(choice)
    except GameError as exc:
        record["error"] = str(exc)
        loc = exc.location   # where in the ruleset, for the line and caret under the message (plain data)
        record["error_at"] = None if loc is None else [loc.file, loc.line, loc.col, loc.source_line]
        return record
    result = game.result
    record.update({
        "winners": list(result["winners"]), "stalled": result["stalled"], "tie_break_used": result["tie_break_used"],
        "reason": result["reason"], "turns": result["turns"], "rounds": result["rounds"],
        "decisions": len(game.state.history), "scores": [dict(row) for row in result["scores"]],
        "counters": counters(rules, game),
    })
    if batch.track_actions:
        record["actions"] = sorted(taken)
        record["last_decision_turn"] = asked
    if batch.timed:
        record.update({"seat_decisions": decisions, "seat_seconds": seconds})
    if course is not None:
        course.close(result)
        record["metrics"] = course.metrics(record["winners"])
        if batch.course > 1:
            record["course"] = course.rows
    return record


def counters(rules, game) -> dict:
    """The values of the variables the ruleset declares as counters at the end of a game
    (a player variable counts for all players together)."""
    out = {}
    for name in getattr(rules, "counters", ()):
        if name in game.state.vars:
            out[name] = game.state.vars[name]
        elif name in game.state.pvars:
            out[name] = sum(game.state.pvars[name])
    return out


def run_chunk(batch: Batch, start: int, count: int) -> list[dict]:
    """Games start .. start+count-1 of a batch (the unit of work a process or a Ray task does)."""
    rules = batch.ruleset.load()
    return [play_game(rules, batch, i) for i in range(start, start + count)]


class Runner:
    """Where games are played: `jobs` local processes (1: this process, 0: one per CPU) or Ray tasks
    on a local Ray (with `jobs` CPUs) or on the cluster at `address`."""

    def __init__(self, jobs: int = 1, backend: str = "local", address: str | None = None):
        if backend not in BACKENDS:
            raise RulebookError(f"unknown backend '{backend}' (backends: {', '.join(BACKENDS)})")
        self.backend = backend
        self.jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
        self.address = address

    def run(self, batches: list[Batch], progress=None):
        """(batch index, record) for every game of every batch, in order; `progress(n)` after n more games."""
        progress = progress or (lambda n: None)
        if self.backend == "ray":
            yield from self._run_ray(batches, progress)
        elif self.jobs == 1:
            for b, batch in enumerate(batches):
                rules = batch.ruleset.load()
                for i in range(batch.games):
                    yield b, play_game(rules, batch, i)
                    progress(1)
        else:
            yield from self._run_processes(batches, progress)

    def _chunks(self, batches, workers: int) -> list[tuple[int, int, int]]:
        """(batch index, first game, games): about 8 tasks per worker, so that they finish together."""
        total = sum(b.games for b in batches)
        size = max(1, min(MAX_CHUNK, math.ceil(total / (workers * 8))))
        return [(b, start, min(size, batch.games - start))
                for b, batch in enumerate(batches) for start in range(0, batch.games, size)]

    def _run_processes(self, batches, progress):
        ctx = multiprocessing.get_context(_start_method())
        chunks = self._chunks(batches, self.jobs)
        pool = cf.ProcessPoolExecutor(max_workers=self.jobs, mp_context=ctx, initializer=_worker_init)
        try:
            def submit(k):
                b, start, count = chunks[k]
                return pool.submit(run_chunk, batches[b], start, count)

            def wait(handles):
                done, _ = cf.wait(handles, return_when=cf.FIRST_COMPLETED)
                return done

            for k, records in _ordered(chunks, submit, wait, lambda f: f.result(), self.jobs * 4, progress):
                for record in records:
                    yield chunks[k][0], record
        except BaseException:
            _stop(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _run_ray(self, batches, progress):
        try:
            import ray
        except ImportError:
            raise RulebookError("--backend ray needs Ray: pip install 'rulebook[ray]'") from None
        started = not ray.is_initialized()
        if started:
            options = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
            if self.address:
                _reachable(self.address)
            try:
                if self.address:
                    ray.init(address=self.address, **options)
                else:
                    ray.init(num_cpus=self.jobs, **options)
            except Exception as exc:   # Ray raises several kinds (ConnectionError, RuntimeError, ValueError)
                where = f"at {self.address}" if self.address else "locally"
                raise RulebookError(f"cannot start Ray {where}: {exc}") from None
        try:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
            chunks = self._chunks(batches, workers)
            task = ray.remote(run_chunk)
            stored = [ray.put(batch) for batch in batches]

            def submit(k):
                b, start, count = chunks[k]
                return task.remote(stored[b], start, count)

            def wait(handles):
                ready, _ = ray.wait(list(handles), num_returns=1)
                return ready

            for k, records in _ordered(chunks, submit, wait, ray.get, workers * 4, progress):
                for record in records:
                    yield chunks[k][0], record
        finally:
            if started:
                ray.shutdown()


def _ordered(chunks, submit, wait, get, window: int, progress):
    """(chunk index, result) in chunk order, with at most `window` chunks in flight; progress as each ends."""
    handles: dict = {}     # handle -> chunk index, for chunks in flight
    done: dict = {}
    submitted = 0
    for k in range(len(chunks)):
        while submitted < len(chunks) and submitted - k < window:
            handles[submit(submitted)] = submitted
            submitted += 1
        while k not in done:
            for handle in wait(handles.keys()):
                j = handles.pop(handle)
                done[j] = get(handle)
                progress(chunks[j][2])
        yield k, done.pop(k)


def _reachable(address: str) -> None:
    """Fail at once when nothing listens at a cluster's host:port (Ray itself would retry for minutes)."""
    host, _, port = address.split("://")[-1].rpartition(":")
    if not host or not (port.isascii() and port.isdigit()):
        return   # "auto", "local" and other forms Ray understands by itself
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise RulebookError(f"cannot reach a Ray cluster at {address}: {exc.strerror or exc}") from None


def _start_method() -> str:
    """fork where it is safe (Linux, no other thread here): workers start at once with the compiled
    ruleset; else forkserver (a clean server process forks the workers), else spawn."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _worker_init():
    # Ctrl-C reaches every process of the terminal; the parent stops the workers itself. The parent stops
    # them with SIGTERM (_stop): a forked worker must not keep a handler of the parent's that raises there
    # (the CLI's turns it into KeyboardInterrupt, which printed a traceback and could leave the pool's
    # queue locked, the parent waiting for ever).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop(pool):
    """End the pool's worker processes now (they hold only games in progress)."""
    stop = getattr(pool, "terminate_workers", None)   # Python 3.14
    if stop is not None:
        stop()
        return
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
