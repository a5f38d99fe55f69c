"""Decisions inside effects, and steps asked again -> Python source of a function that applies a choice made
there by generated code, as Choose.resume and the VM would apply it node by node.

`C_<node>(vm, g, _f, _option, _player)`, installed as the node's `after` (engine/nodes.py; `Game.apply` calls
it): a chosen action's effects, as a step's `A_` applies them (codegen/turns.py, apply_actions); or the chosen
values written into the environment around the choose (as `Choose._apply` writes them for one chooser), then
its `do` block: run at once by its segment when none of its effects asks a decision, counted as
the VM counts a pushed block that ran to its end, else pushed for the VM. It returns None, having done nothing,
when the top frame is not the choose's block at the choose's position (then Choose.resume applies the choice),
and false otherwise: the VM goes on from the frame the choose is in. An error inside is told at the node of the
generated line that raised it (Generated.fused_origin), as the VM would tell it.
"""
from __future__ import annotations

from ..effects.choices import Choose
from ..expr.emit import key
from .turns import again_step, apply_actions, ask_again, count_block, open_applier, tail_runs, whole_runs


def emit_decisions(b, fuser, runs) -> list:
    """Write a `C_` function for every `choose` that may have one; returns [(node, function name)]. `fuser`:
    what writes effects (a chosen action's effects are written into the function); `runs`: the segments,
    (block id, start, end, function name, whether it ends in a tail)."""
    rs, lines = b.rs, b.lines
    whole, tails = whole_runs(rs, runs), tail_runs(rs, runs)
    out, seen = [], set()
    for bid, block in enumerate(rs.blocks):
        for k, node in enumerate(block):
            if type(node) is not Choose or id(node) in seen or not plain(node):
                continue
            seen.add(id(node))
            fname = b.ns.fresh_global(f"C_{node.id}")
            lines.node = node
            open_applier(lines, fname, f"a choice of the {node.text} at its block's position {k + 1} applied",
                         f"_f[1] != {k + 1} or _f[0] is not vm.rs.blocks[{bid}]",
                         "not where its frame asks it: Choose.resume applies it")
            with lines.indent():
                if node.actions is not None:
                    _apply_action(b, fuser, node, whole, tails)
                else:
                    _apply_values(b, node, whole)
                lines.node = node
                lines.add("return False")
            lines.add("")
            lines.node = None
            out.append((node, fname))
    return out


def _apply_action(b, fuser, node, whole, tails) -> None:
    """A chosen action's effects, as a step's A_ applies them (with `me` the chooser)."""
    b.lines.add("_i, _args = _option")
    apply_actions(b, fuser, node, whole, tails)


def _apply_values(b, node, whole) -> None:
    """The chosen values written into the environment around the choose, then its `do` block: run at once by
    its segment and counted as the VM counts a block that ran to its end, or pushed for the VM."""
    lines, rs = b.lines, b.rs
    if node.optional:
        lines.add("if _option[0] < 0:")
        lines.add("    return False   # a pass: nothing to apply")
    lines.add("e = _f[2]")
    lines.add("_args = _option[1]")
    for j, name in enumerate(node.choice.all_names):
        lines.add(f"e[{key(name)}] = _args[{j}]")
    body = node.body
    if body is None:
        return
    if body in whole or not rs.blocks[body]:
        if body in whole:
            lines.node = rs.blocks[body][0]   # an error here is the segment's
            lines.add(f"if {whole[body]}(vm, g, e):")
            lines.add("    return False   # the game or the turn stopped inside: the VM goes on")
        # counted as the VM counts a pushed block that ran to its end
        count_block(lines, len(rs.blocks[body]))
    else:
        lines.add(f"vm.push({int(body)}, e)")


def plain(node) -> bool:
    """A `choose` whose choices generated code applies: one chooser, among inline arguments or actions, without
    subsets, asked once."""
    return node.players is None and not node.picks and not node.looped


def emit_again(b, fuser, runs, listed: dict, done=frozenset()) -> list:
    """`A_<step>(vm, g, _f, _option, _player)` for every step asked again after each answer (`again:`, no
    actions at any time) that generated code may ask, but those in `done` (id of the step: the turn's own,
    codegen/turns.py): an action chosen there applied (as the turn's `A_` applies it), then the loop's pass
    counted and the step asked again, as Again.block_end and Step.run do; a pass, or a loop asked as often as
    it may be, is left to Choose.resume and the VM. Returns [(step, function name)]."""
    rs, lines = b.rs, b.lines
    whole, tails = whole_runs(rs, runs), tail_runs(rs, runs)
    out = []
    for loop in rs.nodes:
        step = again_step(rs, loop, listed)
        if step is None or id(step) in done:
            continue   # a turn's step asked again has its applier from codegen/turns.py (a pass goes on there)
        fname = b.ns.fresh_global(f"A_{step.name}")
        lines.node = step
        open_applier(lines, fname, f"a choice of the step {step.text} applied, then the step asked again",
                     f"_f[3] != {int(loop.id)} or _f[1] != 1 or _f[0] is not vm.rs.blocks[{int(loop.body)}]",
                     "not where its loop asks it: Choose.resume applies it")
        with lines.indent():
            lines.add("_i, _args = _option")
            lines.add("if _i < 0:")
            lines.add("    return None   # a pass ends the asking: Choose.resume lets the loop go")
            apply_actions(b, fuser, step, whole, tails)
            ask_again(b, step, listed)
        lines.add("")
        lines.node = None
        out.append((step, fname))
    return out
