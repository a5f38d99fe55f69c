"""The game state as plain data: zones as lists of card ids (each replaced by a write, never changed in place),
variables, the random generator, the frame stack."""
from __future__ import annotations

import random

from ..runtime.budget import MAX_STEP_ITEMS
from ..runtime.values import PLAYERS, Card, Player, decode, encode
from .records import from_json as log_entry
from .records import to_json as log_json


class _Generator:
    """A random generator held by several states that have not drawn from it since one was cloned from
    another: the first of them to draw takes a copy of its own (copying a generator's state is most of
    what a clone would cost, and a playout or a bot's world often replaces it unread)."""

    __slots__ = ("rng", "holders")

    def __init__(self, rng):
        self.rng, self.holders = rng, 1


class _Seed:
    """A generator not made yet: made from its seed when a state first draws from it (a bot's world that
    never draws, as most playouts of a game whose deck is dealt at the start, saves seeding one). It is held
    as a _Generator is, and gives the same numbers as random.Random(seed) made at once."""

    __slots__ = ("seed", "made", "holders")

    def __init__(self, seed):
        self.seed, self.made, self.holders = seed, None, 1

    @property
    def rng(self):
        made = self.made
        if made is None:
            made = self.made = random.Random(self.seed)
        return made


class _Line:
    """The generator of one state and of the throw-away copies that share it (`clone(share_rng=True)`)."""

    __slots__ = ("gen",)

    def __init__(self, gen):
        self.gen = gen


class State:
    """Everything that changes during a game. Cloning copies lists; JSON holds the same fields."""

    __slots__ = ("n", "players", "zones", "vars", "pvars", "cvars", "known", "params", "current", "round", "turn",
                 "line", "stack", "pending", "result", "history", "log", "seed", "layout", "zbase", "events",
                 "work", "redeals")

    @property
    def rng(self):
        """The game's random generator (copied first if a clone still holds the same one)."""
        line = self.line
        gen = line.gen
        if gen.holders > 1:
            gen.holders -= 1
            copy = random.Random.__new__(random.Random)
            copy.setstate(gen.rng.getstate())
            gen = line.gen = _Generator(copy)
        return gen.rng

    @rng.setter
    def rng(self, value):
        self.line = _Line(_Generator(value))

    def seed_rng(self, seed) -> None:
        """Give the state a generator of its own, random.Random(seed), made when it first draws."""
        self.line = _Line(_Seed(seed))

    def __init__(self):
        self.cvars = {}       # card variable -> list of values, indexed by card id
        self.known = {}       # card -> {player: until}: cards revealed to players who cannot see them
        self.stack = []
        self.pending = None   # (node id, player, [options]) while a decision waits
        self.result = None
        self.history = []     # option indexes chosen, in order: a seed plus this replays the game
        self.log = []         # what happened, as records (engine/records.py); in words in present/log.py
        self.events = []      # what effects did, for narration (recorded with the log; see present/narrate.py)
        self.round = 0
        self.turn = 0
        self.work = MAX_STEP_ITEMS   # what this step may still spend walking lists (see budget.py)
        self.redeals = ()     # the cards dealt again by undos (engine/redeal.py): part of what replays the game

    def clone(self, share_rng: bool = False, bare: bool = False) -> "State":
        """An independent copy: what the engine changes in one of them, the other never sees.

        A zone's list is never changed in place (a move stores a new list in its slot: runtime/effects.py),
        so the copy shares every zone's list with the original, and a bot's trial of one step copies no
        card. Values are never changed in place either (a `set` or `add` stores a new list), so the values
        inside variables, tables and environments are shared too: a copy of each dictionary, table and
        frame is enough, at C speed. Code outside the engine that changed a zone's list in place would change
        the other's too: it gives the zone a new list (Game.reconsider).

        `share_rng` keeps the same random generator object (lookahead trials, which are thrown away);
        `bare` starts the copy with no history, log or events (a bot's world, never replayed nor shown:
        copying them would cost more as the game goes on)."""
        c = State.__new__(State)
        c.n, c.players, c.seed = self.n, self.players, self.seed
        c.layout, c.zbase = self.layout, self.zbase   # derived from the player count and parameters
        c.zones = self.zones[:]   # each zone's list shared: a write replaces it (runtime/effects.py)
        c.vars = self.vars.copy()
        c.pvars = {k: v[:] for k, v in self.pvars.items()} if self.pvars else {}
        c.cvars = {k: v[:] for k, v in self.cvars.items()} if self.cvars else {}
        c.known = {k: dict(v) for k, v in self.known.items()} if self.known else {}
        c.params = self.params  # never changed during a game
        c.current, c.round, c.turn = self.current, self.round, self.turn
        line = self.line
        if share_rng:
            c.line = line
        elif type(line.gen.rng) is random.Random:   # (a _Seed's generator is made here: rare, and the same)
            line.gen.holders += 1   # copied when either draws first (see rng)
            c.line = _Line(line.gen)
        else:   # a forced generator (engine/chance.py) is not cloned: the copy gets a plain one
            c.rng = random.Random(0)   # a fixed seed is cheap; the state is overwritten at once
            c.rng.setstate(self.rng.getstate())
        c.stack = _copy_frames(self.stack)
        c.pending = self.pending  # tuples all the way down
        c.result = self.result
        if bare:
            c.history, c.log, c.events = [], [], []
        else:
            c.history = self.history[:]
            c.log = self.log[:]
            c.events = self.events[:]   # tuples: shared
        c.work = MAX_STEP_ITEMS
        c.redeals = self.redeals   # a tuple: replaced, never changed
        return c

    def to_json(self, block_id) -> dict:
        """The state as JSON-ready data; environments shared by several frames stay shared.

        Frames hold their block itself; `block_id` turns it into its number in the ruleset. Cards and
        players inside values are tagged (see values.encode) so that they come back as what they were."""
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
            "n": self.n, "seed": self.seed, "zones": [[int(c) for c in z] for z in self.zones],
            "vars": encode(self.vars), "pvars": encode(self.pvars), "cvars": encode(self.cvars),
            "known": [[int(c), [[int(p), u] for p, u in who.items()]] for c, who in self.known.items()],
            "params": encode(self.params),
            "current": int(self.current), "round": self.round, "turn": self.turn,
            "rng": [version, list(internal), gauss],
            "envs": [encode(e) for e in envs],
            "frames": [[b, pc, e, owner, encode(d)] for b, pc, e, owner, d in frames],
            "pending": None if self.pending is None else [self.pending[0], int(self.pending[1]),
                                                          [[i, encode(a)] for i, a in self.pending[2]]],
            "result": json_copy(self.result), "history": self.history[:],
            "log": [log_json(e) if type(e) is tuple else json_copy(e) for e in self.log],
            "events": [list(encode(list(e))) for e in self.events],
            **({"redeals": [[at, [list(p) for p in pairs], seed] for at, pairs, seed in self.redeals]}
               if self.redeals else {}),
        }

    @classmethod
    def from_json(cls, data: dict, block, cards) -> "State":
        """Rebuild a state written by `to_json`; `cards` is the ruleset's table of Card values."""
        s = cls.__new__(cls)
        s.n, s.seed = data["n"], data["seed"]
        s.players = list(PLAYERS[:s.n])
        s.zones = [[cards[c] for c in z] for z in data["zones"]]
        s.vars = decode(data["vars"], cards)
        s.pvars = {k: list(v) for k, v in decode(data["pvars"], cards).items()}
        s.cvars = {k: list(v) for k, v in decode(data.get("cvars", {}), cards).items()}
        s.known = {cards[c]: {PLAYERS[p]: u for p, u in who} for c, who in data.get("known", [])}
        s.params = decode(data["params"], cards)
        s.current = PLAYERS[data["current"]]
        s.round, s.turn = data["round"], data["turn"]
        version, internal, gauss = data["rng"]
        s.rng = random.Random()
        s.rng.setstate((version, tuple(internal), gauss))
        envs = [decode(e, cards) for e in data["envs"]]
        s.stack = [[block(bid), pc, envs[e], owner, _tuples(decode(data_, cards))]
                   for bid, pc, e, owner, data_ in data["frames"]]
        p = data["pending"]
        s.pending = None if p is None else (p[0], PLAYERS[p[1]] if p[1] >= 0 else p[1],
                                            [(i, tuple(decode(a, cards))) for i, a in p[2]])
        s.result = data["result"]
        s.history = list(data["history"])
        s.log = [log_entry(e, cards) for e in data["log"]]
        s.events = [tuple(decode(e, cards)) for e in data.get("events", [])]
        s.work = MAX_STEP_ITEMS
        s.redeals = tuple((at, tuple(tuple(p) for p in pairs), seed) for at, pairs, seed in data.get("redeals", []))
        return s


def _tuples(data):
    """A simultaneous decision's data keeps its options as tuples (they are shared, never changed)."""
    if isinstance(data, dict) and "queue" in data:
        data["queue"] = [(PLAYERS[p], tuple((i, tuple(a)) for i, a in opts)) for p, opts in data["queue"]]
        data["chosen"] = [(PLAYERS[p], (o[0], tuple(o[1]))) for p, o in data["chosen"]]
    return data


def json_copy(value):
    """A deep copy of JSON-like data (dicts, lists, scalars)."""
    if type(value) is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) for v in value]
    return value


_PLAIN = frozenset((int, str, bool, tuple, type(None), float, Card, Player))


def _copy(value):
    """A copy of plain data: lists and dicts are copied, everything else is immutable and shared."""
    t = type(value)
    if t is list:
        if _PLAIN.issuperset(map(type, value)):   # nothing inside to copy (the common case), at C speed
            return value[:]
        return [v if type(v) in _PLAIN else _copy(v) for v in value]
    if t is dict:
        if _PLAIN.issuperset(map(type, value.values())):
            return value.copy()
        return {k: v if type(v) in _PLAIN else _copy(v) for k, v in value.items()}
    return value


def _copy_frames(stack):
    envs = {}
    out = []
    plain = _PLAIN
    for bid, pc, env, owner, data in stack:
        key = id(env)
        copy = envs.get(key)
        if copy is None:
            copy = envs[key] = env.copy()   # its values are shared: never changed in place
        # a simultaneous decision's data is replaced, never changed in place (engine/nodes.py): shared
        out.append([bid, pc, copy, owner,
                    data if type(data) in plain or (type(data) is dict and "chosen" in data) else _copy(data)])
    return out
