"""Compile a ruleset's flow, end conditions, scoring and bots -> flow nodes, Scoring and agent settings.

A mixin of the ruleset builder (ruleset.py): it uses the builder's context, names and actions.
"""
from __future__ import annotations

from ..effects.choices import again_of, asked_again, priority_of, until_of
from ..engine import flow as F
from ..expr.compiler import Scope
from ..ruleset import Scoring
from .context import Abort

STEP_KEYS = {"name", "actions", "optional", "player", "players", "if", "secret", "until", "again", "priority"}
FLOW_KEYS = ("first_player", "ends", "round")
ROUND_KEYS = ("first_player", "start", "turn", "ends", "end")
TURN_KEYS = ("start", "steps", "end", "next_player", "anytime")
END_KEYS = ("when", "winners", "reason", "do")
SCORING_KEYS = ("parts", "tie_breakers")
LIMITS_KEYS = ("turns",)
AGENTS_KEYS = ("default", "evaluate")
AGENT_NAMES = ("random", "first", "greedy", "mcts", "human")
DEFAULT_TURN_LIMIT = 1000


class FlowBuilder:
    """The `flow`, `scoring`, `limits` and `agents` sections."""

    def flow(self, setup_block):
        ctx = self.ctx
        flow = self.section("flow", {})
        if not isinstance(flow, dict):
            ctx.fail(("flow",), "expected a map with round, ends, first_player", "type")
        for k in flow:
            if k not in FLOW_KEYS:
                ctx.unknown(("flow", k), "flow field", k, FLOW_KEYS, key=True)
        round_ = flow.get("round") or {}
        rpath = ("flow", "round")
        for k in round_:
            if k not in ROUND_KEYS:
                ctx.unknown(rpath + (k,), "round field", k, ROUND_KEYS, key=True)
        turn = round_.get("turn") or {}
        tpath = rpath + ("turn",)
        for k in turn:
            if k not in TURN_KEYS:
                ctx.unknown(tpath + (k,), "turn field", k, TURN_KEYS, key=True)
        scope = Scope({})
        limits = self.section("limits", {})
        turn_limit = limits.get("turns", DEFAULT_TURN_LIMIT) if isinstance(limits, dict) else DEFAULT_TURN_LIMIT
        for k in (limits if isinstance(limits, dict) else {}):
            if k not in LIMITS_KEYS:
                ctx.unknown(("limits", k), "limit", k, LIMITS_KEYS, key=True)
        if not isinstance(turn_limit, int) or not 1 <= turn_limit <= 1_000_000:
            ctx.error(("limits", "turns"), "the turn limit is a whole number from 1 to 1000000", "type")
            turn_limit = DEFAULT_TURN_LIMIT

        steps = []
        self.step_actions = []
        anytime = self.anytime(tpath + ("anytime",), turn.get("anytime"))
        raw_steps = turn.get("steps") or []
        if not isinstance(raw_steps, list) or not raw_steps:
            ctx.error(tpath + ("steps",) if "steps" in turn else tpath,
                      "a turn needs 'steps:', a list of steps such as '- actions: [play]'", "missing-field")
            raw_steps = []
        for i, step in enumerate(raw_steps):
            try:
                steps.append(self.step(tpath + ("steps", i), step, scope, anytime))
            except Abort:
                continue
        steps_node = ctx.node(F.Steps(ctx.block(steps)), tpath + ("steps",), "steps")

        game_ends = self.ends(("flow", "ends"), flow.get("ends"), scope)
        round_ends = self.ends(rpath + ("ends",), round_.get("ends"), scope, winners_allowed=False)

        turn_nodes = [ctx.node(F.TurnStart(turn_limit), tpath, "turn")]
        self._add_block(turn_nodes, tpath + ("start",), turn, "start", scope)
        turn_nodes.append(steps_node)
        self._add_block(turn_nodes, tpath + ("end",), turn, "end", scope)
        turn_nodes.append(ctx.node(F.EndChecks(game_ends, round_ends), tpath, "end checks"))
        next_player = ctx.who(tpath + ("next_player",), scope) if "next_player" in turn else None
        turn_loop = ctx.node(F.TurnLoop(ctx.block(turn_nodes), next_player), tpath, "turns")

        first = ctx.who(rpath + ("first_player",), scope) if "first_player" in round_ else None
        round_nodes = [ctx.node(F.RoundStart(), rpath, "round")]
        self._add_block(round_nodes, rpath + ("start",), round_, "start", scope)
        round_nodes.append(ctx.node(F.RoundFirstPlayer(first), rpath + ("first_player",) if first else rpath,
                                    "first player"))
        round_nodes.append(turn_loop)
        self._add_block(round_nodes, rpath + ("end",), round_, "end", scope)
        if game_ends:
            # A round's end can end the game (a hand that reaches the target score): look before
            # another round starts, once the round's `end` effects are done.
            round_nodes.append(ctx.node(F.EndChecks(game_ends, []), rpath, "end checks"))
        round_loop = ctx.node(F.RoundLoop(ctx.block(round_nodes)), rpath, "rounds")

        game_nodes = []
        if setup_block is not None:
            game_nodes.append(ctx.node(F.Block(setup_block), ("setup",), "setup"))
        if "first_player" in flow:
            game_nodes.append(ctx.node(F.SetCurrent(ctx.who(("flow", "first_player"), scope)),
                                       ("flow", "first_player"), "first player"))
        game_nodes.append(round_loop)
        return ctx.block(game_nodes), steps_node.id, turn_loop.id, turn_limit

    def _add_block(self, nodes, path, section, key, scope):
        """Inline a flow section's effects into the enclosing block (they share its environment)."""
        if key in section:
            bid = self.fx.block(path, scope)
            if bid is not None:
                nodes.extend(self.ctx.blocks[bid])

    def anytime(self, path, names):
        """`anytime`: actions the current player may take at any decision of their own turn -> the actions."""
        if names is None:
            return []
        ctx = self.ctx
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            ctx.error(path, "anytime lists the actions a player may take at any decision of their turn, as in "
                      "[harvest]", "type")
            return []
        out = []
        self.step_actions.append(names)
        for i, name in enumerate(names):
            if name not in self.actions:
                if name in (self.data.get("actions") or {}):
                    continue   # the action itself had an error, already reported
                try:
                    ctx.unknown(path + (i,), "action", name, self.actions, "unknown-action")
                except Abort:
                    continue
            if self.actions[name].subsets:
                ctx.error(path + (i,), f"'{name}' has items to pick, one decision at a time: an action to take "
                          "at any time is one decision", "effect")
                continue
            out.append(self.actions[name])
        return out

    def step(self, path, step, scope, anytime=()):
        ctx = self.ctx
        if isinstance(step, str):
            step = {"actions": [step]}
            spec_path_actions = path
        else:
            spec_path_actions = path + ("actions",)
        if not isinstance(step, dict):
            ctx.fail(path, "a step is an action name or a map with actions", "type")
        for k in step:
            if k not in STEP_KEYS:
                ctx.unknown(path + (k,), "step field", k, STEP_KEYS, key=True)
        names = step.get("actions")
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not names:
            ctx.fail(spec_path_actions, "a step lists the actions the player may choose from", "missing-field")
        actions = []
        self.step_actions.append(names)
        for i, name in enumerate(names):
            if name not in self.actions:
                p = spec_path_actions + (i,) if spec_path_actions != path else path
                if name in (self.data.get("actions") or {}):
                    raise Abort()  # the action itself had an error, already reported
                ctx.unknown(p, "action", name, self.actions, "unknown-action")
            actions.append(self.actions[name])
        if "player" in step and "players" in step:
            ctx.fail(path + ("players",), "give 'player' (one chooser) or 'players' (several at once), not both",
                     "effect", key=True)
        player = ctx.who(path + ("player",), scope, random_ok=False) if "player" in step else None
        players = ctx.who(path + ("players",), scope, random_ok=False) if "players" in step else None
        when = ctx.expr(path + ("if",), scope, random_ok=False) if "if" in step else None
        label = str(step.get("name") or "/".join(names))
        until = until_of(self.fx, path, step, players is not None)
        again = again_of(ctx, path, step, scope, players is not None)
        optional = bool(step.get("optional", again is not None))
        # the turn's actions to take at any time, beside the step's own (a step of the current player's)
        free = [a for a in anytime if a not in actions] if player is None and players is None else []
        node = F.Step(actions + free, player, players, optional, when, label, step.get("secret"), until)
        node.priority = priority_of(ctx, path, step, until)
        if again is None and not free:
            return ctx.node(node, path, label)
        node.looped = True
        node.again = again is not None
        node.free = frozenset(range(len(actions), len(actions) + len(free)))
        if again is None:
            # asked once, and again after each action at any time (at most MAX_FREE: engine/nodes.py, Again)
            again = (ctx.expr(path, value=1), False)
        return ctx.node(asked_again(ctx, path, node, again), path, label)

    def ends(self, path, entries, scope, winners_allowed=True):
        ctx = self.ctx
        if entries is None:
            return []
        if not isinstance(entries, list):
            ctx.error(path, "expected a list of {when: condition, winners: ..., reason: ...}", "type")
            return []
        out = []
        for i, entry in enumerate(entries):
            p = path + (i,)
            try:
                if not isinstance(entry, dict) or "when" not in entry:
                    ctx.fail(p, "an end condition is a map with 'when:' (and optional winners, reason)", "type")
                for k in entry:
                    if k not in END_KEYS:
                        ctx.unknown(p + (k,), "field", k, END_KEYS, key=True)
                    if k in ("winners", "do") and not winners_allowed:
                        ctx.fail(p + (k,), f"a round's end has no '{k}': the game goes on with the next round "
                                 "(use the round's 'end' effects)", "effect", key=True)
                cond = ctx.expr(p + ("when",), scope, random_ok=False)
                winners = ctx.winners(p + ("winners",), scope, random_ok=False) if "winners" in entry else None
                block = self.fx.block(p + ("do",), scope) if "do" in entry else None
                out.append((cond, winners, str(entry.get("reason", entry["when"])), block))
            except Abort:
                continue
        return out

    def agents(self, scoring):
        """`agents`: the bots' default for this game, and how bots score a position (greedy maximises it)."""
        ctx = self.ctx
        spec = self.section("agents", {})
        if not isinstance(spec, dict):
            ctx.fail(("agents",), "expected a map with default and evaluate", "type")
        for k in spec:
            if k not in AGENTS_KEYS:
                ctx.unknown(("agents", k), "agents field", k, AGENTS_KEYS, key=True)
        default = spec.get("default")
        if default is not None and default not in AGENT_NAMES:
            ctx.unknown(("agents", "default"), "agent", default, AGENT_NAMES, "unknown-agent")
        evaluate = ctx.expr(("agents", "evaluate"), Scope({}), random_ok=False) if "evaluate" in spec else None
        if default == "greedy" and evaluate is None and not scoring.parts:
            ctx.fail(("agents", "default"), "a greedy bot scores positions: it needs 'evaluate' (how good a "
                     "state is for 'me') or score parts", "missing-field")
        return default, evaluate

    # scoring -------------------------------------------------------------------------
    def scoring(self):
        ctx = self.ctx
        spec = self.section("scoring", {})
        if not isinstance(spec, dict):
            ctx.fail(("scoring",), "expected a map with parts and tie_breakers", "type")
        for k in spec:
            if k not in SCORING_KEYS:
                ctx.unknown(("scoring", k), "scoring field", k, SCORING_KEYS, key=True)
        parts = spec.get("parts") or {}
        if not isinstance(parts, dict):
            ctx.fail(("scoring", "parts"), "expected a map of part name: expression", "type")
        scope = Scope({})
        out = Scoring()
        for name, _ in parts.items():
            try:
                out.parts.append((name, ctx.expr(("scoring", "parts", name), scope, random_ok=False)))
            except Abort:
                continue
        tbs = spec.get("tie_breakers") or []
        if not isinstance(tbs, list):
            ctx.fail(("scoring", "tie_breakers"), "expected a list of expressions", "type")
        for i, text in enumerate(tbs):
            try:
                out.tie_breakers.append((str(text), ctx.expr(("scoring", "tie_breakers", i), scope,
                                                             random_ok=False)))
            except Abort:
                continue
        return out
