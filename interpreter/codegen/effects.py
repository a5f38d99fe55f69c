"""Runs of effects that never wait for a decision -> Python source of one function per run ("segments").

Generated code is the only way effects run. A segment runs its effects in order, each written by its
definition (`emit`, interpreter/effects/), with their expressions inline and local names as Python
variables (still written to the environment, which later effects, labels and saves read). Control
flow inside it (if, loops, procedure calls) is Python control flow when every effect it contains may be
fused too. An `if`, a procedure call or a move or deal with `if_empty` whose effects ask a decision ends
its segment (a "tail", an effect that `pushes`): the segment does its own part (the condition, the
arguments, the move) and pushes the block that waits for the VM. What stays a node of the VM is only
what waits: decisions, and the loops around them.
A segment function returns True when the game stopped inside it (it ended, stalled, or a turn or
round was left): the VM then finds its frame gone.
"""
from __future__ import annotations

from contextlib import contextmanager

from ..effects import Effect
from ..effects.choices import Choose as ChooseEffect
from ..expr.emit import comment, key, local_name, where


class Fuser:
    """Decides which effects may be fused and writes the functions (see module.py for the module); the
    effects' `emit` write their statements through it (`w`)."""

    def __init__(self, builder):
        self.b = builder
        self.rs = builder.rs
        self.lines = builder.lines
        self._fusible = {}      # id(block) -> bool
        self._visiting = set()  # procedure blocks being checked (a procedure that calls itself is not fused)
        self.procedures = {}    # block id -> generated function name
        self.other = None       # how the segment being written reads a name it has not bound
        self.stop = "return True"   # the statement that leaves the code being written when the game stopped
        self.lazy = False   # no environment kept up to date: one made from the Python variables where needed
        self.known = None   # Python variables whose every value is known at load (see emit_expr)

    # what may be fused -------------------------------------------------------------------------
    def fusible(self, node) -> bool:
        """An effect that asks no decision and whose blocks (all of them) may be fused too."""
        return isinstance(node, Effect) and not node.waits and all(self.block_fusible(b) for b in node.blocks())

    def tail(self, node) -> bool:
        """Whether a node that is not fusible may end a segment: its own part run in Python, then the block
        of its that waits for a decision pushed for the VM (an `if`'s branch, a procedure, an `if_empty`), or
        a decision asked once (`asked`)."""
        return isinstance(node, Effect) and (node.pushes or self.asked(node)) and not self.fusible(node)

    @staticmethod
    def asked(node) -> bool:
        """A `choose` or `react` asked once (not again after each answer): it may end a segment, asked there as
        Choose.run asks it, in the block's frame, which is on top (the segment has pushed nothing)."""
        return isinstance(node, ChooseEffect) and not node.looped

    def pushed_blocks(self, node) -> list:
        """The blocks a tail pushes for the VM (its blocks that wait for a decision; every block of a decision,
        which Choose._apply pushes as they are)."""
        if self.asked(node):
            return list(node.blocks())
        return [b for b in node.blocks() if not self.block_fusible(b)]

    def block_fusible(self, bid) -> bool:
        block = self.rs.blocks[bid]
        k = id(block)
        if k in self._fusible:
            return self._fusible[k]
        if k in self._visiting:
            return False   # recursion: the VM's stack limit stops it
        self._visiting.add(k)
        try:
            ok = all(self.fusible(n) for n in block)
        finally:
            self._visiting.discard(k)
        self._fusible[k] = ok
        return ok

    # writing a segment ---------------------------------------------------------------------------------
    def segment(self, nodes, fname: str, title: str) -> None:
        """`def fname(vm, g, e)`: the nodes in order. The local names it reads before binding them are read
        from the environment once, at the start (every later change writes both)."""
        lines = self.lines
        lines.node = nodes[0] if nodes else None   # a procedure may have no effects (`do: []`)
        lines.add(f"def {fname}(vm, g, e):")
        with lines.indent():
            lines.add(comment(title))
            lines.add("me = e.get('me')")
            at = lines.mark()
            entry = []

            def other(name):
                if name not in entry:
                    entry.append(name)
                return local_name(name)
            self.other = other
            self.statements(nodes, {"me": "me"})
            self.other = None
            if not lines.reads("me", at):
                lines.drop(at - 1)   # `me` read nowhere: not looked up
                at -= 1
            lines.insert(at, [f"{local_name(n)} = e[{key(n)}]" for n in entry])
            lines.node = None
            if not lines.lines[-1].startswith("    " * lines.depth + "return "):   # an effect that ends the segment
                lines.add("return False")
        lines.add("")
        lines.add("")

    def inline(self, nodes, names, lazy: bool = True, known=None) -> None:
        """The nodes of a whole block written where the code being written is, with the Python variables `me`
        and `names` (each local name it reads) already set; when the game stops inside, that code returns
        false (the VM goes on), where a segment would return true. No environment is kept: nothing after the
        block reads one, and what reads one inside (a text, an end of a zone written as an expression) gets
        one made from the Python variables there (`env`); a name read before it is bound, if any, is read
        from `e`, which the caller makes when the lines read it. With `lazy` false, the environment `e` is
        there and kept up to date as a segment keeps it (a run of the turn's block, whose environment later
        nodes read). `known`: the Python variables of `names` whose every value is known at load, -> those values
        (see emit_expr)."""
        self.lines.node = nodes[0] if nodes else None
        py = {"me": "me", **{n: local_name(n) for n in names}}

        def other(name):
            return f"e[{key(name)}]"
        self.other, self.stop, self.lazy, self.known = other, "return False", lazy, known
        try:
            self.statements(nodes, py)
        finally:
            self.other, self.stop, self.lazy, self.known = None, "return True", False, None

    def env(self, py) -> str:
        """The source of the environment for code that reads one (a template, a compiled end of a zone): `e`,
        or, when none is kept (`inline`), a dict of the local names bound here."""
        if not self.lazy:
            return "e"
        return "{" + ", ".join(f"{key(n)}: {var}" for n, var in py.items()) + "}"

    def keeps(self, name: str, var: str) -> None:
        """A local name bound: written to the environment too, when one is kept."""
        if not self.lazy:
            self.add(f"e[{key(name)}] = {var}")

    def procedure(self, bid, title) -> str:
        """The function of a procedure's block (called with its own environment)."""
        name = self.procedures.get(bid)
        if name is None:
            name = self.procedures[bid] = self.b.ns.fresh_global(f"P_{title}")
            self.b.later.append((self.segment, (list(self.rs.blocks[bid]), name, f"procedure {title}")))
        return name

    def statements(self, nodes, py) -> None:
        if not nodes:
            self.add("pass")
        for node in nodes:
            self.statement(node, py)

    def statement(self, node, py) -> None:
        lines = self.lines
        lines.node = node
        loc = where(node.loc) if node.loc is not None else ""
        lines.add(comment(f"{node.text} ({loc})" if loc else node.text))
        if self.asked(node):
            # the decision ends the segment: asked as the VM asks it (the block's frame already past it), or
            # nothing to ask and the VM goes on
            self.add(f"return {self.const(node, 'K_ask')}.run(vm, g, g.stack[-1]) is True")
            return
        node.emit(self, py)

    # what an effect's `emit` writes with ----------------------------------------------------------------
    def add(self, text: str) -> None:
        """A line of the statement being written (at the current indentation)."""
        self.lines.add(text)

    def indent(self):
        return self.lines.indent()

    @contextmanager
    def inside(self, loop):
        """Lines written inside a fused loop's body (an error there is told with the loop, as the VM would)."""
        lines = self.lines
        outer, lines.loop = lines.loop, loop
        try:
            yield
        finally:
            lines.loop = outer
            lines.node = loop

    def fresh(self, hint: str) -> str:
        """A new temporary name."""
        return self.b.ns.fresh(hint)

    def const(self, value, hint):
        """The name of a value in the module's namespace (author text never reaches the source)."""
        return self.b.ns.const(value, hint)

    def expr(self, fn, py, it_var="it") -> str:
        """A compiled expression's source, inline (names in `py` read from Python variables)."""
        from ..expr.compiler import emit_expr
        return emit_expr(fn, self.b.names, self.b.ns, py, it_var, other=self.other, known=self.known)

    def member_of(self, zone, key_source: str) -> str:
        """The member number a key (the source of its value) names in a family of zones."""
        from ..expr.compiler import _Compiler
        return _Compiler(self.b.names, zone.name, self.b.ns)._member_of(zone, key_source)

    def block(self, bid, py) -> None:
        """A nested block (if, loop): same environment, its own local names; a block that waits for a
        decision (in a tail, see `tail`) is pushed for the VM, and the segment ends."""
        if bid is not None and not self.block_fusible(bid):
            self.add(f"vm.push({int(bid)}, e)")
            self.add("return False")
            return
        self.statements(list(self.rs.blocks[bid]) if bid is not None else [], dict(py))

    def call_or_else(self, call: str, if_empty, py) -> None:
        """A move or deal call, followed by its `if_empty` block when the call says it ran short."""
        if if_empty is None:
            self.add(call)
            return
        self.add(f"if {call}:")
        with self.indent():
            self.block(if_empty, py)

    def loop_pass(self, node) -> None:
        """A pass of a fused loop counts its effects towards the step's budget, as the VM counts a block's
        (inline: a call only when the budget is spent)."""
        self.add(f"vm.steps = _s = vm.steps - {len(self.rs.blocks[node.body]) + 1}")
        self.add("if _s < 0:")
        self.add(f"    raise vm.over_nodes({self.const(node, 'K_loop')})")
