"""A saved game's JSON (from Game.to_json) + its ruleset -> nothing, or a GameError naming what is damaged.

`Game.from_json` checks a save completely before it accepts it: every field there with the right
kind, the seats and the cards as this ruleset and player count have them (the zones hold every card
exactly once), values naming only cards and seats that exist, frames naming blocks, environments and
nodes that exist, and a pending decision the top frame can resume, whose options' arguments chosen from a
list known at load hold values of that list, and those chosen from groups hold a group (generated code takes
them as listed). A damaged save is refused at once, never later in `view()`, `decision` or `apply`.
"""
from __future__ import annotations

from ..errors import GameError
from ..runtime.effects import MAX_STACK
from .nodes import Choose
from .picks import DONE, Pick
from .records import check as check_record

STATE_FIELDS = ("n", "seed", "zones", "vars", "pvars", "params", "current", "round", "turn", "rng", "envs",
                "frames", "pending", "result", "history", "log")
MAX_VALUE_DEPTH = 64


def damaged(what: str) -> GameError:
    return GameError(f"the saved game is damaged: {what}", "saved-game")


def _int(value, what: str, lo: int, hi: int | None = None) -> int:
    """A whole number from lo to hi (inclusive; hi None: no upper bound)."""
    if type(value) is not int or value < lo or (hi is not None and value > hi):
        bound = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
        raise damaged(f"{what} must be a whole number {bound}, not {value!r:.60}")
    return value


def _list(value, what: str, length: int | None = None) -> list:
    if type(value) is not list:
        raise damaged(f"{what} must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise damaged(f"{what} must have {length} entries, not {len(value)}")
    return value


def _dict(value, what: str, keys=None) -> dict:
    if type(value) is not dict:
        raise damaged(f"{what} must be a map, not {type(value).__name__}")
    if keys is not None and set(value) != set(keys):
        missing, extra = sorted(set(keys) - set(value)), sorted(set(value) - set(keys))
        raise damaged(f"{what} " + "; ".join(
            part for part in (f"lacks {', '.join(map(str, missing))}" if missing else "",
                              f"has unknown {', '.join(map(str, extra))}" if extra else "") if part))
    return value


class _Values:
    """Checks encoded values: cards and seats named by {"$card": id} and {"$player": seat} exist."""

    def __init__(self, cards: int, seats: int):
        self.cards, self.seats = cards, seats

    def check(self, value, what: str, depth: int = 0):
        if depth > MAX_VALUE_DEPTH:
            raise damaged(f"{what} nests deeper than {MAX_VALUE_DEPTH} levels")
        t = type(value)
        if t is dict:
            if len(value) == 1 and "$card" in value:
                _int(value["$card"], f"a card in {what}", 0, self.cards - 1)
            elif len(value) == 1 and "$player" in value:
                _int(value["$player"], f"a player in {what}", 0, self.seats - 1)
            else:
                for k, v in value.items():
                    if type(k) is not str:
                        raise damaged(f"{what} has a key that is not a text")
                    self.check(v, what, depth + 1)
        elif t is list:
            for v in value:
                self.check(v, what, depth + 1)
        elif t not in (int, str, bool, float, type(None)):
            raise damaged(f"{what} holds a {t.__name__}")


def check_save(rs, data) -> None:
    """Refuse a save this ruleset cannot resume (see the module's docstring)."""
    _dict(data, "the save")
    if "state" not in data:
        raise damaged("it has no 'state'")
    s = _dict(data["state"], "'state'")
    missing = [k for k in STATE_FIELDS if k not in s]
    if missing:
        raise damaged(f"'state' lacks {', '.join(missing)}")
    n = _int(s["n"], "the number of players 'n'", rs.min_players, rs.max_players)
    _int(s["seed"], "'seed'", -(2 ** 63))
    values = _Values(len(rs.card_values), n)

    # parameters and zones: as this player count and these parameter values lay them out
    params = _dict(s["params"], "'params'", rs.params)
    values.check(params, "'params'")
    try:
        rs.resolve_params(n, {k: v for k, v in params.items() if v != rs.params.get(k)})
        layout = rs.layout(n, params)
    except GameError as exc:
        raise damaged(f"'params': {exc}") from None
    except (TypeError, ValueError, KeyError) as exc:
        raise damaged(f"'params' cannot lay out the zones ({exc})") from None
    zones = _list(s["zones"], "'zones'", layout.total)
    seen = [False] * len(rs.card_values)
    for i, z in enumerate(zones):
        for c in _list(z, f"zone {i}"):
            _int(c, f"a card in zone {i}", 0, len(seen) - 1)
            if seen[c]:
                raise damaged(f"card {c} ({rs.card_labels[c]}) lies in two places")
            seen[c] = True
    if not all(seen):
        c = seen.index(False)
        raise damaged(f"card {c} ({rs.card_labels[c]}) is in no zone")

    # variables
    for k, v in _dict(s["vars"], "'vars'", rs.global_vars).items():
        values.check(v, f"variable '{k}'")
    for k, v in _dict(s["pvars"], "'pvars'", rs.player_vars).items():
        values.check(_list(v, f"player variable '{k}'", n), f"player variable '{k}'")
    for k, v in _dict(s.get("cvars", {}), "'cvars'", rs.card_vars).items():
        values.check(_list(v, f"card variable '{k}'", len(seen)), f"card variable '{k}'")
    for entry in _list(s.get("known", []), "'known'"):
        card, who = _list(entry, "an entry of 'known'", 2)
        _int(card, "a card in 'known'", 0, len(seen) - 1)
        for pair in _list(who, "an entry of 'known'"):
            p, until = _list(pair, "an entry of 'known'", 2)
            _int(p, "a player in 'known'", 0, n - 1)
            values.check(until, "'known'")
    _int(s["current"], "'current'", 0, n - 1)
    _int(s["round"], "'round'", 0)
    _int(s["turn"], "'turn'", 0)
    rng = _list(s["rng"], "'rng'", 3)
    # Mersenne Twister: 624 words of 32 bits and a position (found by the long fuzz run: a negative
    # word made setstate raise OverflowError)
    if type(rng[0]) is not int or type(rng[1]) is not list or len(rng[1]) != 625 or \
            not all(type(x) is int and 0 <= x < 2 ** 32 for x in rng[1]) or \
            (rng[2] is not None and type(rng[2]) is not float):
        raise damaged("'rng' is not the state of a random generator")

    # frames: blocks, environments and nodes that exist
    envs = _list(s["envs"], "'envs'")
    for i, e in enumerate(envs):
        values.check(_dict(e, f"environment {i}"), f"environment {i}")
    frames = _list(s["frames"], "'frames'")
    if len(frames) > MAX_STACK + 1:
        raise damaged(f"{len(frames)} frames, more than effects can nest")
    for i, f in enumerate(frames):
        bid, pc, e, owner, fdata = _list(f, f"frame {i}", 5)
        _int(bid, f"the block of frame {i}", 0, len(rs.blocks) - 1)
        _int(pc, f"the position in frame {i}", 0, len(rs.blocks[bid]))
        _int(e, f"the environment of frame {i}", 0, len(envs) - 1)
        _int(owner, f"the owner of frame {i}", -1, len(rs.nodes) - 1)
        values.check(fdata, f"frame {i}")

    # the result, or else the decision the game waits for
    result, pending = s["result"], s["pending"]
    if result is not None:
        _dict(result, "'result'")
        for w in _list(result.get("winners"), "the winners of 'result'"):
            _int(w, "a winner in 'result'", 0, n - 1)
        _list(result.get("scores"), "the scores of 'result'", n)
        if pending is not None:
            raise damaged("the game is over and yet waits for a decision")
    elif pending is None:
        raise damaged("the game is neither over nor waiting for a decision")
    else:
        _pending(rs, pending, frames, n, values)
    for e in _list(s.get("events", []), "'events'"):
        values.check(_list(e, "an event"), "'events'")
    for i in _list(s["history"], "'history'"):
        _int(i, "a choice in 'history'", 0)
    for record in _list(s.get("redeals", []), "'redeals'"):   # cards dealt again by undos (engine/redeal.py)
        at, pairs, seed = _list(record, "a redeal", 3)
        _int(at, "the choice of a redeal", 0, len(s["history"]))
        _int(seed, "the seed of a redeal", 0)
        for pair in _list(pairs, "the cards of a redeal"):
            for c in _list(pair, "a card of a redeal", 2):
                _int(c, "a card of a redeal", 0, len(seen) - 1)
    for entry in _list(s["log"], "'log'"):
        if type(entry) is dict:
            check_record(entry, n, layout.total, values, damaged)   # a record (engine/records.py)
        elif type(entry) is not str:
            # a line in words, from a save made before records: [readers, text] or [readers, their text,
            # the others' text]
            if type(entry) is not list or len(entry) not in (2, 3) or \
                    not all(type(t) is str for t in entry[1:]):
                raise damaged("a line of 'log' is not a text, nor readers and texts")
            for p in _list(entry[0], "the readers of a line of 'log'"):
                _int(p, "a reader of a line of 'log'", 0, n - 1)


def _pending(rs, pending, frames, n: int, values: _Values) -> None:
    """The pending decision: a decision node, resumed by the top frame, with options it can take."""
    node_id, player, options = _list(pending, "'pending'", 3)
    _int(node_id, "the node of 'pending'", 0, len(rs.nodes) - 1)
    node = rs.nodes[node_id]
    if not isinstance(node, (Choose, Pick)):
        raise damaged(f"'pending' names node {node_id}, which asks no decision")
    _int(player, "the player of 'pending'", 0, n - 1)
    if not frames:
        raise damaged("a decision waits, but no effect is running to take it")
    bid, pc, _, owner, fdata = frames[-1]
    block = rs.blocks[bid]
    held = block == () and owner == node_id
    if not held and not (pc > 0 and block[pc - 1] is node):
        raise damaged(f"'pending' names node {node_id}, but the top frame is not at it")
    if isinstance(node, Pick):
        _picking(rs, node, held, fdata, options, values)
        return
    if node.players is not None and not held:
        raise damaged("a decision of several players has no frame holding their choices")
    if held:
        # "at": when the decision was asked (saves from before it was kept lack it)
        keys = ("queue", "chosen", "at") if type(fdata) is dict and "at" in fdata else ("queue", "chosen")
        fd = _dict(fdata, "the frame of a decision of several players", keys)
        if "at" in fd:
            _int(fd["at"], "when a decision of several players was asked", 0, 10 ** 9)
        queue, chosen = _list(fd["queue"], "the choosers' queue"), _list(fd["chosen"], "the choices made")
        if len(chosen) >= len(queue) or _seat(_list(queue[len(chosen)], "the choosers' queue", 2)[0]) != player:
            raise damaged("the choosers' queue does not wait for the player of 'pending'")
        for entry in queue:
            p, opts = _list(entry, "the choosers' queue", 2)
            _int(_seat(p), "a chooser", 0, n - 1)
            if not _list(opts, "a chooser's options"):
                raise damaged("a chooser of the decision it waits for is offered no option")
            for opt in opts:
                _option(node, opt)
        for entry in chosen:
            p, opt = _list(entry, "the choices made", 2)
            _int(_seat(p), "a chooser", 0, n - 1)
            _option(node, opt)
    if not _list(options, "the options of 'pending'"):
        raise damaged("the decision it waits for offers no option (a decision always offers one)")
    for opt in options:
        _option(node, opt)
        values.check(opt, "the options of 'pending'")


def _picking(rs, node, held, fdata, options, values: _Values) -> None:
    """A pick of one item of a subset argument: the hold frame names the option being completed."""
    if not held:
        raise damaged("a pick waits, but no frame holds the option it completes")
    fd = _dict(fdata, "the frame of a pick", ("origin", "i", "args", "picked"))
    origin = _int(fd["origin"], "the node a pick completes", 0, len(rs.nodes) - 1)
    if not isinstance(rs.nodes[origin], Choose):
        raise damaged(f"a pick completes node {origin}, which asks no decision")
    _list(fd["args"], "the values of the option a pick completes")
    _list(fd["picked"], "the items picked")
    actions = rs.nodes[origin].actions
    _int(fd["i"], "the option a pick completes", 0, 0 if actions is None else len(actions) - 1)
    for opt in _list(options, "the options of 'pending'"):
        i, args = _list(opt, "an option", 2)
        if i != DONE and (i != 0 or len(_list(args, "a pick")) != 1):
            raise damaged("a pick's option is an item or 'done'")
        values.check(opt, "the options of 'pending'")


def _seat(value):
    """A seat as frames save it: tagged {"$player": seat} (a plain number is taken too)."""
    if type(value) is dict and len(value) == 1 and "$player" in value:
        return value["$player"]
    return value


def _option(node, opt) -> None:
    i, args = _list(opt, "an option", 2)
    _list(args, "an option's values")
    if i == -1 and node.optional:
        if args:
            raise damaged("'pass' takes no values")
        return
    if node.actions is not None:
        _int(i, "an option's action", 0, len(node.actions) - 1)
        names = node.actions[i].arg_names
        fixed, grouped = node.actions[i].fixed_domains, node.actions[i].grouped
    else:
        _int(i, "an option", 0, 0)
        names = node.choice.arg_names
        fixed, grouped = None, ()
    if len(args) != len(names):
        raise damaged(f"an option has {len(args)} values where {len(names)} are taken")
    # an argument chosen from a list known at load holds one of its values (generated code relies on it: a
    # family's member it names is not checked again, codegen/turns.py known_arguments)
    for j, values in (fixed or {}).items():
        if not any(type(args[j]) is type(v) and args[j] == v for v in values):
            raise damaged(f"an option's '{names[j]}' is {args[j]!r:.40}, which its list never gives")
    # an argument chosen from groups(xs, attr) is one group: generated code reads its first item unchecked
    for j in grouped:
        if type(args[j]) is not list or not args[j] or None in args[j]:
            raise damaged(f"an option's '{names[j]}' is {args[j]!r:.40}, which is not a group of items")
