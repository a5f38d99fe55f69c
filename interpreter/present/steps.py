"""Split a decision's options into short steps: an option's label -> its parts, one per argument it names.

"lay {count(cards)} {first(cards).colour} in row {r + 1} on the {side}" gives the parts "lay 2 red",
"in row 3", "on the left": a long list is then chosen part by part (the colour, then the row, then
the side). The parts come from the label's own text, so they read as the label does. Where the
structure of an option is not known, its whole label is one part.
"""
from __future__ import annotations

PUNCTUATION = " ,;:"


def option_parts(game, player: int) -> list[list[str]]:
    """The parts of every option of `player`'s decision (pending now, or waiting in a simultaneous one)."""
    g = game.state
    if g.pending is None:
        return []
    node_id = g.pending[0]
    node = game.rs.nodes[node_id]
    if g.pending[1] == player:
        options = g.pending[2]
    else:
        top = g.stack[-1] if g.stack else None
        queue = top[4]["queue"] if top is not None and top[0] == () and top[3] == node_id else []
        options = next((opts for p, opts in queue if p == player), ())
    out = []
    with game.told(player):   # as its labels are: a card the player cannot see is told by its place
        for option in options:
            try:
                parts = _parts(game, node, player, option)
            except Exception:   # an option whose structure is not the one described above: one part
                parts = None
            if not parts:
                parts = [node.label(game, g, player, option)]
            out.append(parts)
    return out


def _parts(game, node, player, option):
    i, args = option
    if i < 0:
        return ["pass"]
    actions = getattr(node, "actions", None)
    choice = actions[i] if actions is not None else node.choice
    g = game.state
    if actions is not None:
        env = {"me": player}
    else:
        outer = g.stack[-1][2] if g.stack else {}
        env = dict(outer)
        env["me"] = outer.get("me", player) if getattr(node, "players", None) is None else player
    env.update(zip(choice.arg_names, args))
    template = choice.label_template
    if template is None:
        words = [choice.name] + [game.format(v, k) for v, k in zip(args, choice.kinds)]
        return [" ".join(words[:2])] + words[2:] if len(words) > 1 else words
    segments = _segments(template.parts, choice.arg_names)
    texts = []
    for seg in segments:
        text = "".join(p if isinstance(p, str) else game.format(p(g, env, None), p.kind) for p in seg)
        text = text.strip(PUNCTUATION)
        if text:
            texts.append(text)
    return texts


def _segments(parts, arg_names) -> list[list]:
    """Group a label's parts so that a group starts at the first mention of another argument: the text
    between two holes starts the next group, except the word glued to the hole before it ("P2's")."""
    names = set(arg_names)
    segments, cur, seen, lits = [], [], set(), []
    for part in parts:
        if isinstance(part, str):
            lits.append(part)
            continue
        used = set(getattr(part, "locals_used", ())) & names
        has_hole = any(not isinstance(p, str) for p in cur)
        if used - seen and has_hole and seen:
            text = "".join(lits)
            keep = "" if text[:1] in (" ", "") else text.split(" ", 1)[0]
            segments.append(cur + [keep])
            cur = [text[len(keep):], part]
        else:
            cur += lits + [part]
        seen |= used
        lits = []
    segments.append(cur + lits)
    return segments


def narrow(parts: list[list[str]], chosen: list[str]) -> list[int]:
    """The options whose first parts are `chosen`."""
    k = len(chosen)
    return [i for i, p in enumerate(parts) if p[:k] == chosen]


def next_step(parts: list[list[str]], chosen: list[str]) -> list[str]:
    """The distinct next parts after `chosen` (in the order of the options); [] when one option is left
    or the remaining options cannot be told apart by their parts."""
    left = narrow(parts, chosen)
    if len(left) <= 1:
        return []
    k = len(chosen)
    out = []
    for i in left:
        if len(parts[i]) > k and parts[i][k] not in out:
            out.append(parts[i][k])
    return out
