"""The game state as plain data: zones as lists of card ids, variables, the random generator, the frame stack."""
from __future__ import annotations

import random


class State:
    """Everything that changes during a game. Cloning copies lists; JSON holds the same fields."""

    __slots__ = ("n", "players", "zones", "vars", "pvars", "params", "current", "round", "turn",
                 "rng", "stack", "pending", "result", "history", "log", "seed")

    def __init__(self):
        self.stack = []
        self.pending = None   # (node id, player, [options]) while a decision waits
        self.result = None
        self.history = []     # option indexes chosen, in order: a seed plus this replays the game
        self.log = []
        self.round = 0
        self.turn = 0

    def clone(self, share_rng: bool = False) -> "State":
        """An independent copy: no list is shared with the original.

        `share_rng` keeps the same random generator object (lookahead trials, which are thrown away)."""
        c = State.__new__(State)
        c.n, c.players, c.seed = self.n, self.players, self.seed
        c.zones = [z[:] for z in self.zones]
        c.vars = {k: _copy(v) for k, v in self.vars.items()}
        c.pvars = {k: _copy(v) for k, v in self.pvars.items()}
        c.params = self.params  # never changed during a game
        c.current, c.round, c.turn = self.current, self.round, self.turn
        if share_rng:
            c.rng = self.rng
        else:
            c.rng = random.Random(0)   # a fixed seed is cheap; the state is overwritten at once
            c.rng.setstate(self.rng.getstate())
        c.stack = _copy_frames(self.stack)
        c.pending = self.pending  # tuples all the way down
        c.result = self.result
        c.history = self.history[:]
        c.log = self.log[:]
        return c

    def to_json(self, block_id) -> dict:
        """The state as JSON-ready data; environments shared by several frames stay shared.

        Frames hold their block itself; `block_id` turns it into its number in the ruleset."""
        envs, index = [], {}
        frames = []
        for bid, pc, env, owner, data in self.stack:
            key = id(env)
            if key not in index:
                index[key] = len(envs)
                envs.append(env)
            frames.append([block_id(bid), pc, index[key], owner, data])
        version, internal, gauss = self.rng.getstate()
        return {
            "n": self.n, "seed": self.seed, "zones": [z[:] for z in self.zones],
            "vars": {k: _copy(v) for k, v in self.vars.items()},
            "pvars": {k: _copy(v) for k, v in self.pvars.items()},
            "params": {k: _copy(v) for k, v in self.params.items()},
            "current": self.current, "round": self.round, "turn": self.turn,
            "rng": [version, list(internal), gauss],
            "envs": [{k: _copy(v) for k, v in e.items()} for e in envs],
            "frames": [[b, pc, e, owner, _copy(d)] for b, pc, e, owner, d in frames],
            "pending": None if self.pending is None else [self.pending[0], self.pending[1],
                                                          [[i, list(a)] for i, a in self.pending[2]]],
            "result": json_copy(self.result), "history": self.history[:], "log": self.log[:],
        }

    @classmethod
    def from_json(cls, data: dict, block) -> "State":
        """Rebuild a state written by `to_json`."""
        s = cls.__new__(cls)
        s.n, s.seed = data["n"], data["seed"]
        s.players = list(range(s.n))
        s.zones = [list(z) for z in data["zones"]]
        s.vars = dict(data["vars"])
        s.pvars = {k: list(v) for k, v in data["pvars"].items()}
        s.params = dict(data["params"])
        s.current, s.round, s.turn = data["current"], data["round"], data["turn"]
        version, internal, gauss = data["rng"]
        s.rng = random.Random()
        s.rng.setstate((version, tuple(internal), gauss))
        envs = [dict(e) for e in data["envs"]]
        s.stack = [[block(bid), pc, envs[e], owner, data_] for bid, pc, e, owner, data_ in data["frames"]]
        p = data["pending"]
        s.pending = None if p is None else (p[0], p[1], [(i, tuple(a)) for i, a in p[2]])
        s.result = data["result"]
        s.history = list(data["history"])
        s.log = list(data["log"])
        return s


def json_copy(value):
    """A deep copy of JSON-like data (dicts, lists, scalars)."""
    if type(value) is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) for v in value]
    return value


_PLAIN = (int, str, bool, tuple, type(None), float)


def _copy(value):
    """A copy of plain data: lists and dicts are copied, everything else is immutable and shared."""
    t = type(value)
    if t is list:
        return [v if type(v) in _PLAIN else _copy(v) for v in value]
    if t is dict:
        return {k: v if type(v) in _PLAIN else _copy(v) for k, v in value.items()}
    return value


def _copy_frames(stack):
    envs = {}
    out = []
    for bid, pc, env, owner, data in stack:
        key = id(env)
        copy = envs.get(key)
        if copy is None:
            copy = envs[key] = {k: _copy(v) for k, v in env.items()}
        out.append([bid, pc, copy, owner, _copy(data)])
    return out
