"""The effects that ask players: `choose` and `react`. They wait for decisions, so the VM runs them
(engine/nodes.py, Choose); the effects they run after the decision are generated code."""
from __future__ import annotations

from ..engine import nodes as vm
from ..errors import did_you_mean
from ..runtime.builtins import BUILTINS
from .base import Effect, ref
from .text import arg_in_words, code, flat, words

_OTHERS = BUILTINS["others"]   # others(p): every player but p, in seat order after p

UNTIL = ("first", "all")
PRIORITY = ("seat", "random")
DEFAULT_AGAIN = 1000   # `again: true` asks at most this many times, then the game stalls (as a loop's max)
ACTIONS = {"oneOf": [{"$ref": "#/$defs/identifier"},
                     {"type": "array", "items": {"$ref": "#/$defs/identifier"}, "minItems": 1}]}


class Choose(Effect, vm.Choose):
    """`choose`: one player, or several at once, picks among inline arguments or named actions."""

    key = "choose"
    text = "Ask a player to choose, then run effects with the chosen values."
    about = "Who chooses, among what, and what happens then."
    fields_text = ("What a 'choose' asks: who chooses (one player, or several at once), among what (inline args or "
                   "named actions), and what happens then.")
    fields = {
        "player": ref("expression", "Who chooses (default: me)."),
        "prompt": ref("text", "The question shown to the player."),
        "args": ref("choice_args", "The values to choose: argument name: list of values."),
        "if": ref("expression", "Only combinations where this holds are offered."),
        "label": ref("template", "How an option is shown, as in 'take {n} cards'."),
        "do": ref("effect_list", "Effects run with the chosen values."),
        "players": ref("expression", "Several players who choose at the same time: each sees the same state, "
                                     "nothing is applied until all have chosen, then each choice takes effect in "
                                     "seat order with 'me' the chooser."),
        "actions": {"description": "Offer the legal options of these actions instead of inline args, as in "
                                   "[take_from_display, take_from_deck].", **ACTIONS},
        "optional": {"type": "boolean", "description": "Add a 'pass' option (default false)."},
        "secret": {"type": "boolean", "description": "true: the others are not told what was chosen (in their log); "
                                                     "default: secret when several players choose at once."},
        "until": {"enum": list(UNTIL), "description": "With players: first makes a reaction window (only the first "
                                                      "who acted, after me in seat order, is applied); all "
                                                      "(default) applies every choice."},
        "priority": {"$ref": "#/$defs/priority", "description": "With until: first, who of those who acted is "
                                                                "applied: seat (default) or random."},
        "again": {"$ref": "#/$defs/again", "description": "Ask again after each answer but a pass: true (until the "
                                                          "chooser passes) or the most times (default: once)."},
    }
    fields_extra = {"oneOf": [
        {"description": "Inline arguments: choose values, then run 'do'.", "required": ["args"],
         "not": {"description": "No 'actions' beside 'args'.", "required": ["actions"]}},
        {"description": "A choice among named actions: their effects run.", "required": ["actions"],
         "not": {"description": "'args', 'do', 'if' and 'label' come from the actions.",
                 "anyOf": [{"description": k, "required": [k]} for k in ("args", "do", "if", "label")]}}]}
    waits = True

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + ("choose",)
        f = c.fields(p, value, cls.fields)
        ctx = c.ctx
        if "player" in f and "players" in f:
            ctx.fail(p + ("players",), "give 'player' (one chooser) or 'players' (several at once), not both",
                     "effect", key=True)
        player = ctx.who(p + ("player",), scope) if "player" in f else (lambda g, e, it: e["me"])
        players = ctx.who(p + ("players",), scope) if "players" in f else None
        optional = bool(f.get("optional", False))
        secret = f.get("secret")
        until = until_of(c, p, f, players is not None)
        again = again_of(ctx, p, f, scope, players is not None)
        if again is not None:
            optional = bool(f.get("optional", True))
        prompt = ctx.template(p + ("prompt",), scope.with_locals(me="player")) if "prompt" in f else "choose"
        if "actions" in f:
            for k in ("args", "if", "label", "do"):
                if k in f:
                    ctx.fail(p + (k,), f"a choice among 'actions' takes its {k} from the actions", "effect", key=True)
            actions = action_names(c, p + ("actions",), f["actions"])
            node = cls(player, players, prompt, None, None, actions, optional, secret, until)
            node.priority = priority_of(ctx, p, f, until)
        else:
            if "args" not in f:
                ctx.fail(p, "a choice needs 'args' (what is chosen) or 'actions' (which actions to choose from)",
                         "missing-field")
            choice, inner = c.choice(p, f, scope, "choose")
            body = c.block(p + ("do",), inner) if "do" in f else None
            node = cls(player, players, prompt, choice, body, None, optional, secret, until)
            node.priority = priority_of(ctx, p, f, until)
        if again is None:
            return node
        node.again = node.looped = True
        return asked_again(ctx, p, node, again)

    def blocks(self):
        return tuple(b for b in [self.body] + [a.block for a in self.actions or ()] if b is not None)

    @classmethod
    def explain(cls, f, _):
        """Who chooses what, among which values or actions, then the effects."""
        if "players" in f:
            who = f"Each of {code(f['players'])} (all at once, then applied one by one)"
        else:
            who = code(f.get("player", "me"))
        if "actions" in f:
            names = f["actions"] if isinstance(f["actions"], list) else [f["actions"]]
            what = "an option of " + words([code(a) for a in names], "or")
        else:
            what = words(arg_in_words(a, d) for a, d in (f.get("args") or {}).items())
        text = f"{who} chooses {what}"
        text += f" such that {code(f['if'])}" if "if" in f else ""
        again = f.get("again")
        text += ", or passes" if f.get("optional", again not in (None, False)) else ""
        if again is True:
            text += ", again and again until they pass"
        elif again not in (None, False):
            text += f", at most {code(again)} times"
        text += f' ("{flat(f["prompt"])}")' if "prompt" in f else ""
        return text + (":" if f.get("do") else "."), [(None, f.get("do"))]


class React(Choose):
    """`react`: a window in which other players may take actions out of turn, all deciding at once."""

    key = "react"
    text = ("A window in which other players may take given actions out of turn, all deciding at once: with until: "
            "first (the default) only the first after me in seat order who acted is applied; with all, every one.")
    about = "The actions offered, to whom, and when the window closes."
    fields_text = "What a 'react' offers, to whom, and when the window closes."
    fields = {
        "actions": {"description": "The action or actions the players may take (each may also pass).", **ACTIONS},
        "players": ref("expression", "Who may react (default: everyone but me, in seat order after me)."),
        "until": {"enum": list(UNTIL), "description": "first (default): the first who acted, after me in seat "
                                                      "order, is applied; all: every choice is applied."},
        "prompt": ref("text", "The question shown."),
    }
    fields["priority"] = {"$ref": "#/$defs/priority", "description": "Who of those who acted is applied: seat (the "
                                                                 "first after me in seat order, default) or random."}
    fields_extra = {}
    required = ("actions",)

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + ("react",)
        f = c.fields(p, value, cls.fields, cls.required)
        ctx = c.ctx
        actions = action_names(c, p + ("actions",), f["actions"])
        if "players" in f:
            players = ctx.who(p + ("players",), scope)
        else:
            players = _others_in_seat_order
        until = until_of(c, p, dict(f, until=f.get("until", "first")), True)
        prompt = ctx.template(p + ("prompt",), scope.with_locals(me="player")) if "prompt" in f else "react"
        node = cls(None, players, prompt, None, None, actions, True, True, until)
        node.priority = priority_of(ctx, p, f, until)
        node.seated = "players" not in f
        return node

    @classmethod
    def explain(cls, f, _):
        """Who may act out of turn, with which actions, and whose reaction counts."""
        names = f.get("actions")
        names = names if isinstance(names, list) else [names]
        who = code(f["players"]) if "players" in f else "every other player"
        which = ("every reaction is applied" if f.get("until") == "all"
                 else "only the first who acts, going round the table from `me`, is applied")
        return f"{who} may at once {words([code(a) for a in names], 'or')} out of turn, or pass; {which}.", []


def _others_in_seat_order(g, e, it):
    """The players a `react` window asks by default: everyone but `me`, in seat order after `me`."""
    return _OTHERS(g, e["me"])


def again_of(ctx, path, f, scope, several):
    """`again: true` (asked again until its chooser passes; at most 1000 times, then the game stalls) or `again:
    n` (at most n times in all, a number or an expression) -> (the limit, whether reaching it stalls), or None."""
    if "again" not in f or f["again"] is False:
        return None
    if several:
        ctx.fail(path + ("again",), "again is for one chooser: several players choosing at once are asked "
                 "together, once", "effect", key=True)
    if f["again"] is True:
        return ctx.expr(path + ("again",), value=DEFAULT_AGAIN), True
    limit = ctx.expr(path + ("again",), scope, random_ok=False)
    if limit.kind in ("str", "bool", "none", "card", "cards", "player", "players", "list", "groups", "values"):
        ctx.fail(path + ("again",), "again is true (until the chooser passes) or the most times the choice is "
                 "asked, a number", "kind")
    return limit, False


def asked_again(ctx, path, node, again):
    """The decision `node` inside the loop that asks it again (engine/nodes.py, Again)."""
    limit, stall = again
    ctx.node(node, path, node.prompt if isinstance(node.prompt, str) else "choose")
    return vm.Again(ctx.block([node]), limit, stall)


def priority_of(ctx, path, f, until) -> str:
    """`priority`: in a reaction window, which of those who acted is applied: `seat` (the first after `me` in
    seat order, the default) or `random` (one drawn at random: whoever spoke first, when nobody is faster)."""
    priority = f.get("priority", "seat")
    if priority not in PRIORITY:
        ctx.fail(path + ("priority",), "priority is seat (the first who acted, in seat order from me) or random "
                 "(one of those who acted, drawn at random)", "bad-value", did_you_mean(str(priority), PRIORITY))
    if "priority" in f and until != "first":
        ctx.fail(path + ("priority",), "priority says who of those who acted is applied in a reaction window: it "
                 "needs until: first", "effect", key=True)
    return priority


def until_of(c, path, f, several):
    """`until: first` (a reaction window: only the first who acts, in seat order from `me`) or `all`."""
    until = f.get("until", "all")
    if until not in UNTIL:
        c.ctx.fail(path + ("until",), "until is first (the first player who acts closes the window) "
                   "or all (every choice is applied)", "bad-value", did_you_mean(str(until), UNTIL))
    if until == "first" and not several:
        c.ctx.fail(path + ("until",), "until: first needs several players choosing at once ('players')",
                   "effect", key=True)
    return until


def action_names(c, path, names):
    """The actions a `choose` or a `react` offers, by name."""
    ctx = c.ctx
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not names:
        ctx.fail(path, "expected a list of action names", "type")
    actions = []
    for i, name in enumerate(names):
        if name not in c.actions:
            ctx.unknown(path + (i,), "action", name, c.actions, "unknown-action")
        actions.append(c.actions[name])
    c.chosen_actions.update(names)
    return actions
