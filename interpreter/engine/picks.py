"""Several items in one argument: an option with subset arguments -> decisions that pick them one at a time.

When a player takes an option whose choice has subset arguments (`{pick: me.hand, count: 3}`), the
option is not applied yet: the player picks the items one by one (each pick is a decision of its
own, offering only items that still leave a legal completion, and `done` when the subset may stop),
and then the completed option goes back to the node that asked for it, as if it had been chosen
whole. So a player never faces every combination at once, and replays, clones and saves need
nothing more than the list of decisions.
"""
from __future__ import annotations

from .choices import joined
from .nodes import Node

DONE = -2


class Pick(Node):
    """The one node of a ruleset that asks for the items of subset arguments (data in a hold frame)."""

    text = "pick"

    def start(self, vm, g, origin, option, player) -> None:
        """`origin` (a choose or a step) was given `option`, whose subsets are still to be picked."""
        i, args = option
        data = {"origin": origin.id, "i": i, "args": list(args), "picked": []}
        env = dict(g.stack[-1][2]) if g.stack else {}
        vm.push_hold(env, self.id, data)
        self._ask(vm, g, g.stack[-1], player)

    def _choice(self, vm, data):
        return vm.rs.nodes[data["origin"]].choice_of(data["i"])

    def _picking(self, vm, data):
        """The choice being completed, and which of its subsets is being picked now."""
        choice = self._choice(vm, data)
        return choice, len(data["args"]) - len(choice.arg_names)

    def _env(self, vm, g, frame, player, choice=None):
        """The names the subsets' domains and conditions see: those of the option, as its choice sees them
        (`choice`: the choice being completed, where the caller has it already)."""
        data = frame[4]
        origin = vm.rs.nodes[data["origin"]]
        env = dict(frame[2])
        env["me"] = origin.me_of(env, player, data["i"])
        if choice is None:
            choice = origin.choice_of(data["i"])
        env.update(zip(choice.all_names, data["args"]))
        return env

    def _ask(self, vm, g, frame, player, env=None, bounds=None) -> None:
        """Ask for the next item of the subset being picked (`env`: its names, `bounds`: its least and most
        counts, where the caller has them already)."""
        data = frame[4]
        choice, j = self._picking(vm, data)
        options = choice.pick_options(g, self._env(vm, g, frame, player, choice) if env is None else env, j,
                                      data["picked"], bounds)
        if len(options) == 1 and options[0][0] == DONE:
            self._close(vm, g, frame, player)   # nothing more can be picked: the subset is complete
            return
        vm.ask(self.id, player, options)

    def resume(self, vm, g, frame, option, player):
        data = frame[4]
        choice, j = self._picking(vm, data)
        # the same names whether the subset goes on or is complete (nothing is bound in them before _close)
        env = self._env(vm, g, frame, player, choice)
        if option[0] != DONE:
            data["picked"].append(option[1][0])
            bounds = choice.subsets[j].bounds(g, env)
            if len(data["picked"]) < bounds[1]:
                self._ask(vm, g, frame, player, env, bounds)
                return
        self._close(vm, g, frame, player, env)

    def _close(self, vm, g, frame, player, env=None) -> None:
        """Subset j is complete (in its domain's order); ask for the next one, or give the option back (`env`:
        the names its domain sees, where the caller has them already)."""
        data = frame[4]
        choice, j = self._picking(vm, data)
        if env is None:
            env = self._env(vm, g, frame, player, choice)
        chosen = data["picked"]
        data["args"].append([x for x in choice.subsets[j].domain(g, env, None) if x in chosen])
        data["picked"] = []
        if choice.needs_picks(data["args"]):
            self._ask(vm, g, frame, player)
            return
        g.stack.pop()
        origin = vm.rs.nodes[data["origin"]]
        option = (data["i"], tuple(data["args"]))
        if vm.record:
            vm.log_choice(origin, player, option)
        origin.resume(vm, g, g.stack[-1], option, player)

    def loggable(self, option) -> bool:
        return False   # the whole option is logged once it is complete

    def label(self, vm, g, player, option):
        if option[0] == DONE:
            return "done"
        frame = g.stack[-1]
        data = frame[4]
        choice, j = self._picking(vm, data)
        sub = choice.subsets[j]
        if sub.label is None:
            return vm.format(option[1][0])
        return joined(sub.label.pieces(vm, g, self._env(vm, g, frame, player), it=option[1][0]), vm.format)

    def prompt_text(self, vm, g, pending):
        frame = g.stack[-1]
        data = frame[4]
        choice, j = self._picking(vm, data)
        sub = choice.subsets[j]
        env = self._env(vm, g, frame, pending[1])
        origin = vm.rs.nodes[data["origin"]]
        so_far = origin.label(vm, g, pending[1], (data["i"], tuple(data["args"])))
        picked = f"; so far: {vm.format(data['picked'])}" if data["picked"] else ""
        return f"{so_far}: pick {sub.size_text(g, env)} ({len(data['picked'])} picked{picked})"
