"""Why a choice is refused: a game + the label someone tried -> the condition that failed, with its values."""
from __future__ import annotations

from itertools import product

from lark import Tree

from ..expr.parser import parse

MAX_COMBOS = 5000


def _values_of(game, fn, env) -> str:
    """The values of the two sides of each comparison in a condition: `count(me.hand) = 2, ... = 4`."""
    text = fn.text
    try:
        tree = parse(text)
    except Exception:  # noqa: BLE001 - the text compiled once already; no explanation is better than none
        return ""
    parts = []
    nodes = [tree] if isinstance(tree, Tree) else []
    while nodes:
        node = nodes.pop(0)
        if node.data in ("compare", "in_op", "not_in_op"):
            sides = [c for c in node.children if isinstance(c, Tree)]
        elif node.data in ("and_op", "or_op", "not_op"):
            nodes.extend(c for c in node.children if isinstance(c, Tree))
            continue
        else:
            sides = [node]
        for side in sides:
            if side.meta.empty or side.data in ("int_", "string", "true", "false", "none"):
                continue
            sub = text[side.meta.start_pos:side.meta.end_pos]
            try:
                compiled = game.rs.expression(sub, **{k: "any" for k in env if k != "me"})
                value = compiled(game.state, env, None)
            except Exception:  # noqa: BLE001 - a part that cannot stand alone is not shown
                continue
            shown = f"{sub} = {game.format(value, compiled.kind)}"
            if shown not in parts:
                parts.append(shown)
    return ", ".join(parts)


def _condition(game, name, fn, env) -> str:
    values = _values_of(game, fn, env)
    return f"{name}: `{fn.text}` is false" + (f" ({values})" if values else "")


def explain_refusal(game, attempted: str) -> str:
    """A sentence saying why `attempted` is not a legal option now."""
    g = game.state
    node_id, player, _ = g.pending
    node = game.rs.nodes[node_id]
    actions = getattr(node, "actions", None) or []
    env = {"me": player}
    offered = {a.name for a in actions}
    words = attempted.split()
    for action in actions:
        if action.when is not None and not action.when(g, env, None):
            if words and (words[0] == action.name or _label_start(action) == words[0]):
                return _condition(game, action.name, action.when, env)
        reason = _blocked_by_if(game, action, env, attempted)
        if reason:
            return reason
    for name, action in game.rs.actions.items():
        if name not in offered and words and (words[0] == name or _label_start(action) == words[0]):
            prompt = node.prompt_text(game, g, g.pending)
            return (f"{name} is not offered now: P{player + 1} is to choose '{prompt}' "
                    f"(" + ", ".join(sorted(offered)) + ")")
    for action in actions:
        if words and (words[0] == action.name or _label_start(action) == words[0]):
            return _domains(game, action, env)
    return ""


def _label_start(action) -> str:
    template = action.label_template
    if template is None or not template.parts or not isinstance(template.parts[0], str):
        return action.name
    return template.parts[0].split()[0] if template.parts[0].split() else action.name


def _blocked_by_if(game, action, env, attempted):
    """The attempted label is one of the action's combinations that its `if` rules out."""
    if action.cond is None:
        return ""
    g = game.state
    env = dict(env)
    for combo in _combos(game, action, env):
        env.update(zip(action.arg_names, combo))
        if action.label(game, g, env["me"], combo) == attempted:
            return _condition(game, action.name, action.cond, env)
    return ""


def _combos(game, action, env):
    g = game.state
    if not action.arg_names:
        return [()]
    try:
        domains = []
        scope = dict(env)
        for name, domain in zip(action.arg_names, action.domains):
            values = list(domain(g, scope, None))
            domains.append(values)
            if values:
                scope[name] = values[0]
        combos = list(product(*domains))
    except Exception:  # noqa: BLE001 - dependent domains: give up on this explanation
        return []
    return combos[:MAX_COMBOS]


def _domains(game, action, env):
    """No combination has that label: say what each argument may be."""
    g = game.state
    parts = []
    scope = dict(env)
    for name, domain, kind in zip(action.arg_names, action.domains, action.kinds):
        try:
            values = list(domain(g, scope, None))
        except Exception:  # noqa: BLE001 - a domain that needs other arguments
            break
        shown = ", ".join(f"[{game.format(v, kind)}]" if type(v) is list else game.format(v, kind)
                          for v in values[:12]) or "nothing"
        parts.append(f"{name} from `{domain.text}` is one of: {shown}")
        if values:
            scope[name] = values[0]
    return f"{action.name}: " + ("; ".join(parts) if parts else "no option matches")
