"""The flow of a turn (its loop, steps and end checks) -> Python source of the turn's transition: from the end
of one turn's steps to the next turn's first decision in one call, doing what the VM would do node by node
(the turn's nodes are run by the VM only for the first turn of a round).

Two functions, installed as the block ends of the flow nodes (engine/flow.py, `Fused`):

- `T_turn_end(vm, g, frame)`, when the steps' block ran to its end: the turn's `end` effects, its end
  checks, and (no end holding) the turn's block counted as the VM counts it, then the next turn;
- `T_turn_start(vm, g, frame)`, when the turn's block ends: the next player, the turn counted (or the
  turn limit reached), its `start` effects, its steps pushed, and the first step that offers options
  asks for a decision.

They leave the frames exactly as the VM would (positions, environments, pushed blocks), so saved games,
clones and replays see no difference. Anything else they meet (an effect that asks a decision, a step of
several players, an end that holds) is left to the VM: they set the frame's position to that node and
return false, and the VM goes on from there.
"""
from __future__ import annotations

from ..engine import flow as F
from ..expr.emit import comment, key, where


def emit_turns(b, runs, listed: dict, ends: dict) -> list:
    """Write the turn's transition functions; returns [(flow node, function name)] to install as `fused`.

    `runs`: the segments, (block id, start, end, function name); `listed`: id(step) -> the name of its
    generated options; `ends`: id(end checks) -> the name of its generated end conditions."""
    rs = b.rs
    loop, steps = rs.nodes[rs.turn_loop_node], rs.nodes[rs.steps_node]
    body = rs.blocks[loop.body]
    # the flow compiler (compiler/flow.py) always builds a turn so
    assert type(loop) is F.TurnLoop and type(steps) is F.Steps and steps in body and type(body[0]) is F.TurnStart
    segments = {i: (j, fname) for bid, i, j, fname in runs if rs.blocks[bid] is body}
    start = b.ns.fresh_global("T_turn_start")
    end = b.ns.fresh_global("T_turn_end")
    writer = _Writer(b, body, segments)
    writer.start(start, loop, steps, listed)
    writer.end(end, start, loop, steps, ends)
    return [(loop, start), (steps, end)]


class _Writer:
    def __init__(self, b, body, segments):
        self.b, self.lines, self.body, self.segments = b, b.lines, body, segments

    def effects(self, pos: int, stop) -> int | None:
        """Statements that run the turn's block from `pos` up to the node `stop` (its position is returned);
        None when a node that is neither a segment nor `stop` comes first (left to the VM)."""
        lines, body = self.lines, self.body
        while pos < len(body):
            if pos in self.segments:
                j, fname = self.segments[pos]
                lines.node = body[pos]
                lines.add(f"frame[1] = {int(j)}")
                lines.add(f"{fname}(vm, g, e)")
                lines.add("if not stack or stack[-1] is not frame:")
                lines.add("    return False   # the game or the turn stopped inside: the VM goes on")
                pos = j
            elif body[pos] is stop:
                return pos
            else:
                lines.node = body[pos]
                lines.add(comment(f"{body[pos].text}: left to the VM"))
                lines.add(f"frame[1] = {int(pos)}")
                lines.add("return False")
                return None
        return None

    def start(self, fname, loop, steps, listed) -> None:
        b, lines, body = self.b, self.lines, self.body
        lines.node = loop
        lines.add(f"def {fname}(vm, g, frame):")
        with lines.indent():
            lines.add(comment("the turn's block ended: the next player, then the next turn up to its first decision"))
            lines.add("stack = g.stack")
            lines.add("if g.known:")
            lines.add(f"    N_forget(g, {key('turn')})")
            if loop.next_player is None:
                lines.add("g.current = g.players[(g.current + 1) % g.n]")
            else:
                lines.add(f"g.current = N_as_player(g, {b.ns.const(loop.next_player, 'K_next')}(g, frame[2], None), "
                          f"{b.ns.const('the next player', 'S_next')})")
            lines.add("frame[2] = e = {'me': g.current}")
            turn = body[0]
            lines.node = turn
            lines.add(comment(f"{turn.text} ({where(turn.loc)})" if turn.loc is not None else turn.text))
            lines.add("frame[1] = 1")
            lines.add(f"{b.ns.const(turn, 'K_turn')}.run(vm, g, frame)   # the turn counted (or its limit reached)")
            lines.add("if g.result is not None:")
            lines.add("    return True")
            pos = self.effects(1, steps)
            if pos is not None:
                self.steps(pos, steps, listed)
        lines.add("")
        lines.node = None

    def steps(self, pos, steps, listed) -> None:
        from ..expr.compiler import emit_expr
        b, lines = self.b, self.lines
        lines.node = steps
        lines.add(f"frame[1] = {int(pos) + 1}")
        # pushed as vm.push would, without its depth check: the turn's frames are always as deep
        lines.add(f"stack.append(_f := [vm.rs.blocks[{int(steps.body)}], 0, e, {int(steps.id)}, None])")
        lines.add("me = e.get('me')")
        for k, step in enumerate(self.b.rs.blocks[steps.body]):
            lines.node = step
            lines.add(comment(f"step {step.text}"))
            lines.add(f"_f[1] = {k + 1}")
            lines.add("if vm.probing:")
            lines.add(f"    return vm.ask({int(step.id)}, -1, ())")
            fn = listed.get(id(step))
            when = getattr(step, "when", None)
            ok = (type(step) is F.Step and step.players is None and step.own_player is None and fn is not None
                  and (when is None or getattr(when, "tree", None) is not None
                       or getattr(when, "constant", None) is not None))
            if not ok:
                lines.add(f"_f[1] = {k}   # left to the VM")
                lines.add("return False")
                return
            depth = lines.depth
            if when is not None:
                lines.add(f"if {emit_expr(when, b.names, b.ns, {'me': 'me'})}:")
                lines.depth += 1
            lines.add(f"_o = {fn}(g, e, g.current)")
            lines.add("if _o:")
            # asked as vm.ask asks (it words the error of too many options)
            lines.add("    if len(_o) > R_MAX_OPTIONS:")
            lines.add(f"        return vm.ask({int(step.id)}, g.current, _o)")
            lines.add(f"    g.pending = ({int(step.id)}, g.current, _o)")
            lines.add("    return True")
            lines.depth = depth
        lines.add("return False   # no step offers anything: the VM ends the steps' block")

    def end(self, fname, start, loop, steps, ends) -> None:
        b, lines, body = self.b, self.lines, self.body
        checks = body[-1]
        lines.node = steps
        lines.add(f"def {fname}(vm, g, frame):")
        with lines.indent():
            lines.add(comment("the turn's steps are done: its end effects, its end checks, then the next turn"))
            lines.add("stack = g.stack")
            lines.add("stack.pop()")
            lines.add("frame = stack[-1]")
            s = body.index(steps)
            lines.add(f"if frame[3] != {int(loop.id)} or frame[1] != {s + 1}:")
            lines.add("    return False")
            lines.add("e = frame[2]")
            if type(checks) is not F.EndChecks or id(checks) not in ends:
                pos = self.effects(s + 1, None)
                if pos is not None:   # the turn's block has nothing after its steps but segments
                    lines.add(f"frame[1] = {int(pos)}")
                    lines.add("return False")
            else:
                pos = self.effects(s + 1, checks)
                if pos is not None:
                    lines.node = checks
                    lines.add(comment(f"end checks ({where(checks.loc)})" if checks.loc is not None else "end checks"))
                    lines.add(f"frame[1] = {int(pos) + 1}")
                    lines.add(f"_i = {ends[id(checks)]}(g, e)")
                    lines.add("if _i >= 0:")
                    lines.add(f"    {b.ns.const(checks, 'K_checks')}.take(vm, g, frame, _i)")
                    lines.add("    return False")
                    if pos + 1 != len(body):
                        lines.add("return False")
                    else:
                        # the turn's block ran to its end: it pays for its nodes as the VM counts them
                        lines.add(f"vm.steps = _s = vm.steps - {len(body) + 1}")
                        lines.add("if _s < 0:")
                        lines.add("    raise vm.over_nodes()")
                        lines.add(f"return {start}(vm, g, frame)")
        lines.add("")
        lines.node = None
