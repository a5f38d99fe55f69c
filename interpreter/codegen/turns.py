"""The flow of a turn (its loop, steps and end checks) -> Python source of the turn's transition: from the end
of one turn's steps to the next turn's first decision in one call, doing what the VM would do node by node
(the turn's nodes are run by the VM only for the first turn of a round).

Two functions, installed as the block ends of the flow nodes (engine/flow.py, `Fused`):

- `T_turn_end(vm, g, frame)`, when the steps' block ran to its end: the turn's `end` effects, its end
  checks, and (no end holding) the turn's block counted as the VM counts it, then the next turn;
- `T_turn_start(vm, g, frame)`, when the turn's block ends: the next player, the turn counted (or the
  turn limit reached), its `start` effects, its steps pushed, and the first step that offers options
  asks for a decision.

- `A_<step>(vm, g, frame, option, player)`, installed as a step's `after` (engine/flow.py, `Step`): a
  choice made in that step, from its action's effects (when they never ask a decision) through the
  later steps up to the next decision, as `Game.apply` and the VM would do it node by node; it returns
  None, having done nothing, when the frame on top is not the steps' (the VM then does it).

They leave the frames exactly as the VM would (positions, environments, pushed blocks), so saved games,
clones and replays see no difference. Anything else they meet (an effect that asks a decision, a step of
several players, an end that holds) is left to the VM: they set the frame's position to that node and
return false, and the VM goes on from there.
"""
from __future__ import annotations

from ..engine import flow as F
from ..engine.nodes import MAX_FREE, Again
from ..expr.emit import comment, key, local_name, where
from ..runtime.effects import MAX_LOOP


def emit_turns(b, fuser, runs, listed: dict, ends: dict) -> tuple[list, list]:
    """Write the turn's transition functions; returns [(flow node, function name)] to install as `fused`,
    and [(step, function name)] to install as `after`.

    `fuser`: what writes effects (an action's effects are written into a step's `A_` function); `runs`: the
    segments, (block id, start, end, function name, whether it ends in a tail); `listed`:
    id(step) -> the name of its generated options; `ends`: id(end checks) -> the name of its generated end
    conditions."""
    rs = b.rs
    loop, steps = rs.nodes[rs.turn_loop_node], rs.nodes[rs.steps_node]
    body = rs.blocks[loop.body]
    # the flow compiler (compiler/flow.py) always builds a turn so
    assert type(loop) is F.TurnLoop and type(steps) is F.Steps and steps in body and type(body[0]) is F.TurnStart
    segments = {i: (j, fname) for bid, i, j, fname, _ in runs if rs.blocks[bid] is body}
    start = b.ns.fresh_global("T_turn_start")
    end = b.ns.fresh_global("T_turn_end")
    writer = _Writer(b, body, segments, fuser)
    writer.start(start, loop, steps, listed)
    writer.end(end, start, loop, steps, ends)
    whole = whole_runs(rs, runs)
    writer.tails = tail_runs(rs, runs)
    after = []
    for k, step in enumerate(rs.blocks[steps.body]):
        fname = writer.after(k, step, steps, listed, whole, end)
        if fname is not None:
            # installed on the decision: the step, or the step a loop asks again
            after.append((again_step(rs, step, listed) or step, fname))
    return [(loop, start), (steps, end)], after


def open_applier(lines, fname: str, what: str, guard: str, why: str) -> None:
    """Begin a generated function that applies a choice (A_, C_): its head, a comment saying `what` it
    applies, and the check that the frame asks it where the function was written for (`guard` true: not
    there, and `why` says who applies it instead). The body is written indented after it."""
    lines.add(f"def {fname}(vm, g, _f, _option, _player):")
    with lines.indent():
        lines.add(comment(what))
        lines.add(f"if {guard}:")
        lines.add(f"    return None   # {why}")


def whole_runs(rs, runs) -> dict:
    """Block id -> the segment function that runs the whole block (none of its effects asks a decision)."""
    return {bid: fname for bid, i, j, fname, tail in runs if i == 0 and j == len(rs.blocks[bid]) and not tail}


def tail_runs(rs, runs) -> dict:
    """Block id -> the segment function that runs the whole block, whose last effect may push a block of its
    that waits for a decision or ask one (a tail: an `if` whose branch asks one, a procedure's call, an
    `if_empty`, a `choose` or `react` asked once)."""
    return {bid: fname for bid, i, j, fname, tail in runs if i == 0 and j == len(rs.blocks[bid]) and tail}


def count_block(lines, size: int) -> None:
    """A block of `size` nodes that ran to its end counted towards the step's budget, as the VM counts it
    (`Game._run`; calling `vm.over_nodes` only to make the error)."""
    lines.add(f"vm.steps = _s = vm.steps - {size + 1}")
    lines.add("if _s < 0:")
    lines.add("    raise vm.over_nodes()")


def again_step(rs, loop, listed):
    """The step an `Again` loop asks again (`again:`) when generated code may ask it and apply its choices:
    the loop's body is that one step, asked inline (_Writer.plain), without actions at any time or picks;
    else None."""
    if type(loop) is not Again or len(rs.blocks[loop.body]) != 1:
        return None
    step = rs.blocks[loop.body][0]
    if _Writer.plain(step, listed) and step.looped and step.again and not step.free and not step.picks:
        return step
    return None


def ask_again(b, step, listed) -> None:
    """Statements that end an applier of a step asked again (its loop's frame is `_f`), after an action was
    applied: the loop's pass counted and the step asked again, as Again.block_end and Step.run do; a loop
    asked as often as it may be is left to the VM (Again.block_end ends it)."""
    lines = b.lines
    lines.node = step
    lines.add("stack = g.stack")
    lines.add("if not stack or stack[-1] is not _f:")
    lines.add("    return False")
    lines.add("_d = _f[4]")
    lines.add(f"if _d[0] >= _d[1] or _d[2] >= {int(MAX_FREE)}:")
    lines.add("    return False   # asked as often as it may be: the VM ends the loop (Again.block_end)")
    count_block(lines, 1)
    lines.add("_d[0] += 1")
    lines.add("_f[1] = 1")
    lines.add("e = _f[2]")
    lines.add("me = e.get('me')")
    ask_looped(b, step, listed)
    lines.add("return False")


def ask_looped(b, step, listed) -> None:
    """Statements that ask a step asked again, its loop's frame on top, as Step.run asks it (the statements
    return when it asks); its condition false or nothing to offer, the loop's frame is popped and they go on."""
    lines = b.lines
    probed(lines, step)
    depth = lines.depth
    if step.when is not None:
        from ..expr.compiler import emit_expr
        lines.add(f"if {emit_expr(step.when, b.names, b.ns, {'me': 'me'})}:")
        lines.depth += 1
    asked(lines, step, listed)
    lines.depth = depth
    lines.add("stack.pop()   # its condition false or nothing to offer: the loop is over")


def probed(lines, step) -> None:
    """A lookahead that only probes stops where the step would be asked, without listing its options."""
    lines.add("if vm.probing:")
    lines.add(f"    return vm.ask({int(step.id)}, -1, ())")


def asked(lines, step, listed) -> None:
    """The step's options listed for the current player and, when there are any, its decision made pending as
    vm.ask makes it (vm.ask words the error of too many); the statements return true there, else go on."""
    lines.add(f"_o = {listed[id(step)]}(g, e, g.current)")
    if step.on_demand:   # options made on demand count in Python (runtime/listing.py): counted once
        lines.add("_k = len(_o)")
        lines.add("if _k:")
        lines.add("    if _k > R_MAX_OPTIONS:")
    else:
        lines.add("if _o:")
        lines.add("    if len(_o) > R_MAX_OPTIONS:")
    lines.add(f"        return vm.ask({int(step.id)}, g.current, _o)")
    lines.add(f"    g.pending = ({int(step.id)}, g.current, _o)")
    lines.add("    return True")


def _writable_when(step) -> bool:
    """Whether a step's `if` (its `when`) can be written into generated code: none, or a compiled expression
    (its tree kept), or a constant."""
    when = getattr(step, "when", None)
    return when is None or getattr(when, "tree", None) is not None or getattr(when, "constant", None) is not None


def asked_together(b, step, listed) -> None:
    """The options of every chooser of a step of several players listed from the same state (in the order
    `players` gives them; a chooser with none is left out), its hold frame pushed and the first chooser asked,
    as Choose.run does; the statements return there, else (nobody has an option) go on."""
    from ..expr.compiler import emit_expr
    lines, sid = b.lines, int(step.id)
    if getattr(step.players, "tree", None) is not None and emit_expr(step.players, b.names, b.ns, {}) == "g.players":
        who = "g.players"   # `players`: every player of the game, in seat order, nothing to check
    else:
        who = f"N_as_players(g, {b.ns.const(step.players, 'K_players')}(g, e, None), 'choosers')"
    lines.add(f"_q = [(_p, tuple({listed[id(step)]}(g, e, _p))) for _p in {who}]")
    lines.add("_q = [_x for _x in _q if _x[1]]")
    lines.add("if _q:")
    lines.add(f"    g.stack.append([(), 0, e, {sid}, {{'queue': _q, 'chosen': [], 'at': len(g.history)}}])")
    lines.add(f"    return vm.ask({sid}, _q[0][0], _q[0][1])")


def push_block(lines, bid: int, env: str, pc: int = 0, var: str | None = None) -> None:
    """Statements that push block `bid` with the environment `env` (its source) at `pc`, as Game.push does
    (past MAX_STACK frames, Game.push's own error), without a method call; `var`: a variable that keeps the
    frame."""
    frame = f"[vm.rs.blocks[{int(bid)}], {int(pc)}, {env}, -1, None]"
    lines.add("if len(g.stack) >= R_MAX_STACK:")
    lines.add(f"    vm.push({int(bid)}, {{}})   # too deep: its error")
    lines.add(f"g.stack.append({var} := {frame})" if var else f"g.stack.append({frame})")


def apply_actions(b, fuser, step, whole, tails=None) -> None:
    """Statements that apply the option `(_i, _args)` of a step chosen by `_player` (a pass does nothing), as
    Choose._apply does: an action whose effects never ask a decision written in place (`whole`: block id ->
    the segment that runs it all) and counted as Game.run_segment counts it; one whose block is a segment
    ending in a tail (`tails`, the same for those) has its block pushed and that segment run as the VM runs
    it, and where its tail pushed nothing the block ends here as the VM ends it; one whose effects ask a
    decision otherwise has its block pushed, and the statements return false (the VM runs it)."""
    lines = b.lines
    first = True   # the first action with effects opens the branches (an action before it may have none)
    for i, action in enumerate(step.actions):
        if action.block is None:
            continue
        block = b.rs.blocks[action.block]
        lines.node = block[0]   # an error here is the segment's, as Game.run_segment tells it
        lines.add(f"{'if' if first else 'elif'} _i == {i}:")
        first = False
        env = ", ".join([f"{key(n)}: _args[{j}]" for j, n in enumerate(action.all_names)])
        env = f"{{'me': _player{', ' if env else ''}{env}}}"
        with lines.indent():
            if tails and action.block in tails:
                # effects whose last may push a block that waits for a decision, or ask one: the block pushed,
                # as Choose._apply pushes it, and its one segment run as Segment.run runs it
                lines.add(comment(f"{action.name}: its effects, the last of which may wait for a decision"))
                push_block(lines, action.block, env, len(block), "_b")
                lines.add(f"if {tails[action.block]}(vm, g, _b[2]) and g.pending is not None:")
                lines.add("    return True   # its decision is asked")
                lines.add("if not g.stack or g.stack[-1] is not _b:")
                lines.add("    return False   # a block pushed, or the game or the turn stopped: the VM goes on")
                # nothing pushed: the block ran to its end, counted and left as the VM counts and leaves it (an
                # error told at the segment's first effect, as the VM tells one raised after its segment ran)
                count_block(lines, len(block))
                lines.add("g.stack.pop()")
                continue
            if action.block not in whole:
                # effects that ask a decision: their block pushed, as Choose._apply pushes it
                lines.add(comment(f"{action.name}: its effects wait for decisions: the VM runs them"))
                push_block(lines, action.block, env)
                lines.add("return False")
                continue
            # its effects, written here as its segment is (Game.run_segment runs that one)
            lines.add(comment(f"{action.name}: its effects"))
            lines.add("me = _player")
            for j, n in enumerate(action.all_names):
                lines.add(f"{local_name(n)} = _args[{j}]")
            at = lines.mark()
            known = known_arguments(b, action)
            fuser.inline(list(block), action.all_names, known=known)
            if known and lines.assigned(at) & known.keys():
                # an argument named again inside (a `let` or a `for_each` of the same name): not known there,
                # written again without what was known
                lines.cut(at)
                fuser.inline(list(block), action.all_names)
            if lines.reads("e", at):
                lines.insert(at, [f"e = {env}"])   # the environment Choose._apply makes, where read
            lines.node = block[0]
            count_block(lines, len(block))


def known_arguments(b, action) -> dict:
    """What is known at load of the values of an action's arguments: for one chosen from a constant list (a
    domain such as `range(count(row))`, written as a constant of the module), its values; for one chosen
    from `groups(xs, attr)` (R_groups_of, R_zone_groups), that it is a group (GROUP: never empty, no item None). An option
    applied here was listed from those domains, so its argument is one of them (emit_expr: a family's member
    it names needs no check, nor `first(it).attr`) as long as nothing in its effects names it again
    (apply_actions checks). The action keeps them by argument index (`Action.fixed_domains`,
    `Action.grouped`): a save's option must hold one of them (engine/saves.py)."""
    from ..expr.compiler import GROUP, emit_expr, is_groups_call
    fixed, known = {}, {}
    for j, domain in enumerate(action.domains):
        if getattr(domain, "tree", None) is None:
            continue
        src = emit_expr(domain, b.names, b.ns, {"me": "me"})
        value = b.ns.values.get(src) if src.isidentifier() else None
        if type(value) is list and all(type(v) in (int, str) for v in value):
            fixed[j] = known[local_name(action.arg_names[j])] = tuple(value)
        elif is_groups_call(src):   # chosen_from_groups, on the source written already
            known[local_name(action.arg_names[j])] = GROUP
    if fixed:
        action.fixed_domains = fixed
    grouped = tuple(j for j, name in enumerate(action.arg_names) if known.get(local_name(name)) is GROUP)
    if grouped:
        action.grouped = grouped
    return known


class _Writer:
    def __init__(self, b, body, segments, fuser):
        self.b, self.lines, self.body, self.segments, self.fuser = b, b.lines, body, segments, fuser
        self.tails = {}   # block id -> the segment running a block that ends in a tail (tail_runs)

    def effects(self, pos: int, stop) -> int | None:
        """Statements that run the turn's block from `pos` up to the node `stop` (its position is returned);
        None when a node that is neither a segment nor `stop` comes first (left to the VM)."""
        lines, body = self.lines, self.body
        while pos < len(body):
            if pos in self.segments:
                j, fname = self.segments[pos]
                lines.node = body[pos]
                lines.add(f"frame[1] = {int(j)}")
                # the segment's effects written here (the turn's environment kept, as the segment keeps it)
                lines.add("me = e.get('me')")
                at = lines.mark()
                self.fuser.inline(list(body[pos:j]), (), lazy=False)
                if not lines.reads("me", at):
                    lines.drop(at - 1)
                lines.node = body[pos]
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
            # the turn counted, as TurnStart.run counts it (at the limit, it ends the game stalled)
            lines.add(f"if g.turn >= {int(turn.limit)}:")
            lines.add(f"    {b.ns.const(turn, 'K_turn')}.run(vm, g, frame)")
            lines.add("    if g.result is not None:")
            lines.add("        return True")
            lines.add("else:")
            lines.add("    g.turn += 1")
            pos = self.effects(1, steps)
            if pos is not None:
                self.steps(pos, steps, listed)
        lines.add("")
        lines.node = None

    def steps(self, pos, steps, listed) -> None:
        lines = self.lines
        lines.node = steps
        lines.add(f"frame[1] = {int(pos) + 1}")
        # pushed as vm.push would, without its depth check: the turn's frames are always as deep
        lines.add(f"stack.append(_f := [vm.rs.blocks[{int(steps.body)}], 0, e, {int(steps.id)}, None])")
        lines.add("me = e.get('me')")
        at = lines.mark()
        if self.ask_steps(0, steps, listed):
            lines.add("return False   # no step offers anything: the VM ends the steps' block")
        if not lines.reads("me", at):
            lines.drop(at - 1)   # `me` read nowhere: not looked up

    @staticmethod
    def plain(step, listed) -> bool:
        """A step asked inline: one player, the current one, its options generated, its `when` writable."""
        return (type(step) is F.Step and step.players is None and step.own_player is None
                and listed.get(id(step)) is not None and _writable_when(step))

    @staticmethod
    def together(step, listed) -> bool:
        """A step of several players at once asked inline (every chooser's options listed, the first asked),
        its choices collected and applied by its `A_` (after_together): all must choose, its options generated
        and without subsets, not asked again, no actions at any time, its `when` writable."""
        return (type(step) is F.Step and step.players is not None and step.until == "all" and not step.picks
                and not step.looped and not step.free and listed.get(id(step)) is not None
                and _writable_when(step))

    def ask_steps(self, first, steps, listed) -> bool:
        """Statements that ask the steps from number `first` on (the steps' frame is `_f`, the turn's
        environment `e`, its `me` in `me`), the first that offers options asking; false when a step is left
        to the VM (the statements return), true when they go on after the last step (none offered)."""
        from ..expr.compiler import emit_expr
        b, lines = self.b, self.lines
        for k, step in enumerate(self.b.rs.blocks[steps.body]):
            if k < first:
                continue
            lines.node = step
            lines.add(comment(f"step {step.text}"))
            lines.add(f"_f[1] = {k + 1}")
            looped = again_step(b.rs, step, listed)
            if looped is not None:
                self.enter_again(step, looped, listed)
                continue
            probed(lines, step)
            together = self.together(step, listed)
            if not together and not self.plain(step, listed):
                lines.add(f"_f[1] = {k}   # left to the VM")
                lines.add("return False")
                return False
            depth = lines.depth
            when = step.when
            if when is not None:
                lines.add(f"if {emit_expr(when, b.names, b.ns, {'me': 'me'})}:")
                lines.depth += 1
            if together:
                asked_together(b, step, listed)
            else:
                asked(lines, step, listed)
            lines.depth = depth
        return True

    def enter_again(self, loop, step, listed) -> None:
        """Statements that ask a step asked again as the VM first asks it: its loop's frame pushed (Again.run,
        with the loop's limit), then the step asked (Step.run); its condition false or nothing to offer, the
        loop is over, and the statements go on to the next step."""
        b, lines = self.b, self.lines
        limit = loop.limit
        depth = lines.depth

        def push(most: str) -> None:   # the loop's frame: its first pass of `most` at most, no free action yet
            lines.add(f"stack.append(_f := [vm.rs.blocks[{int(loop.body)}], 1, e, {int(loop.id)}, [1, {most}, 0]])")

        if getattr(limit, "constant", None) is not None and type(limit.constant[0]) is int:
            most = min(limit.constant[0], MAX_LOOP)
            if most < 1:
                return   # never asked: the VM pushes nothing
            push(str(int(most)))
        else:
            lines.add(f"_n = min({b.ns.const(limit, 'K_limit')}(g, e, None), {int(MAX_LOOP)})")
            lines.add("if _n >= 1:")
            lines.depth += 1
            push("_n")
        lines.node = step
        ask_looped(b, step, listed)
        lines.add("_f = stack[-1]")
        lines.depth = depth

    def after(self, k, step, steps, listed, whole, turn_end) -> str | None:
        """`A_<step>(vm, g, _f, option, player)`: a choice made in step number k applied (an action whose
        effects never ask a decision, run as `Choose._apply` and `Game.run_segment` run it, or a pass),
        then the later steps asked, or the steps' block ended as the VM ends it (an action whose effects
        ask a decision has its block pushed for the VM); None when the step's choices are left to
        `Choose.resume` (several players, picks, asked again)."""
        b, lines = self.b, self.lines
        looped = again_step(b.rs, step, listed)
        if looped is not None:
            return self.after_again(k, step, looped, steps, listed, whole, turn_end)
        if self.together(step, listed):
            return self.after_together(k, step, steps, listed, whole, turn_end)
        if not self.plain(step, listed) or step.picks or step.looped or step.free:
            return None
        fname = b.ns.fresh_global(f"A_{step.name}")
        lines.node = step
        # the names of this function start with _: an author's local names never do (expr/emit.local_name)
        open_applier(lines, fname, f"a choice of the step {step.text} applied, then on to the next decision",
                     f"_f[3] != {int(steps.id)} or _f[1] != {k + 1}",
                     "not where the steps' frame asks it: Choose.resume applies it")
        with lines.indent():
            lines.add("_i, _args = _option")
            lines.add("stack = g.stack")
            self.applied(step, whole, self.tails)
            self.later_steps(k, steps, listed, turn_end)
        lines.add("")
        lines.node = None
        return fname

    def after_together(self, k, step, steps, listed, whole, turn_end) -> str:
        """`A_<step>` of step number k when several players choose at once (the hold frame `_f` on top, as
        Choose.run left it): a choice kept and the next chooser asked, as Choose.resume does; the last choice
        in, every choice that does something applied in priority order (the seat `turn mod players` first),
        each action's effects written in place, then the later steps asked. A chosen action whose effects ask
        a decision has its block pushed for the VM, with the later choices' under it, as Choose.resume
        pushes them."""
        b, lines = self.b, self.lines
        fname = b.ns.fresh_global(f"A_{step.name}")
        sid = int(step.id)
        lines.node = step
        open_applier(lines, fname, f"a choice of the step {step.text}, of several players at once: kept, and the "
                     "next chooser asked; the last one in, every choice applied, then on to the next decision",
                     f"_f[3] != {sid} or _f[0]", "not its hold frame: Choose.resume applies it")
        with lines.indent():
            lines.add("_d = _f[4]")
            lines.add("_c = _d['chosen'] + [(_player, tuple(_option))]")
            lines.add("_q = _d['queue']")
            lines.add("if len(_c) < len(_q):")
            with lines.indent():
                lines.add("# the data is replaced, never changed in place: clones share it (State.clone)")
                lines.add("_f[4] = {**_d, 'chosen': _c}")
                lines.add("_n = _q[len(_c)]")
                lines.add(f"return vm.ask({sid}, _n[0], _n[1])")
            lines.add("_o = [_x for _x in _c if _x[1][0] >= 0]   # a pass does nothing")
            lines.add("stack = g.stack")
            lines.add(f"if len(stack) < 2 or stack[-2][3] != {int(steps.id)} or stack[-2][1] != {k + 1}:")
            lines.add("    return None   # not in the turn's steps: Choose.resume applies it")
            lines.add("stack.pop()   # the hold frame: every choice is in")
            lines.add("_f = stack[-1]")
            lines.add("if len(_o) > 1:")
            with lines.indent():
                lines.add("_t, _n = g.turn % g.n, g.n")
                lines.add("_o.sort(key=lambda _x: (_x[0] - _t) % _n)")
            pushed = [i for i, action in enumerate(step.actions)
                      if action.block is not None and action.block not in whole]
            lines.add("for _k, (_player, (_i, _args)) in enumerate(_o):")
            with lines.indent():
                if pushed:
                    # effects that ask a decision are pushed for the VM (below): the later choices are pushed
                    # under them first, last-first, as Choose.resume pushes them, to run once they are done
                    lines.add(f"if _i in {b.ns.const(frozenset(pushed), 'K_pushed')}:")
                    lines.add("    for _x in reversed(_o[_k + 1:]):")
                    lines.add(f"        {b.ns.const(step, 'K_step')}._apply(vm, _f[2], _x[1], _x[0], False)")
                self.applied(step, whole)
            self.later_steps(k, steps, listed, turn_end)
        lines.add("")
        lines.node = None
        return fname

    def applied(self, step, whole, tails=None) -> None:
        """Statements that apply the chosen option (apply_actions), then return false, the VM going on, when
        the game or the turn stopped inside (the steps' frame `_f` no longer on top of `stack`)."""
        apply_actions(self.b, self.fuser, step, whole, tails)
        self.lines.node = step
        self.lines.add("if not stack or stack[-1] is not _f:")
        self.lines.add("    return False   # the game or the turn stopped inside: the VM goes on")

    def later_steps(self, k, steps, listed, turn_end) -> None:
        """Statements that go on in the steps' frame `_f` after step number k: the later steps asked, or the
        steps' block ended as the VM ends it."""
        b, lines = self.b, self.lines
        lines.add("e = _f[2]")
        lines.add("me = e.get('me')")
        at = lines.mark()
        if self.ask_steps(k + 1, steps, listed):
            # the steps' block ran to its end: it pays for its nodes as the VM counts them (an error told at
            # the last step, the node the VM ran last), then its end
            lines.node = b.rs.blocks[steps.body][-1]
            count_block(lines, len(b.rs.blocks[steps.body]))
            lines.add(f"return {turn_end}(vm, g, _f)")
        if not lines.reads("me", at):
            lines.drop(at - 1)   # `me` read nowhere: not looked up

    def after_again(self, k, loop, step, steps, listed, whole, turn_end) -> str:
        """`A_<step>` of a turn's step asked again (number k of the steps, in its loop `loop`): an action
        chosen there applied, then the step asked again (as codegen/decisions.py's emit_again does); a pass
        ends the loop, as Choose.resume ends it, and the later steps are asked, as a plain step's applier asks
        them. Installed as the step's `after`."""
        b, lines = self.b, self.lines
        fname = b.ns.fresh_global(f"A_{step.name}")
        lines.node = step
        open_applier(lines, fname, f"a choice of the step {step.text} applied, then the step asked again; a pass "
                     "ends it and the later steps are asked",
                     f"_f[3] != {int(loop.id)} or _f[1] != 1 or _f[0] is not vm.rs.blocks[{int(loop.body)}]",
                     "not where its loop asks it: Choose.resume applies it")
        with lines.indent():
            lines.add("_i, _args = _option")
            lines.add("if _i < 0:")
            with lines.indent():
                lines.add(comment("a pass: the loop is over (Choose.resume pops it), then the later steps"))
                lines.add("stack = g.stack")
                lines.add("stack.pop()")
                lines.add("if not stack:")
                lines.add("    return False")
                lines.add("_f = stack[-1]")
                lines.add(f"if _f[3] != {int(steps.id)} or _f[1] != {k + 1}:")
                lines.add("    return False   # not in the turn's steps: the VM goes on")
                self.later_steps(k, steps, listed, turn_end)
            apply_actions(b, self.fuser, step, whole, self.tails)
            ask_again(b, step, listed)
        lines.add("")
        lines.node = None
        return fname

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
                        count_block(lines, len(body))
                        lines.add(f"return {start}(vm, g, frame)")
        lines.add("")
        lines.node = None
