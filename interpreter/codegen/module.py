"""A compiled Ruleset -> one generated Python module (option lists, effect segments, the turn's transition,
position values), compiled and installed.

`generate(ruleset)` runs once per ruleset, while it is compiled (compiler/ruleset.py), before anything
else sees it: it writes the module, compiles it, gives each choice its option-listing function and
puts a Segment node (engine/nodes.py) at the start of every run of effects. Blocks keep their length
and their other nodes, so a frame's position means what it meant before (saved games and replays are
unchanged); the Segment makes the VM jump over the nodes it ran. After it, nothing changes the
ruleset: every game, clone, save and bot reads it as it is.
"""
from __future__ import annotations

import itertools

from ..effects import Call, Effect
from ..engine import flow as F
from ..engine import nodes as N
from ..engine.choices import Action
from ..expr.compiler import new_namespace
from ..expr.emit import Lines, build, comment, where
from .effects import Fuser
from .decisions import emit_again, emit_decisions
from .options import emit_options, emit_step
from .scoring import emit_values, install_values, shared_lists
from .turns import emit_turns

_serial = itertools.count(1)


class Generated:
    """A ruleset's generated module: its source, and which effect each line was written for."""

    def __init__(self, source: str, filename: str, owners: list, offset: int, ns):
        self.source, self.filename, self.owners, self.offset, self.ns = source, filename, owners, offset, ns
        self.loops = []   # per line: the fused loop it sits in (set by prepare)

    def node_of(self, exc, owners=None):
        owners = self.owners if owners is None else owners
        tb, line = exc.__traceback__, None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                line = tb.tb_lineno
            tb = tb.tb_next
        if line is None:
            return None
        i = line - 1 - self.offset
        return owners[i] if 0 <= i < len(owners) else None

    def fused_origin(self, exc):
        """The effect or flow node a line of a fused turn function raised `exc` at (engine/flow.py, Fused):
        the innermost generated line's, else the outermost's (a segment's first effect, for an error on
        a line of its own that belongs to none), as the VM would tell it at the node it was running."""
        tb, lines = exc.__traceback__, []
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                lines.append(tb.tb_lineno - 1 - self.offset)
            tb = tb.tb_next
        for i in (lines[-1:] + lines[:1]):
            if 0 <= i < len(self.owners) and self.owners[i] is not None:
                return self.owners[i]
        return None


class Builder:
    """The module being written: its namespace, its lines, and functions still to write."""

    def __init__(self, rs):
        self.rs, self.names = rs, rs.names
        self.ns = new_namespace()
        self.lines = Lines()
        self.later = []


def choices(rs):
    """Every choice a decision lists options of, with a name for its function and its `when`."""
    for name, action in rs.actions.items():
        yield action, f"O_{name}", action.when
    for node in rs.nodes:
        choice = getattr(node, "choice", None)
        if isinstance(node, N.Choose) and choice is not None:
            yield choice, f"O_choose_{node.id}", None


def block_roles(rs) -> dict:
    """A readable name for the blocks people know: actions' effects and procedures."""
    roles = {}
    for name, action in rs.actions.items():
        if action.block is not None:
            roles.setdefault(action.block, f"do_{name}")
    for node in rs.nodes:
        if isinstance(node, Call) and node.name:
            roles.setdefault(node.block, f"procedure_{node.name}")
    return roles


def emit_ends(b, node, fname) -> None:
    """`def fname(g, e)`: the index of the first end condition that holds (the game's, then the round's)."""
    from ..expr.compiler import emit_expr, emit_quantifier
    lines = b.lines
    lines.add(f"def {fname}(g, e):")
    with lines.indent():
        lines.add("me = e.get('me')")
        at = lines.mark()
        for i, (cond, *_) in enumerate(node.game_ends + node.round_ends):
            before, subst = shared_lists(b, cond)   # the same cards' attribute read twice: read once
            for line in before:
                lines.add(line)
            quantified = emit_quantifier(cond, b.names, b.ns, {'me': 'me'}, subst=subst)
            if quantified is None:
                lines.add(f"if {emit_expr(cond, b.names, b.ns, {'me': 'me'}, subst=subst)}:")
                lines.add(f"    return {i}")
                continue
            # `any(xs, test)` / `all(xs, test)` as a loop that stops where the generator would
            name, item, test, walk = quantified
            lines.add(f"for {item} in {walk}:")
            if name == "any":
                lines.add(f"    if {test}:")
                lines.add(f"        return {i}")
            else:
                lines.add(f"    if not ({test}):")
                lines.add("        break")
                lines.add("else:")
                lines.add(f"    return {i}")
        lines.add("return -1")
        if not lines.reads("me", at):
            lines.drop(at - 1)   # `me` read nowhere: not looked up
    lines.add("")


def sub_blocks(node) -> list:
    """The blocks a node may push (an effect's, a flow node's body or block, the effects of the actions a
    step offers, the effects of the game's ends)."""
    if isinstance(node, Effect):
        return list(node.blocks())
    out = [getattr(node, a, None) for a in ("body", "block")]
    for action in getattr(node, "actions", None) or ():
        out.append(action.block)
    for entry in getattr(node, "game_ends", None) or ():
        out.append(entry[3])
    return [b for b in out if isinstance(b, int)]


def vm_blocks(rs, fuser) -> list:
    """The blocks the VM runs as frames, in order: from the game's block, through every node that is not
    fused (a fused node's blocks are written inside its segment; a tail's, only those it pushes)."""
    order, seen = [], set()
    todo = [rs.game_block] + [a.block for a in rs.actions.values() if a.block is not None]
    while todo:
        bid = todo.pop()
        if bid in seen:
            continue
        seen.add(bid)
        order.append(bid)
        for node in rs.blocks[bid]:
            if fuser.tail(node):
                todo.extend(fuser.pushed_blocks(node))
            elif not fuser.fusible(node):
                todo.extend(sub_blocks(node))
    return sorted(order)


def segments_of(block, fuser) -> list:
    """The runs of a block that become segments: (start, end, whether the last one is a tail). A decision
    asked at the end of a segment ends one that has effects before it, never one of its own: the block keeps
    the decision's node at the position its frame stops at, where saves and `Choose.resume` look for it."""
    out, i = [], 0
    while i < len(block):
        if not fuser.fusible(block[i]) and (not fuser.tail(block[i]) or fuser.asked(block[i])):
            i += 1
            continue
        j = i
        while j < len(block) and fuser.fusible(block[j]):
            j += 1
        tail = j < len(block) and fuser.tail(block[j])
        if tail:
            j += 1
        out.append((i, j, tail))
        i = j
    return out


REFUSED = (ValueError, TypeError, KeyError, IndexError, AttributeError, AssertionError, SyntaxError, RecursionError)


def generate(rs) -> None:
    """Write, compile and install the ruleset's code: called once, by the compiler, before the ruleset is
    handed out (compiler/ruleset.py); nothing is installed later. What generation refuses is raised with
    the node it was writing (`exc.node`), for the compiler to tell where."""
    b = Builder(rs)
    try:
        _generate(rs, b)
    except REFUSED as exc:
        exc.node = b.lines.node
        raise


def _generate(rs, b) -> None:
    lines = b.lines
    installs, ends = [], []
    for choice, hint, when in choices(rs):
        fname = b.ns.fresh_global(hint)
        lines.node = None
        lines.add(comment(f"the options of {choice.name}"))
        emit_options(b, choice, fname, when if isinstance(choice, Action) else None)
        lines.add("")
        installs.append((choice, fname))
    for node in rs.nodes:
        if type(node) is F.Step or (isinstance(node, N.Choose) and node.actions is not None):
            # a step, and any other decision among actions (a `react` window, a `choose` of actions)
            name = node.name if type(node) is F.Step else f"{node.text}_{node.id}"
            fname = b.ns.fresh_global(f"S_{name}")
            lines.add(comment(f"the options of the step {node.name}" if type(node) is F.Step
                              else f"the options of the decision '{node.text}' ({where(node.loc)})"))
            lines.node = node   # an error here is the decision's (see Generated.fused_origin)
            chooser, node.on_demand = emit_step(b, node, fname)
            if not chooser and isinstance(node, N.Choose):
                node.same_options = True   # no chooser's options differ: listed once for all (Choose.run)
            lines.node = None
            lines.add("")
            installs.append((node, fname))
        elif type(node) is F.EndChecks:
            fname = b.ns.fresh_global("E_ends")
            lines.add(comment("the end conditions, the game's first"))
            lines.node = node
            emit_ends(b, node, fname)
            lines.node = None
            ends.append((node, fname))
    valued = emit_values(b)
    fuser = Fuser(b)
    roles = block_roles(rs)
    runs = []   # (block id, start, end, function name, whether it ends in a tail)
    seen = set()
    for bid in vm_blocks(rs, fuser):
        block = rs.blocks[bid]
        if id(block) in seen or not block:
            continue
        seen.add(id(block))
        for i, j, tail in segments_of(block, fuser):
            role = roles.get(bid, f"block{bid}")
            fname = b.ns.fresh_global(f"B_{role}" if i == 0 else f"B_{role}_from{i}")
            fuser.segment(list(block[i:j]), fname, f"{role}: effects {i + 1} to {j} of {len(block)}")
            runs.append((bid, i, j, fname, tail))
    fused, after = emit_turns(b, fuser, runs,
                       {id(node): fname for node, fname in installs if type(node) is F.Step},
                       {id(node): fname for node, fname in ends})
    decided = emit_decisions(b, fuser, runs) + emit_again(b, fuser, runs, {id(node): fname for node, fname in installs
                                                                    if type(node) is F.Step},
                                                          {id(node) for node, _ in after})
    while b.later:
        fn, args = b.later.pop(0)
        fn(*args)
    head = "".join(b.ns.defs)
    source = head + lines.text()
    filename = f"<rulebook {comment(rs.name)[2:40]} #{next(_serial)}>"
    values = build(source, b.ns, filename)
    generated = Generated(source, filename, lines.owner, head.count("\n"), b.ns)
    generated.loops = lines.loops
    for choice, fname in installs:
        choice.listed = values[fname]
    for node, fname in ends:
        node.first_end = values[fname]
    install_values(rs, values, valued)
    for node, fname in fused:
        # the block end is the generated function itself: the VM calls it without a method between
        node.fused = node.block_end = values[fname]
        node.generated = generated
    for node, fname in after + decided:
        node.after = values[fname]
    for node in rs.nodes:
        if isinstance(node, N.Choose):
            node.generated = generated   # an error while its options are listed is told at the expression
    edited = {}   # id(old block) -> (old block, its nodes with segments in)
    for bid, i, j, fname, tail in runs:
        block = rs.blocks[bid]
        nodes = edited.setdefault(id(block), (block, list(block)))[1]
        nodes[i] = N.Segment(values[fname], j, block[i:j], generated, tail)
    new = {k: tuple(nodes) for k, (_, nodes) in edited.items()}
    for bid, block in enumerate(rs.blocks):
        if id(block) in new:
            rs.blocks[bid] = new[id(block)]   # a block shared by several ids stays shared
    rs.reindex_blocks()
    for action in rs.actions.values():
        block = rs.blocks[action.block] if action.block is not None else ()
        if block and type(block[0]) is N.Segment and block[0].end == len(block) and not block[0].tail:
            action.direct = block[0]   # its effects never wait for a decision: run without a frame
    for node in rs.nodes:
        if isinstance(node, N.Choose) and node.actions is None and isinstance(node.body, int):
            block = rs.blocks[node.body]
            if block and type(block[0]) is N.Segment and block[0].end == len(block) and not block[0].tail:
                node.direct = block[0]   # a `choose`'s `do` that never waits: run without a frame, as an action's
    rs.generated = generated


def python_source(rs) -> str:
    """The generated module of a ruleset as people read it: the constants it names, then the code."""
    gen = rs.generated
    out = [comment(f"Python generated for the ruleset {rs.name}"), "# constants:"]
    for name, value in gen.ns.shown:
        out.append(comment(f"{name} = {_shown(value)}"))
    return "\n".join(out) + "\n\n" + gen.source


def _shown(value) -> str:
    if callable(value):
        text = getattr(value, "text", None)
        return f"<expression {text!r}>" if text else f"<{type(value).__name__}>"
    text = repr(value)
    return text if len(text) <= 100 else text[:97] + "..."

