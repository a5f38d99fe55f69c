"""Compile effect lists (plain data) -> blocks of runtime nodes, name-checking every expression in them."""
from __future__ import annotations

from lark import Tree

from ..engine import nodes as N
from ..engine.choices import Choice, Subset
from ..errors import did_you_mean
from ..expr.compiler import ELEMENT, KIND_WORDS, ExprError, Scope
from ..expr.compiler import member_of
from ..expr.parser import parse
from ..runtime.effects import BACK_WORDS, FRONT_WORDS
from .context import Abort, Context, valid_name

# effect name -> (keys allowed beside it in the same map, whether its own value is a map of fields)
EFFECTS = {
    "move": ((), True), "deal": ((), True), "shuffle": ((), False), "set": ((), True), "add": ((), True),
    "let": ((), True), "if": (("then", "else"), False), "while": (("max", "do"), False),
    "until": (("max", "do"), False), "for_each": (("in", "do"), False), "choose": ((), True),
    "end_turn": ((), False), "end_round": ((), False), "end_game": ((), False),
    "call": (("with",), False), "log": ((), False), "reveal": ((), True), "react": ((), True),
}

BARE_EFFECTS = {"end_turn", "end_round", "end_game"}  # effects that may be written as a bare word
MOVE_FIELDS = {"from", "to", "count", "cards", "take", "at", "if_empty"}
DEAL_FIELDS = {"from", "to", "count", "players", "if_empty"}
CHOOSE_FIELDS = {"player", "players", "prompt", "args", "if", "label", "do", "actions", "optional", "secret", "until"}
REACT_FIELDS = {"actions", "players", "until", "prompt"}
UNTIL = ("first", "all")
REVEAL_FIELDS = {"cards", "to", "until", "log"}
SUBSET_FIELDS = ("pick", "count", "min", "max")
REVEAL_UNTIL = ("move", "turn", "round")
LOG_FIELDS = {"text", "to"}
END_WORDS = FRONT_WORDS | BACK_WORDS
DEFAULT_LOOP_MAX = 1000


class EffectCompiler:
    """Turns effect lists into blocks; procedures are compiled on first use and shared."""

    def __init__(self, ctx: Context, refill: dict):
        self.ctx = ctx
        self.refill = refill  # slot -> slot to shuffle in when it runs short
        self.procedures: dict = {}  # name -> (block id, arg names)
        self.actions: dict = {}     # name -> Action, filled in as actions compile (for choose: {actions})
        self.chosen_actions: set = set()

    def block(self, path, scope: Scope) -> int | None:
        """Compile the effect list at `path` into a block id (None when the list is absent or empty)."""
        ctx = self.ctx
        items = ctx.get(path)
        if items is None:
            return None
        if not isinstance(items, list):
            ctx.error(path, "expected a list of effects", "type")
            return None
        nodes = []
        scope = Scope(dict(scope.locals), scope.it)
        for i, item in enumerate(items):
            try:
                node = self.effect(tuple(path) + (i,), item, scope)
            except Abort:
                continue
            if node is not None:
                nodes.append(node)
        return ctx.block(nodes) if nodes else None

    def _body_check(self, path, body):
        """A loop needs effects; a body whose every effect had an error was reported already."""
        if body is None:
            if self.ctx.get(path):
                raise Abort()
            self.ctx.fail(path, "the loop body is empty", "effect")

    def effect(self, path, item, scope: Scope):
        ctx = self.ctx
        if isinstance(item, str):
            head, fields, value = item, {}, None
            if head not in EFFECTS:
                ctx.unknown(path, "effect", head, EFFECTS, "unknown-effect")
            if head not in BARE_EFFECTS:
                ctx.fail(path, f"'{head}' needs a value, as in '{head}: ...'", "effect")
        elif isinstance(item, dict):
            heads = [k for k in item if k in EFFECTS]
            if not heads:
                first = next(iter(item), "?")
                ctx.unknown(path + (first,), "effect", first, EFFECTS, "unknown-effect", key=True)
            if len(heads) > 1:
                ctx.fail(path + (heads[1],), f"one effect per list item: '{heads[0]}' and '{heads[1]}' "
                         "are both here", "effect", key=True)
            head = heads[0]
            allowed = EFFECTS[head][0]
            for k in item:
                if k != head and k not in allowed:
                    hint = did_you_mean(str(k), allowed) if allowed else None
                    ctx.fail(path + (k,), f"'{k}' does not belong to a '{head}' effect"
                             + (f" (it takes {', '.join(allowed)})" if allowed else ""), "effect", hint, key=True)
            fields, value = item, item[head]
        else:
            ctx.fail(path, "expected an effect: a name such as 'end_turn' or a map such as 'move: {...}'", "type")
        method = getattr(self, "e_" + head)
        node = method(path, fields, value, scope)
        return ctx.node(node, path, head if isinstance(item, str) else f"{head}")

    # helpers --------------------------------------------------------------
    def _fields(self, path, value, allowed, required=()):
        ctx = self.ctx
        if not isinstance(value, dict):
            ctx.fail(path, f"expected a map with {', '.join(sorted(allowed))}", "type")
        for k in value:
            if k not in allowed:
                ctx.unknown(path + (k,), "field", k, allowed, "unknown-field", key=True)
        for k in required:
            if k not in value:
                ctx.fail(path, f"missing '{k}'", "missing-field")
        return value

    def _end(self, path, value, scope):
        """`at`/`take`: a word naming an end, or an expression giving one."""
        if isinstance(value, str) and value in END_WORDS:
            return lambda g, e, it, v=value: v
        if isinstance(value, str) and valid_name(value) and value not in scope.locals \
                and value not in self.ctx.names.all_names():
            self.ctx.fail(path, f"'{value}' names no end of a zone: use start, left, top, first, front "
                          "or end, right, bottom, last, back", "bad-end",
                          did_you_mean(value, END_WORDS))
        return self.ctx.expr(path, scope)

    # cards ----------------------------------------------------------------
    def e_move(self, path, fields, value, scope):
        p = path + ("move",)
        f = self._fields(p, value, MOVE_FIELDS, ("to",))
        ctx = self.ctx
        if "from" not in f:
            ctx.fail(p, "missing 'from': say which zone the cards leave", "missing-field")
        if "count" in f and "cards" in f:
            ctx.fail(p + ("cards",), "give either 'count' or 'cards', not both", "effect", key=True)
        src = ctx.zone(p + ("from",), scope)
        dst = ctx.zone(p + ("to",), scope)
        count = None
        if "cards" not in f:
            c = f.get("count", 1)
            count = None if c == "all" else ctx.expr(p + ("count",), scope, value=c)
        cards = ctx.expr(p + ("cards",), scope) if "cards" in f else None
        take = self._end(p + ("take",), f["take"], scope) if "take" in f else None
        at = self._end(p + ("at",), f["at"], scope) if "at" in f else None
        if_empty = self.block(p + ("if_empty",), scope) if "if_empty" in f else None
        return N.Move(src, dst, count, cards, take, at, if_empty, self.refill)

    def e_deal(self, path, fields, value, scope):
        p = path + ("deal",)
        f = self._fields(p, value, DEAL_FIELDS, ("from", "to", "count"))
        ctx = self.ctx
        src = ctx.zone(p + ("from",), scope)
        zone, member = self._deal_target(p + ("to",), f["to"], scope)
        count = ctx.expr(p + ("count",), scope)
        players = ctx.expr(p + ("players",), scope) if "players" in f else None
        if_empty = self.block(p + ("if_empty",), scope) if "if_empty" in f else None
        return N.Deal(src, zone.zid, member, count, players, if_empty, self.refill)

    def _deal_target(self, path, to, scope):
        """`to: hand` (a zone of each player) or `to: 'stall["red"]'` (one member of a family of each
        player) -> (the zone, a callable giving the member or None)."""
        ctx, names = self.ctx, self.ctx.names
        if isinstance(to, str) and to in names.player_zones:
            names.used.add(("zone", to))
            return names.player_zones[to], None
        tree = None
        if isinstance(to, str):
            try:
                tree = parse(to)
            except ExprError:
                tree = None
        if isinstance(tree, Tree) and tree.data == "index" and isinstance(tree.children[0], Tree) \
                and tree.children[0].data == "name" and str(tree.children[0].children[0]) in names.player_families:
            zone = names.player_families[str(tree.children[0].children[0])]
            key_text = to[tree.children[1].meta.start_pos:tree.children[1].meta.end_pos]
            key = ctx.expr(path, scope, value=key_text)
            names.used.add(("zone", zone.name))
            return zone, member_of(zone, key)
        if isinstance(to, str) and to in names.player_families:
            ctx.fail(path, f"'{to}' is a family of zones of each player: say which one, as in '{to}[...]'",
                     "unknown-zone")
        zones = set(names.player_zones) | set(names.player_families)
        ctx.fail(path, f"'deal' gives to a zone of each player; '{to}' is not one", "unknown-zone",
                 did_you_mean(str(to), zones))

    def e_shuffle(self, path, fields, value, scope):
        return N.Shuffle(self.ctx.zone(path + ("shuffle",) if fields else path, scope))

    # values ---------------------------------------------------------------
    def _lvalue(self, path, key, scope):
        """A variable to assign: `name` (a game variable), `player.name` or `card.name` -> (kind, name, owner)."""
        ctx, names = self.ctx, self.ctx.names
        try:
            tree = parse(key)
        except ExprError as exc:
            ctx.fail(path, exc.message, exc.code, key=True)
        if isinstance(tree, Tree) and tree.data == "name":
            name = str(tree.children[0])
            if name in names.global_vars:
                names.used.add(("var", name))
                return "var", name, None
            if name in names.player_vars:
                ctx.fail(path, f"'{name}' is a variable of each player: say whose, as in 'me.{name}'",
                         "unknown-name", key=True)
            if name in names.card_vars:
                ctx.fail(path, f"'{name}' is a variable of each card: say which card's, as in 'card.{name}'",
                         "unknown-name", key=True)
            if name in names.params:
                ctx.fail(path, f"'{name}' is a parameter, and parameters do not change during a game: "
                         "declare it under 'variables' to change it", "lvalue", key=True)
            if name in scope.locals:
                ctx.fail(path, f"'{name}' is a local name: give it a new value with 'let', not 'set'",
                         "lvalue", key=True)
            ctx.unknown(path, "variable", name, names.global_vars | names.player_vars, key=True)
        if isinstance(tree, Tree) and tree.data == "attr":
            name = str(tree.children[1])
            base_text = key[:key.rfind(".")]
            if name in names.player_vars:
                names.used.add(("pvar", name))
                who = ctx.expr(path, scope, value=base_text)
                if who.kind not in ("player", "any", "int"):
                    ctx.fail(path, f"'{name}' is a variable of each player, but '{base_text}' is a "
                             f"{KIND_WORDS.get(who.kind, who.kind)}", "kind", key=True)
                return "pvar", name, who
            if name in names.card_vars:
                names.used.add(("cvar", name))
                who = ctx.expr(path, scope, value=base_text)
                if who.kind not in ("card", "cards", "any", "list"):
                    ctx.fail(path, f"'{name}' is a variable of each card, but '{base_text}' is a "
                             f"{KIND_WORDS.get(who.kind, who.kind)}", "kind", key=True)
                return "cvar", name, who
            ctx.unknown(path, "player or card variable", name, names.player_vars | set(names.card_vars), key=True)
        ctx.fail(path, "expected a variable name, player.variable or card.variable", "lvalue", key=True)

    def _assign(self, path, value, scope, add):
        p = path + ("add" if add else "set",)
        if not isinstance(value, dict) or not value:
            self.ctx.fail(p, "expected a map of variable: value", "type")
        targets = []
        for key, v in value.items():
            kind, name, who = self._lvalue(p + (key,), str(key), scope)
            targets.append((kind, name, who, self.ctx.expr(p + (key,), scope)))
        return N.Set(targets, add)

    def e_set(self, path, fields, value, scope):
        return self._assign(path, value, scope, False)

    def e_add(self, path, fields, value, scope):
        return self._assign(path, value, scope, True)

    def e_let(self, path, fields, value, scope):
        p = path + ("let",)
        ctx = self.ctx
        if not isinstance(value, dict) or not value:
            ctx.fail(p, "expected a map of name: expression", "type")
        bindings = []
        for name, v in value.items():
            self._check_local(p + (name,), name)
            compiled = ctx.expr(p + (name,), scope)
            bindings.append((name, compiled))
            scope.locals[name] = compiled.kind
        return N.Let(bindings)

    def _check_local(self, path, name):
        ctx, names = self.ctx, self.ctx.names
        if not valid_name(name):
            ctx.fail(path, f"'{name}' is not a valid name (ASCII letters, digits and _, not a keyword)",
                     "name", key=True)
        clash = name in names.all_names() or name == "it"
        if clash:
            ctx.fail(path, f"'{name}' is already the name of something in this ruleset; choose another",
                     "name-clash", key=True)

    def e_log(self, path, fields, value, scope):
        """`log: text`, or `log: {text: ..., to: players}` for a line only those players read."""
        p = path + ("log",) if fields else path
        to = None
        if isinstance(value, dict):
            f = self._fields(p, value, LOG_FIELDS, ("text",))
            to = self.ctx.expr(p + ("to",), scope) if "to" in f else None
            p = p + ("text",)
        template = self.ctx.template(p, scope, random_ok=True)
        if to is None:
            self._public_text(p, template)
        return N.Log(template, to)

    def _public_text(self, path, template):
        """A line everyone reads may not show a value some players may not see."""
        names = self.ctx.names
        for part in template.parts:
            if isinstance(part, str):
                continue
            for kind, name in part.reads:
                visible = names.visible.get(name, "public")
                if visible != "public" and kind in ("var", "pvar"):
                    self.ctx.fail(path, f"this text shows '{name}', which {'only its owner' if visible == 'owner' else 'nobody'}"
                                  " may see, to everyone", "leak",
                                  "say who may read the line: log: {text: ..., to: '[me]'}")

    def e_reveal(self, path, fields, value, scope):
        """`reveal: {cards, to, until, log}`: show cards to some players only."""
        p = path + ("reveal",)
        f = self._fields(p, value, REVEAL_FIELDS, ("cards", "to"))
        ctx = self.ctx
        cards = ctx.expr(p + ("cards",), scope)
        if cards.kind in ("int", "str", "bool", "player", "players", "none"):
            ctx.fail(p + ("cards",), f"reveal shows cards, but this is a {KIND_WORDS.get(cards.kind, cards.kind)}",
                     "kind")
        to = ctx.expr(p + ("to",), scope)
        if to.kind in ("int", "str", "bool", "card", "cards", "none"):
            ctx.fail(p + ("to",), f"'to' names players, but this is a {KIND_WORDS.get(to.kind, to.kind)}", "kind")
        until = f.get("until", "move")
        if until not in REVEAL_UNTIL:
            ctx.fail(p + ("until",), f"until is one of {', '.join(REVEAL_UNTIL)}", "bad-value",
                     did_you_mean(str(until), REVEAL_UNTIL))
        template = ctx.template(p + ("log",), scope, random_ok=True) if "log" in f else None
        return N.Reveal(cards, to, until, template)

    # control --------------------------------------------------------------
    def e_if(self, path, fields, value, scope):
        ctx = self.ctx
        cond = ctx.expr(path + ("if",), scope)
        if "then" not in fields:
            ctx.fail(path, "an 'if' needs 'then:' effects", "missing-field")
        then_block = self.block(path + ("then",), scope)
        else_block = self.block(path + ("else",), scope) if "else" in fields else None
        return N.If(cond, then_block, else_block)

    def _repeat(self, path, fields, scope, until):
        ctx = self.ctx
        head = "until" if until else "while"
        cond = ctx.expr(path + (head,), scope)
        if "do" not in fields:
            ctx.fail(path, f"a '{head}' loop needs 'do:' effects", "missing-field")
        limit = ctx.expr(path + ("max",), scope) if "max" in fields else ctx.expr(path, scope, value=DEFAULT_LOOP_MAX)
        body = self.block(path + ("do",), scope)
        self._body_check(path + ("do",), body)
        return N.Repeat(cond, until, limit, body)

    def e_while(self, path, fields, value, scope):
        return self._repeat(path, fields, scope, False)

    def e_until(self, path, fields, value, scope):
        return self._repeat(path, fields, scope, True)

    def e_for_each(self, path, fields, value, scope):
        ctx = self.ctx
        if not isinstance(value, str):
            ctx.fail(path + ("for_each",), "expected the name to bind each item to", "type")
        self._check_local(path + ("for_each",), value)
        for k in ("in", "do"):
            if k not in fields:
                ctx.fail(path, f"a 'for_each' needs '{k}:'", "missing-field")
        items = ctx.expr(path + ("in",), scope)
        inner = Scope({**scope.locals, value: ELEMENT.get(items.kind, "any")},
                      scope.it)
        body = self.block(path + ("do",), inner)
        self._body_check(path + ("do",), body)
        return N.ForEach(value, items, body)

    def e_call(self, path, fields, value, scope):
        ctx = self.ctx
        if not isinstance(value, str):
            ctx.fail(path + ("call",), "call names a procedure", "type")
        if value not in self.procedures:
            ctx.unknown(path + ("call",), "procedure", value, self.procedures, "unknown-procedure")
        block, arg_names = self.procedures[value]
        given = fields.get("with") or {}
        if not isinstance(given, dict):
            ctx.fail(path + ("with",), "expected a map of argument: expression", "type")
        args = []
        for k in given:
            if k not in arg_names:
                ctx.unknown(path + ("with", k), "argument", k, arg_names, "unknown-argument", key=True)
            args.append((k, ctx.expr(path + ("with", k), scope)))
        for k in arg_names:
            if k not in given:
                ctx.fail(path, f"procedure '{value}' needs the argument '{k}'", "missing-field")
        node = N.Call(block, args)
        node.name = value   # for people reading generated code
        return node

    def e_end_turn(self, path, fields, value, scope):
        return N.EndTurn()

    def e_end_round(self, path, fields, value, scope):
        return N.EndRound()

    def e_end_game(self, path, fields, value, scope):
        p = path + ("end_game",)
        if value is None:
            return N.EndGame(None, "the game ended")
        f = self._fields(p, value, {"winners", "reason"})
        winners = self.ctx.winners(p + ("winners",), scope) if "winners" in f else None
        return N.EndGame(winners, str(f.get("reason", "the game ended")))

    def e_choose(self, path, fields, value, scope):
        p = path + ("choose",)
        f = self._fields(p, value, CHOOSE_FIELDS)
        ctx = self.ctx
        if "player" in f and "players" in f:
            ctx.fail(p + ("players",), "give 'player' (one chooser) or 'players' (several at once), not both",
                     "effect", key=True)
        player = ctx.expr(p + ("player",), scope) if "player" in f else (lambda g, e, it: e["me"])
        players = ctx.expr(p + ("players",), scope) if "players" in f else None
        optional = bool(f.get("optional", False))
        secret = f.get("secret")
        until = self._until(p, f, players is not None)
        prompt = ctx.template(p + ("prompt",), scope.with_locals(me="player")) if "prompt" in f else "choose"
        if "actions" in f:
            for k in ("args", "if", "label", "do"):
                if k in f:
                    ctx.fail(p + (k,), f"a choice among 'actions' takes its {k} from the actions", "effect", key=True)
            actions = self._action_names(p + ("actions",), f["actions"])
            return N.Choose(player, players, prompt, None, None, actions, optional, secret, until)
        if "args" not in f:
            ctx.fail(p, "a choice needs 'args' (what is chosen) or 'actions' (which actions to choose from)",
                     "missing-field")
        choice, inner = self.choice(p, f, scope, "choose")
        body = self.block(p + ("do",), inner) if "do" in f else None
        return N.Choose(player, players, prompt, choice, body, None, optional, secret, until)

    def _until(self, path, f, several):
        """`until: first` (a reaction window: only the first who acts, in seat order from `me`) or `all`."""
        until = f.get("until", "all")
        if until not in UNTIL:
            self.ctx.fail(path + ("until",), "until is first (the first player who acts closes the window) "
                          "or all (every choice is applied)", "bad-value", did_you_mean(str(until), UNTIL))
        if until == "first" and not several:
            self.ctx.fail(path + ("until",), "until: first needs several players choosing at once ('players')",
                          "effect", key=True)
        return until

    def _action_names(self, path, names):
        ctx = self.ctx
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not names:
            ctx.fail(path, "expected a list of action names", "type")
        actions = []
        for i, name in enumerate(names):
            if name not in self.actions:
                ctx.unknown(path + (i,), "action", name, self.actions, "unknown-action")
            actions.append(self.actions[name])
        self.chosen_actions.update(names)
        return actions

    def e_react(self, path, fields, value, scope):
        """`react: {actions, players, until, prompt}`: a window in which other players may act out of turn."""
        p = path + ("react",)
        f = self._fields(p, value, REACT_FIELDS, ("actions",))
        ctx = self.ctx
        actions = self._action_names(p + ("actions",), f["actions"])
        if "players" in f:
            players = ctx.expr(p + ("players",), scope)
        else:
            players = (lambda g, e, it: [g.players[(e["me"] + k) % g.n] for k in range(1, g.n)])
        until = self._until(p, dict(f, until=f.get("until", "first")), True)
        prompt = ctx.template(p + ("prompt",), scope.with_locals(me="player")) if "prompt" in f else "react"
        return N.Choose(None, players, prompt, None, None, actions, True, True, until)

    def choice(self, path, f, scope, name):
        """Compile `args` (name: domain, in order), `if` and `label` into a Choice; return it and its scope.

        An argument written `{pick: domain, count: k}` (or `min`/`max`) is a subset, picked item by item
        after the option is taken; subsets come after the other arguments."""
        ctx = self.ctx
        args = f.get("args") or {}
        if not isinstance(args, dict):
            ctx.fail(path + ("args",), "expected a map of argument name: list of values", "type")
        inner = Scope(dict(scope.locals), scope.it)
        names, domains, kinds, subsets = [], [], [], []
        for arg, dom in args.items():
            apath = path + ("args", arg)
            self._check_local(apath, arg)
            if isinstance(dom, dict):
                subsets.append(self._subset(apath, arg, dom, inner))
                continue
            if subsets:
                ctx.fail(apath, f"'{arg}' comes after a subset argument: subsets ({{pick: ...}}) are picked "
                         "last, so write them after the other arguments", "effect", key=True)
            compiled = ctx.expr(apath, inner, random_ok=False)
            kind = ELEMENT.get(compiled.kind, "any")
            inner.locals[arg] = kind
            names.append(arg)
            domains.append(compiled)
            kinds.append(kind)
        cond = ctx.expr(path + ("if",), inner, random_ok=False) if "if" in f else None
        final = None
        if cond is not None and subsets and cond.locals_used & {sub.name for sub in subsets}:
            cond, final = None, cond     # it needs the picked items: checked on complete picks
        label = ctx.template(path + ("label",), inner) if "label" in f else None
        choice = Choice(name, names, domains, cond, label, subsets, final)
        choice.kinds = tuple(kinds)
        return choice, inner

    def _subset(self, path, arg, spec, inner):
        """`{pick: domain, count: k}` or `{pick: domain, min: a, max: b}` -> a Subset."""
        ctx = self.ctx
        for k in spec:
            if k not in SUBSET_FIELDS:
                ctx.unknown(path + (k,), "subset field", k, SUBSET_FIELDS, "unknown-field", key=True)
        if "pick" not in spec:
            ctx.fail(path, "a subset argument is {pick: list, count: k} (or min and max)", "missing-field")
        if "count" in spec and ("min" in spec or "max" in spec):
            ctx.fail(path + ("count",), "give either count or min and max", "effect", key=True)
        domain = ctx.expr(path + ("pick",), inner, random_ok=False)
        if domain.kind in ("int", "str", "bool", "none", "card", "player"):
            ctx.fail(path + ("pick",), f"pick chooses items of a list, but this is a "
                     f"{KIND_WORDS.get(domain.kind, domain.kind)}", "kind")
        if "count" in spec:
            low = high = ctx.expr(path + ("count",), inner, random_ok=False)
        else:
            low = ctx.expr(path + ("min",), inner, random_ok=False) if "min" in spec else (lambda g, e, it: 0)
            high = ctx.expr(path + ("max",), inner, random_ok=False) if "max" in spec \
                else (lambda g, e, it: len(domain(g, e, it)))
        noun = {"cards": "cards", "players": "players"}.get(domain.kind, "items")
        inner.locals[arg] = domain.kind if domain.kind in ("cards", "players") else "list"
        return Subset(arg, domain, low, high, noun)
