"""The nodes the VM runs: the segments of generated code, the loops that wait for decisions, and the
decisions themselves (the effects are defined in interpreter/effects/).

Effects never run here: every run of effects is one generated function (a Segment, codegen/effects.py)
calling the runtime (runtime/effects.py). The VM runs what waits: a node runs with `run(vm, g, frame)`
and may push frames (`vm.push`); a frame is the list `[block, next position, env, owner node id, loop
data]`, plain data so that a state can be cloned and saved as JSON. When a pushed block ends, the VM
calls `block_end` on the owner node, which either loops (resets the position) or lets the frame go; a
block end that returns true stops the VM (generated code ran on to the next decision: see flow.py,
`Fused`).
"""
from __future__ import annotations

from ..runtime.budget import kept
from ..runtime.effects import MAX_LOOP, MAX_STACK, loop_limit, loop_spent
from ..runtime.values import as_player, as_players
from .choices import joined


class Node:
    """Base of every node: an id in the ruleset's node table and the source location for errors."""

    id = -1
    loc = None
    text = ""
    secret = False
    loop = None   # the kind of loop this node runs, for a budget error (engine/limits.py): None for no loop
    after = None  # a decision's choice applied by generated code (flow.py, Step.after), or None

    def run(self, vm, g, frame):  # pragma: no cover - every node overrides
        raise NotImplementedError

    def block_end(self, vm, g, frame):
        g.stack.pop()

    def loggable(self, option) -> bool:
        """Whether taking this option writes a log line now."""
        return True

    def origin(self, exc):
        """The node an error raised while this one ran belongs to (a fused segment knows which effect)."""
        return self

    def enclosing(self, exc):
        """The loop of a fused segment an error was raised in (None: the VM's stack knows)."""
        return None


# generated code ------------------------------------------------------------------------------------

class Segment(Node):
    """A run of effects at one position of a block, as one generated function (codegen/effects.py): runs
    them all, then the VM goes on after them. A segment that ends in a tail (`tail`) may have pushed a
    block that waits for a decision (the VM runs it next) or asked a decision (a `choose` or `react` asked
    once: the VM stops)."""

    def __init__(self, fn, end: int, nodes, generated, tail: bool = False):
        self.fn, self.end, self.nodes, self.generated, self.tail = fn, end, tuple(nodes), generated, tail
        first = nodes[0]
        self.loc, self.text, self.id = first.loc, first.text, first.id

    def run(self, vm, g, frame):
        frame[1] = self.end
        if self.fn(vm, g, frame[2]):   # it stopped inside: a decision asked, or the game or the turn ended
            return g.pending is not None

    def origin(self, exc):
        """The effect whose generated line raised `exc` (for located errors), or this segment's first."""
        return self.generated.node_of(exc) or self.nodes[0]

    def enclosing(self, exc):
        """The fused loop whose body raised `exc` (the VM's stack does not show it), or None."""
        return self.generated.node_of(exc, self.generated.loops)


# loops that wait for decisions: run by the VM (a loop whose body never waits is generated code) -----

class Repeat(Node):
    """Run a block while (or until) a condition holds, at most `max` times; more ends the game stalled."""

    loop = "effects"

    def __init__(self, cond, until, limit, body):
        self.cond, self.until, self.limit, self.body = cond, until, limit, body

    def _go_on(self, g, env):
        return bool(self.cond(g, env, None)) != self.until

    def where(self) -> str:
        return f"({self.text} at {self.loc})"

    def run(self, vm, g, frame):
        env = frame[2]
        if self._go_on(g, env):
            limit = loop_limit(vm, self.limit(g, env, None), self.where())
            if limit >= 1:
                vm.push(self.body, env, self.id, [1, limit])

    def block_end(self, vm, g, frame):
        env = frame[2]
        if not self._go_on(g, env):
            g.stack.pop()
            return
        data = frame[4]
        if data[0] >= data[1]:
            loop_spent(vm, data[1], self.where())
            return
        data[0] += 1
        frame[1] = 0


class ForEach(Node):
    """Run a block once per item of a list (taken when the loop starts), binding the item to a name."""

    loop = "effects"

    def __init__(self, name, items, body):
        self.name, self.items, self.body = name, items, body

    def run(self, vm, g, frame):
        env = frame[2]
        items = self.items(g, env, None)
        if type(items) is list:
            items = kept(g, items)
        if items:
            env[self.name] = items[0]
            vm.push(self.body, env, self.id, [items, 0])

    def block_end(self, vm, g, frame):
        data = frame[4]
        data[1] += 1
        if data[1] >= len(data[0]):
            g.stack.pop()
            return
        frame[2][self.name] = data[0][data[1]]
        frame[1] = 0


MAX_FREE = 1000   # actions at any time taken at one decision of a turn: more ends the game stalled


class Again(Node):
    """A decision asked again after each answer (`again:` on a step or a `choose`, and a step that offers
    actions to take at any time): the decision is the only node of the block, which this loop runs again
    until the decision lets its frame go (its chooser passed, it offered nothing, or the answer was not one
    that asks again; see Choose.looped) or it was asked `limit` times. `stall`: the limit is the safety net
    of `again: true`, and reaching it ends the game stalled, as a loop's `max` does; a limit the author
    gave just ends the decision."""

    loop = "effects"
    waits = True

    def __init__(self, body, limit, stall):
        self.body, self.limit, self.stall = body, limit, stall

    def where(self) -> str:
        return f"({self.text} at {self.loc})"

    def run(self, vm, g, frame):
        env = frame[2]
        limit = min(self.limit(g, env, None), MAX_LOOP)
        if limit >= 1:
            # [times asked, the most, answers that were actions at any time (they do not count as times)]
            vm.push(self.body, env, self.id, [1, limit, 0])

    def block_end(self, vm, g, frame):
        data = frame[4]
        if data[0] >= data[1] or data[2] >= MAX_FREE:
            g.stack.pop()
            if self.stall or data[2] >= MAX_FREE:
                vm.stall(f"a decision was asked again {max(data[1], data[2])} times without its chooser passing "
                         f"{self.where()}")
            return
        data[0] += 1
        frame[1] = 0


# decisions --------------------------------------------------------------------------------------------

class Choose(Node):
    """A decision inside an effect: one player, or several at once, picks among options.

    Options come from inline `args` (bound into the surrounding environment, then `do` runs) or
    from named actions (their effects run, with `me` the chooser). With `players`, every chooser's
    options are fixed from the same state and nothing is applied until all have chosen (a
    simultaneous decision); the choices then take effect one by one, each with `me` the chooser, in
    seat order starting from a seat that moves on every turn (turn mod players), so that no seat
    always wins a race.
    """

    # asked again (engine/nodes.py, Again): `again` after every answer but a pass; `free`, the indexes of the
    # actions whose options ask again (actions to take at any time, beside a step's own)
    again = False
    free = frozenset()
    looped = False
    priority = "seat"   # in a reaction window, who of those who acted is applied: the first in seat order, or random
    seated = False   # the choosers are made from the game's own players (a reaction window's default): not checked
    same_options = False   # the listing reads nothing of its chooser (codegen/module.py): listed once for all
    on_demand = False      # its listing may make options on demand (runtime/listing.py): counted once where asked
    direct = None   # the segment that runs the whole `do` of inline arguments, when it never waits (codegen/module.py)

    def __init__(self, player, players, prompt, choice, body, actions, optional, secret=None, until="all"):
        self.player, self.players, self.prompt = player, players, prompt
        self.choice, self.body, self.actions, self.optional = choice, body, actions, optional
        # what others may read of a choice: secret by default when several choose at once
        self.secret = (players is not None) if secret is None else secret
        # a reaction window (`until: first`): only the first player in priority order who acted is
        # applied, priority going round the table from the player who opened the window
        self.until = until
        # whether an option may leave items to pick (subset arguments, engine/picks.py)
        self.picks = any(c is not None and c.subsets for c in (actions if actions is not None else (choice,)))

    listed = None   # the generated listing of a decision among actions (codegen/options.py, emit_step; a step, a
    #                 `react` window, a `choose` of actions): (g, env, player) -> its options, and the pass
    generated = None   # the generated module its options are listed by (for the place of an error there)

    def origin(self, exc):
        """The expression of an action or choice (its `when`, `if` or an argument's list) whose generated line
        raised `exc` while the options were listed, told at its place; else this decision."""
        found = self.generated.fused_origin(exc) if self.generated is not None else None
        return found if found is not None and found.loc is not None else self

    def _options(self, g, env, p):
        if self.listed is not None:
            return self.listed(g, env, p)
        if self.actions is not None:
            options = [(i, args) for i, action in enumerate(self.actions) for args in action.options(g, p)]
        else:
            # one chooser: the options are computed around the same `me` as the effects; several: each
            # chooser's own (see _apply)
            me = env["me"] if self.players is None else p
            options = [(0, args) for args in self.choice.options(g, env, me)]
        if options and self.optional:
            options.append((-1, ()))
        return options

    def run(self, vm, g, frame):
        if vm.probing:
            # a lookahead stops where the next decision would be asked, without listing its options
            return vm.ask(self.id, -1, ())
        env = frame[2]
        if self.players is None:
            p = as_player(g, self.player(g, env, None), "the chooser")
            options = self._options(g, env, p)
            if options:
                return vm.ask(self.id, p, options)
            if self.looped:
                g.stack.pop()   # asked again, and nothing more to offer: the loop is over (Again)
            return
        # options are tuples: never changed, so clones can share them; a chooser with none is not asked
        if self.same_options and self.seated and g.n > 1:
            # every chooser would be offered the same (the listing reads no `me`), and the choosers are everyone
            # else (never none, never wrong): listed once, the choosers made only when there is something to offer
            options = tuple(self._options(g, env, None))
            queue = [(p, options) for p in self.players(g, env, None)] if options else None
        else:
            who = self.players(g, env, None)
            if not self.seated:
                who = as_players(g, who, "choosers")
            if self.same_options:
                options = tuple(self._options(g, env, who[0])) if who else ()
                queue = [(p, options) for p in who] if options else None
            else:
                queue = []
                for p in who:
                    options = self._options(g, env, p)
                    if options:
                        queue.append((p, tuple(options)))
        if not queue:
            return
        vm.push_hold(env, self.id, {"queue": queue, "chosen": [], "at": len(g.history)})
        return vm.ask(self.id, queue[0][0], queue[0][1])

    def choice_of(self, i):
        """The choice (an action, or the inline args) an option index of this decision belongs to."""
        return self.actions[i] if self.actions is not None else self.choice

    def me_of(self, env, player, i):
        """Who `me` is for an option: the chooser for an action or a simultaneous choice; else the
        `me` of the effects around a one-player `choose`."""
        return player if self.actions is not None or self.players is not None else env["me"]

    def loggable(self, option) -> bool:
        """An option whose subsets are still to be picked is logged once they are (see engine/picks.py)."""
        return option[0] < 0 or not self.choice_of(option[0]).needs_picks(option[1])

    def resume(self, vm, g, frame, option, player):
        if self.picks and option[0] >= 0 and self.choice_of(option[0]).needs_picks(option[1]):
            vm.rs.nodes[vm.rs.pick_node].start(vm, g, self, option, player)
            return
        if self.players is None:
            if self.looped:
                if option[0] in self.free:
                    data = frame[4]   # an action at any time does not use up the step (Again)
                    data[0] -= 1
                    data[2] += 1
                elif not (option[0] >= 0 and self.again):
                    g.stack.pop()   # a pass, or an answer that does not ask again: the loop is over (Again)
            self._apply(vm, frame[2], option, player, shared=True)
            return
        # the hold's data is never changed in place, but replaced: clones share it (see State.clone)
        data = frame[4] = {**frame[4], "chosen": frame[4]["chosen"] + [(player, tuple(option))]}
        waiting = data["queue"][len(data["chosen"]):]
        if waiting:
            vm.ask(self.id, waiting[0][0], waiting[0][1])
            return
        g.stack.pop()  # the hold frame: every choice is in; apply them in priority order
        env = frame[2]
        n = g.n
        if self.until == "first":
            # the window closes on the first player after the opener (in seat order) who acted
            first = (env["me"] + 1) % n
            acted = sorted((c for c in data["chosen"] if c[1][0] >= 0), key=lambda c: (c[0] - first) % n)
            if not acted:
                return
            # `priority: random`: whoever spoke first, as a draw among those who acted
            if self.priority == "random" and len(acted) > 1:
                # a draw among the players (a scenario names its outcome as a player)
                p = g.rng.choice([c[0] for c in acted])
                opt = next(c[1] for c in acted if c[0] == p)
            else:
                p, opt = acted[0]
            if vm.record:
                vm.log_choice(self, p, opt, reacts=True)
            self._apply(vm, env, (opt[0], tuple(opt[1])), p, shared=False)
            return
        first = g.turn % n   # priority rotates with the turn: seat `first` goes first
        order = [c for c in data["chosen"] if c[1][0] >= 0]   # a pass does nothing
        if len(order) > 1:
            order.sort(key=lambda c: (c[0] - first) % n, reverse=True)
        alone = len(order) == 1   # the only choice that does something: nothing else waits to run
        for p, opt in order:            # pushed last-first, so they run first-first
            self._apply(vm, env, (opt[0], tuple(opt[1])), p, shared=False, alone=alone)

    def _apply(self, vm, env, option, player, shared, alone=False):
        i, args = option
        if i < 0:
            return
        # effects that ask no decision run at once, without a frame (one chooser, or the only choice of several
        # that does something: nothing else is pushed first); where the frames are as deep as they may be,
        # pushed, which refuses them
        at_once = (shared or alone) and len(vm.state.stack) < MAX_STACK
        if self.actions is not None:
            action = self.actions[i]
            inner = {"me": player}
            inner.update(zip(action.all_names, args))
            if action.block is not None:
                if action.direct is not None and at_once:
                    vm.run_segment(action.direct, inner, action.direct.end)
                else:
                    vm.push(action.block, inner)
            return
        # One chooser: `me` stays who it was around the choose, and the chosen values stay known after
        # it, in the same list. Several at once: each one's `do` runs with `me` = that chooser and sees
        # its own values only.
        if shared:
            env.update(zip(self.choice.all_names, args))
            target = env
        else:
            target = dict(env, me=player)
            target.update(zip(self.choice.all_names, args))
        if self.direct is not None and at_once:   # a `do` that never waits, as an action's effects above
            vm.run_segment(self.direct, target, self.direct.end)
        elif self.body is not None:
            vm.push(self.body, target)

    def prompt_text(self, vm, g, pending):
        if not callable(self.prompt):
            return self.prompt
        env = dict(g.stack[-1][2]) if g.stack else {}
        env["me"] = pending[1]
        return self.prompt(vm, g, env)

    def label(self, vm, g, player, option):
        return joined(self.pieces(vm, g, player, option), vm.format)

    def pieces(self, vm, g, player, option) -> tuple:
        """An option's label as pieces (engine/choices.py), as the log records it."""
        i, args = option
        if i < 0:
            return ("pass",)
        if self.actions is not None:
            return self.actions[i].pieces(vm, g, player, args)
        # the label sees what the options saw: the names of the effects around the choose
        env = g.stack[-1][2] if g.stack else {"me": player}
        return self.choice.pieces(vm, g, env["me"] if self.players is None else player, args, env)
