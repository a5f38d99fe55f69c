"""Runs of effects that never wait for a decision -> Python source of one function per run ("segments").

Generated code is the only way effects run. A segment runs its effects in order with their
expressions inline and local names as Python variables (still written to the environment, which
later effects, labels and saves read). Control flow inside it (if, loops, procedure calls) is Python
control flow when every effect it contains may be fused too. An `if`, a procedure call or a move or
deal with `if_empty` whose effects ask a decision ends its segment (a "tail"): the segment does its
own part (the condition, the arguments, the move) and pushes the block that waits for the VM. What
stays a node of the VM is only what waits: decisions, and the loops around them.
A segment function returns True when the game stopped inside it (it ended, stalled, or a turn or
round was left): the VM then finds its frame gone.
"""
from __future__ import annotations

from ..engine import nodes as N
from ..expr.emit import comment, key, local_name, where
from ..runtime.values import ELEMENT

SCALAR_KINDS = {"int", "bool", "str", "player", "card", "none", "value"}
# functions that build a new list: of cards, players or values, nothing a later move can change
FRESH_CALLS = {"take", "drop", "reverse", "sort", "filter", "map", "distinct", "counts", "range", "groups",
               "take_while", "drop_while", "maxima", "minima", "others", "sample"}


def fresh(fn) -> bool:
    """Whether a value needs no copy to be kept (a `let`): a single value, or a new list of cards, players
    or values (a zone itself is a live list, and a list of zones holds live lists)."""
    if fn.kind in SCALAR_KINDS:
        return True
    tree = getattr(fn, "tree", None)
    if tree is None or fn.kind not in ("cards", "players", "values", "groups"):
        return False
    if tree.data == "where":
        return True
    return tree.data == "call" and str(tree.children[0]) in FRESH_CALLS


SIMPLE = (N.Move, N.Deal, N.Shuffle, N.Set, N.Let, N.Log, N.Reveal, N.EndGame, N.EndTurn, N.EndRound)
TAILS = (N.If, N.Call, N.Move, N.Deal)   # may end a segment by pushing a block that waits (see tail)


class Fuser:
    """Decides which effects may be fused and writes the functions (see module.py for the module)."""

    def __init__(self, builder):
        self.b = builder
        self.rs = builder.rs
        self._fusible = {}      # id(block) -> bool
        self._visiting = set()  # procedure blocks being checked (a procedure that calls itself is not fused)
        self.procedures = {}    # block id -> generated function name
        self.other = None       # how the segment being written reads a name it has not bound

    # what may be fused -------------------------------------------------------------------------
    def fusible(self, node) -> bool:
        t = type(node)
        if t in (N.Move, N.Deal):
            return node.if_empty is None or self.block_fusible(node.if_empty)
        if t in SIMPLE:
            return True
        if t is N.If:
            return all(b is None or self.block_fusible(b) for b in (node.then_block, node.else_block))
        if t in (N.Repeat, N.ForEach):
            return self.block_fusible(node.body)
        if t is N.Call:
            return self.block_fusible(node.block)
        return False

    def tail(self, node) -> bool:
        """Whether a node that is not fusible may end a segment: its own part run in Python, then the block
        of its that waits for a decision pushed for the VM (an `if`'s branch, a procedure, an `if_empty`)."""
        return type(node) in TAILS and not self.fusible(node)

    def pushed_blocks(self, node) -> list:
        """The blocks a tail pushes for the VM (its blocks that wait for a decision)."""
        if type(node) is N.If:
            blocks = [node.then_block, node.else_block]
        elif type(node) is N.Call:
            blocks = [node.block]
        else:
            blocks = [node.if_empty]
        return [b for b in blocks if b is not None and not self.block_fusible(b)]

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

    # writing ---------------------------------------------------------------------------------------
    def expr(self, fn, py, it_var="it") -> str:
        from ..expr.compiler import emit_expr
        if getattr(fn, "tree", None) is None and getattr(fn, "constant", None) is None:
            return f"{self.b.ns.const(fn, 'K_fn')}(g, e, None)"   # a callable without a tree: called as it is
        return emit_expr(fn, self.b.names, self.b.ns, py, it_var, other=self.other)

    def segment(self, nodes, fname: str, title: str) -> None:
        """`def fname(vm, g, e)`: the nodes in order. The local names it reads before binding them are read
        from the environment once, at the start (every later change writes both)."""
        lines = self.b.lines
        lines.node = nodes[0]
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
            lines.insert(at, [f"{local_name(n)} = e[{key(n)}]" for n in entry])
            lines.node = None
            if lines.lines[-1] != "    " * lines.depth + "return True":   # an effect that ends the segment
                lines.add("return False")
        lines.add("")
        lines.add("")

    def procedure(self, bid, title) -> str:
        """The function of a procedure's block (called with its own environment)."""
        name = self.procedures.get(bid)
        if name is None:
            name = self.procedures[bid] = self.b.ns.fresh_global(f"P_{title}")
            self.b.later.append((self.segment, (list(self.rs.blocks[bid]), name, f"procedure {title}")))
        return name

    def statements(self, nodes, py) -> None:
        if not nodes:
            self.b.lines.add("pass")
        for node in nodes:
            self.statement(node, py)

    def block(self, bid, py) -> None:
        """A nested block (if, loop): same environment, its own local names; a block that waits for a
        decision (in a tail, see `tail`) is pushed for the VM, and the segment ends."""
        if bid is not None and not self.block_fusible(bid):
            self.b.lines.add(f"vm.push({int(bid)}, e)")
            self.b.lines.add("return False")
            return
        self.statements(list(self.rs.blocks[bid]) if bid is not None else [], dict(py))

    def statement(self, node, py) -> None:
        lines = self.b.lines
        lines.node = node
        loc = where(node.loc) if node.loc is not None else ""
        lines.add(comment(f"{node.text} ({loc})" if loc else node.text))
        getattr(self, "s_" + type(node).__name__)(node, py)

    def const(self, value, hint):
        return self.b.ns.const(value, hint)

    # effects -----------------------------------------------------------------------------------------
    def s_Move(self, node, py):
        lines = self.b.lines
        s, d = self.expr(node.src, py), self.expr(node.dst, py)
        at = "None" if node.at is None else self.const(node.at, "K_at")
        if node.cards is not None:
            lines.add(f"N_move_cards(vm, g, {s}, {d}, {self.expr(node.cards, py)}, {at}, e, "
                      f"{self.const(node.text, 'S_text')}, {bool(node.unsure)})")
            return
        k = "None" if node.count is None else self.expr(node.count, py)
        take = "None" if node.take is None else self.const(node.take, "K_take")
        call = f"N_move_top(vm, g, {s}, {d}, {k}, {take}, {at}, e, {self.const(node.refill, 'K_refill')})"
        self._call_or_else(call, node.if_empty, py)

    def s_Deal(self, node, py):
        s, k = self.expr(node.src, py), self.expr(node.count, py)
        who = "g.players" if node.players is None else \
            f"N_as_players(g, {self.expr(node.players, py)}, \"deal's players\")"
        member = ""
        if node.member is not None:
            m = getattr(node.member, "key", None)
            z = getattr(node.member, "zone", None)
            if m is not None and z is not None:
                from ..expr.compiler import _Compiler
                c = _Compiler(self.b.names, z.name, self.b.ns)
                member = f" + {c._member_of(z, self.expr(m, py))} * g.n"
            else:
                member = f" + {self.const(node.member, 'K_member')}(g, e, None) * g.n"
        call = f"N_deal(vm, g, {s}, g.zbase[{int(node.zid)}]{member}, {k}, {who}, {self.const(node.refill, 'K_refill')})"
        self._call_or_else(call, node.if_empty, py)

    def _call_or_else(self, call: str, if_empty, py) -> None:
        """A move or deal call, followed by its `if_empty` block when the call says it ran short."""
        lines = self.b.lines
        if if_empty is None:
            lines.add(call)
            return
        lines.add(f"if {call}:")
        with lines.indent():
            self.block(if_empty, py)

    def s_Shuffle(self, node, py):
        self.b.lines.add(f"N_shuffle(g, {self.expr(node.zone, py)})")

    def s_Set(self, node, py):
        lines = self.b.lines
        for kind, name, who, value in node.targets:
            v = self.expr(value, py)
            if kind == "var" and not node.add and value.kind in SCALAR_KINDS:
                # a single value needs no copy: assigned here, unless the change is recorded for narration
                lines.add("if vm.record:")
                lines.add(f"    N_set_var(vm, g, {key(name)}, {v}, False)")
                lines.add("else:")
                lines.add(f"    g.vars[{key(name)}] = {v}")
            elif kind == "var":
                lines.add(f"N_set_var(vm, g, {key(name)}, {v}, {bool(node.add)})")
            elif kind == "pvar":
                lines.add(f"_v = {v}")
                lines.add(f"N_set_player_var(vm, g, {key(name)}, {self.expr(who, py)}, _v, {bool(node.add)})")
            else:
                lines.add(f"_v = {v}")
                lines.add(f"N_set_card_var(vm, g, {key(name)}, {self.expr(who, py)}, _v, {bool(node.add)})")

    def s_Let(self, node, py):
        for name, value in node.bindings:
            v = self.expr(value, py)
            var = local_name(name)
            v = f"N_keep(g, {v})" if not fresh(value) else (
                v if value.kind in SCALAR_KINDS else f"N_keep_fresh(g, {v})")
            self.b.lines.add(f"e[{key(name)}] = {var} = {v}")
            py[name] = var

    def s_Log(self, node, py):
        lines = self.b.lines
        to = "None" if node.to is None else f"N_as_players(g, {self.expr(node.to, py)}, \"log's 'to'\")"
        lines.add("if vm.record:")
        lines.add(f"    vm.log_line({self.const(node.template, 'K_text')}.pieces(vm, g, e), {to})")

    def s_Reveal(self, node, py):
        template = "None" if node.template is None else self.const(node.template, "K_text")
        self.b.lines.add(f"N_reveal(vm, g, {self.expr(node.cards, py)}, {self.expr(node.to, py)}, "
                         f"{key(node.until)}, {template}, e)")

    def s_EndGame(self, node, py):
        winners = "None" if node.winners is None else self.expr(node.winners, py)
        self.b.lines.add(f"vm.finish({self.const(node.reason, 'S_reason')}, {winners})")
        self.b.lines.add("return True")

    def s_EndTurn(self, node, py):
        self.b.lines.add("N_end_turn(vm, g)")
        self.b.lines.add("return True")

    def s_EndRound(self, node, py):
        self.b.lines.add("N_end_round(vm, g)")
        self.b.lines.add("return True")

    # control -------------------------------------------------------------------------------------------
    def s_If(self, node, py):
        lines = self.b.lines
        lines.add(f"if {self.expr(node.cond, py)}:")
        with lines.indent():
            self.block(node.then_block, py)
        if node.else_block is not None:
            lines.add("else:")
            with lines.indent():
                self.block(node.else_block, py)

    def s_Repeat(self, node, py):
        lines = self.b.lines
        cond = self.expr(node.cond, py)
        go_on = f"(not {cond})" if node.until else cond
        limit, n = self.b.ns.fresh("limit"), self.b.ns.fresh("n")
        where = self.const(node.where(), "S_where")
        lines.add(f"if {go_on}:")
        with lines.indent():
            lines.add(f"{limit} = N_loop_limit(vm, {self.expr(node.limit, py)}, {where})")
            lines.add(f"if {limit} < 1:")
            lines.add("    return True")
            lines.add(f"{n} = 1")
            lines.add("while True:")
            with lines.indent():
                # each pass counts its effects towards the step's budget, as the VM counts a block's
                self.loop_pass(node)
                outer, lines.loop = lines.loop, node
                self.block(node.body, py)
                lines.loop = outer
                lines.node = node
                lines.add(f"if not {go_on}:")
                lines.add("    break")
                lines.add(f"if {n} >= {limit}:")
                lines.add(f"    N_loop_spent(vm, {limit}, {where})")
                lines.add("    return True")
                lines.add(f"{n} += 1")

    def loop_pass(self, node) -> None:
        """A pass of a fused loop counts its effects towards the step's budget, as the VM counts a block's
        (inline: a call only when the budget is spent)."""
        lines = self.b.lines
        lines.add(f"vm.steps = _s = vm.steps - {len(self.rs.blocks[node.body]) + 1}")
        lines.add("if _s < 0:")
        lines.add(f"    raise vm.over_nodes({self.const(node, 'K_loop')})")

    def s_ForEach(self, node, py):
        lines = self.b.lines
        var = local_name(node.name)
        lines.add(f"for {var} in N_keep(g, {self.expr(node.items, py)}):")
        with lines.indent():
            self.loop_pass(node)
            lines.add(f"e[{key(node.name)}] = {var}")
            outer, lines.loop = lines.loop, node
            self.block(node.body, {**py, node.name: var})
            lines.loop = outer

    def s_Call(self, node, py):
        env = ", ".join([f"'me': {py.get('me', 'me')}"] +
                        [f"{key(name)}: N_keep(g, {self.expr(value, py)})" for name, value in node.args])
        if not self.block_fusible(node.block):
            # the procedure waits for a decision (or calls itself): pushed for the VM, whose stack limit holds
            self.b.lines.add(f"vm.push({int(node.block)}, {{{env}}})")
            self.b.lines.add("return False")
            return
        fname = self.procedure(node.block, getattr(node, "name", None) or f"block{node.block}")
        self.b.lines.add(f"if {fname}(vm, g, {{{env}}}):")
        self.b.lines.add("    return True")


def element_kind(kind):
    return ELEMENT.get(kind, "any")
