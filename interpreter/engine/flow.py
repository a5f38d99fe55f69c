"""Runtime flow nodes: the rounds, turns and steps a ruleset's `flow` compiles into, and its end checks.

They run on the same VM as the effect nodes (see nodes.py): loops keep their position in a frame,
and a turn's steps sit in a frame of their own so that `end_turn` can leave it.
"""
from __future__ import annotations

from ..runtime.effects import end_round, forget
from ..runtime.values import as_player
from .nodes import Choose, Node

class RoundLoop(Node):
    """Play rounds until the game ends: each pass runs the round's body once."""

    loop = "rounds"

    def __init__(self, body):
        self.body = body

    def run(self, vm, g, frame):
        vm.push(self.body, {"me": g.current}, self.id)

    def block_end(self, vm, g, frame):
        if g.known:
            forget(g, "round")
        frame[1] = 0
        frame[2] = {"me": g.current}


class RoundStart(Node):
    """Count the round (its `start` effects run next, then its first player is chosen)."""

    def run(self, vm, g, frame):
        g.round += 1


class RoundFirstPlayer(Node):
    """After the round's `start` effects: choose who starts it (the deal may decide it)."""

    def __init__(self, first_player):
        self.first_player = first_player

    def run(self, vm, g, frame):
        if self.first_player is not None:
            g.current = as_player(g, self.first_player(g, frame[2], None), "the round's first player")
        frame[2]["me"] = g.current
        if vm.record:
            g.log.append(("round", g.round, int(g.current)))   # "round 2: P1 starts" (present/log.py)


class Fused(Node):
    """A flow node whose block end is generated code (interpreter/codegen/turns.py): `fused(vm, g, frame)`
    does what the VM would do next, up to the next decision, and returns true when the VM must stop (a
    decision waits, or the game is over); an error inside is told at the node whose generated line raised
    it, as the VM tells it at the node it was running."""

    fused = None       # generated: (vm, g, frame) -> true when the VM stops
    generated = None   # the generated module (for the place of an error)

    def origin(self, exc):
        return self.generated.fused_origin(exc) or self

    def enclosing(self, exc):
        return self.generated.node_of(exc, self.generated.loops)

    def block_end(self, vm, g, frame):
        return self.fused(vm, g, frame)


class TurnLoop(Fused):
    """Play turns until the round ends; between turns (its generated block end, `T_turn_start`), pass to the
    next player and start the next turn."""

    loop = "turns"

    def __init__(self, body, next_player):
        self.body, self.next_player = body, next_player

    def run(self, vm, g, frame):
        vm.push(self.body, {"me": g.current}, self.id)


class TurnStart(Node):
    """Count the turn; at the ruleset's turn limit, end the game as a stalled draw (the first turn of a
    round; the turn's transition, codegen/turns.py, calls it for the others)."""

    def __init__(self, limit):
        self.limit = limit

    def run(self, vm, g, frame):
        if g.turn >= self.limit:
            vm.stall(f"turn limit of {self.limit} turns reached")
            return
        g.turn += 1
        frame[2]["me"] = g.current


class Steps(Fused):
    """The steps of one turn, in a block of their own so that `end_turn` can leave it; when they are done
    (its generated block end, `T_turn_end`), the turn's end effects, its end checks, and the next turn."""

    def __init__(self, body):
        self.body = body

    def run(self, vm, g, frame):
        vm.push(self.body, frame[2], self.id)


class Step(Choose):
    """One step of a turn: the current player (or `player`, or several `players` at once) chooses one
    of the legal options of the listed actions; an optional step adds "pass"; no option, no step."""

    # generated code (codegen/turns.py): (vm, g, frame, option, player) -> a choice of this step applied and
    # the game run on to its next decision (true: the VM stops; false: it goes on; None: not applied)
    after = None

    def __init__(self, actions, player, players, optional, when, name, secret=None, until="all"):
        super().__init__(player or (lambda g, e, it: g.current), players, name, None, None, actions, optional,
                         secret, until)
        self.when, self.name, self.own_player = when, name, player

    def run(self, vm, g, frame):
        if vm.probing:
            return vm.ask(self.id, -1, ())
        env = frame[2]
        if self.when is not None and not self.when(g, env, None):
            if self.looped:
                g.stack.pop()   # the loop that asks it again (Again) is over
            return
        if self.players is not None:
            return Choose.run(self, vm, g, frame)
        # the common case, kept short: one player chooses among the actions' options
        p = g.current if self.own_player is None else as_player(g, self.own_player(g, env, None), "the step's player")
        options = self.listed(g, env, p)
        if options and (not self.free or any(o[0] >= 0 and o[0] not in self.free for o in options)):
            return vm.ask(self.id, p, options)
        if self.looped:
            # nothing to offer (actions to take at any time are only offered beside a step's own options)
            g.stack.pop()
        return None


class EndChecks(Node):
    """After each turn: the game's end conditions, then the round's, broadest first. After each round
    (its `end` effects done), the game's end conditions alone.

    A game end with `do` effects runs them first (they may ask players to choose); the game is
    scored when they are done."""

    def __init__(self, game_ends, round_ends):
        self.game_ends, self.round_ends = game_ends, round_ends  # [(cond, winners, reason, block)]

    first_end = None   # generated code: (g, env) -> the index of the first end that holds (rounds' after
    #                    the game's), or -1

    def run(self, vm, g, frame):
        i = self.first_end(g, frame[2])
        if i >= 0:
            self.take(vm, g, frame, i)

    def take(self, vm, g, frame, i):
        """End condition i holds (the game's, then the round's): end the game or the round."""
        env = frame[2]
        if i < len(self.game_ends):
            _, winners, reason, block = self.game_ends[i]
            if block is not None:
                vm.push(block, dict(env), self.id, i)
                return
            vm.finish(reason, None if winners is None else winners(g, env, None))
            return
        if vm.record:
            g.log.append(("round_end", g.round, self.round_ends[i - len(self.game_ends)][2]))
        end_round(vm, g)

    def block_end(self, vm, g, frame):
        _, winners, reason, _ = self.game_ends[frame[4]]
        env = frame[2]
        g.stack.pop()
        vm.finish(reason, None if winners is None else winners(g, env, None))


class Block(Node):
    """Run a block of effects in the current environment (setup, a round's start, a turn's end)."""

    def __init__(self, block):
        self.block = block

    def run(self, vm, g, frame):
        vm.push(self.block, frame[2])


class SetCurrent(Node):
    """Make a player the current one (who starts the game)."""

    def __init__(self, player):
        self.player = player

    def run(self, vm, g, frame):
        g.current = as_player(g, self.player(g, frame[2], None), "the first player")
        frame[2]["me"] = g.current
