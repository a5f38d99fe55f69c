"""Runtime effect and flow nodes: what each compiled YAML effect does to a game state when the VM reaches it.

A node runs with `run(vm, g, frame)`. Control nodes push frames (`vm.push`); a frame is the list
`[block id, next position, env, owner node id, loop data]`, plain data so that a state can be
cloned and saved as JSON. When a pushed block ends, the VM calls `block_end` on the owner node,
which either loops (resets the position) or lets the frame go; a block end that returns true stops
the VM (generated code ran on to the next decision: see flow.py, `Fused`).
"""
from __future__ import annotations

from ..errors import GameError
from ..expr.runtime import plus
from .budget import kept, over_items, size, spend
from .draws import shuffle as shuffle_list
from .values import Card, as_player, as_players

MAX_STACK = 200
MAX_LOOP = 100_000   # no loop runs more often than this, whatever its `max` says

ONLY_CARDS = {Card}
FRONT_WORDS = {"start", "left", "top", "first", "front"}
BACK_WORDS = {"end", "right", "bottom", "last", "back"}


def is_front(word) -> bool:
    """True for the words that name the start of an ordered zone; raise for anything that names neither end."""
    if word in FRONT_WORDS:
        return True
    if word in BACK_WORDS:
        return False
    raise GameError(f"'{word}' names no end of a zone: use start/left/top or end/right/bottom", "bad-end")


class Node:
    """Base of every node: an id in the ruleset's node table and the source location for errors."""

    id = -1
    loc = None
    text = ""
    secret = False

    def run(self, vm, g, frame):  # pragma: no cover - every node overrides
        raise NotImplementedError

    def block_end(self, vm, g, frame):
        g.stack.pop()

    def loggable(self, option) -> bool:
        """Whether taking this option writes a log line now."""
        return True

    def origin(self, exc):
        """The node an error raised while this one ran belongs to (a fused segment knows which effect)."""
        return self

    def enclosing(self, exc):
        """The loop of a fused segment an error was raised in (None: the VM's stack knows)."""
        return None


# cards ----------------------------------------------------------------------

class Move(Node):
    """Move cards between zones: a count from one end, or given cards; refill an empty source first."""

    def __init__(self, src, dst, count, cards, take, at, if_empty_block, refill):
        self.src, self.dst, self.count, self.cards = src, dst, count, cards
        self.take, self.at, self.if_empty, self.refill = take, at, if_empty_block, refill
        # what `cards` gives is checked to be cards unless its kind says so when the ruleset loads
        self.unsure = cards is not None and getattr(cards, "kind", "any") not in ("card", "cards")

    def run(self, vm, g, frame):
        env = frame[2]
        s = self.src(g, env, None)
        d = self.dst(g, env, None)
        if self.cards is not None:
            move_cards(vm, g, s, d, self.cards(g, env, None), self.at, env, self.text, self.unsure)
            return
        k = None if self.count is None else self.count(g, env, None)
        if move_top(vm, g, s, d, k, self.take, self.at, env, self.refill) and self.if_empty is not None:
            vm.push(self.if_empty, env)


def move_cards(vm, g, s, d, cards, at, env, text, unsure=True) -> None:
    """Move given cards from slot s to slot d (at the end `at` names, a compiled word: None for the back).
    `unsure`: whether the cards must be checked to be cards (their kind was not known at load)."""
    zones = g.zones
    src = zones[s]
    cards = [cards] if type(cards) is Card else list(cards)
    if unsure and cards and set(map(type, cards)) != ONLY_CARDS:
        raise GameError(f"move takes cards, not {vm.format(cards)} ({text})", "not-a-card")
    n = len(cards)
    if n > 8 or len(src) > 64:
        # a big move pays for what it goes through; a small one costs at most a few hundred
        # steps of C, like any effect
        spend(g, n + len(src))
    if n > 8:
        _take(src, cards, text)   # one pass (one card at a time, each would cost a pass)
    else:
        for c in cards:
            try:
                src.remove(c)
            except ValueError:
                raise GameError(f"a card to move is not in the source zone ({text})", "card-not-in-zone")
    if cards:
        _place(vm, g, s, d, cards, at, env)


def _take(src, cards, text) -> None:
    """Take many cards out of a zone in one pass (removing them one by one costs a pass each)."""
    place = {c: i for i, c in enumerate(src)}
    gone = set()
    for c in cards:
        i = place.pop(c, None)
        if i is None:
            raise GameError(f"a card to move is not in the source zone ({text})", "card-not-in-zone")
        gone.add(i)
    src[:] = [c for i, c in enumerate(src) if i not in gone]


def move_top(vm, g, s, d, k, take, at, env, refill) -> bool:
    """Move k cards (None: all) from an end of slot s (`take`, a compiled word: None for the front) to slot
    d; refill the source first when it runs short. True when there were fewer than k."""
    zones = g.zones
    src = zones[s]
    if k is None:
        k = len(src)
    short = False
    if len(src) < k:
        more = refill.get(s)
        if more is not None:
            vm.refill(s, more)
            src = zones[s]
        if len(src) < k:
            short = True
            k = len(src)
    if k <= 0:
        return short
    if take is None or is_front(take(g, env, None)):
        cards = src[:k]
        del src[:k]
    else:
        cards = src[-k:]
        del src[-k:]
    _place(vm, g, s, d, cards, at, env)
    return short


def _place(vm, g, s, d, cards, at, env) -> None:
    dst = g.zones[d]
    if at is None or not is_front(at(g, env, None)):
        dst.extend(cards)
    else:
        dst[0:0] = cards
    if (g.known or vm.rs.card_resets) and s != d:
        moved(vm, g, cards)
    if vm.record:
        # for narration: who moved which cards from where to where (see present/narrate.py)
        g.events.append(("move", len(g.log), env.get("me", -1), s, d, tuple(cards)))


class Deal(Node):
    """Deal a number of cards to each of some players, one card at a time around the table."""

    def __init__(self, src, zid, member, count, players, if_empty_block, refill):
        self.src, self.zid, self.member, self.count, self.players = src, zid, member, count, players
        self.if_empty, self.refill = if_empty_block, refill

    def run(self, vm, g, frame):
        env = frame[2]
        s = self.src(g, env, None)
        k = self.count(g, env, None)
        who = g.players if self.players is None else as_players(g, self.players(g, env, None), "deal's players")
        base = g.zbase[self.zid] + (0 if self.member is None else self.member(g, env, None) * g.n)
        if deal(vm, g, s, base, k, who, self.refill) and self.if_empty is not None:
            vm.push(self.if_empty, env)


def deal(vm, g, s, base, k, who, refill) -> bool:
    """Deal k cards from slot s to slot base + p of each player p in `who`, one at a time; True when the
    source ran out."""
    zones = g.zones
    dealt = []
    short = False
    before = [len(zones[base + p]) for p in who] if vm.record else None
    for _ in range(k if who else 0):
        spend(g, len(who))
        for p in who:
            src = zones[s]
            if not src:
                more = refill.get(s)
                if more is not None:
                    vm.refill(s, more)
                    src = zones[s]
                if not src:
                    short = True
                    break
            card = src.pop(0)
            zones[base + p].append(card)
            dealt.append(card)
        if short:
            break
    if dealt and (g.known or vm.rs.card_resets):
        moved(vm, g, dealt)
    if dealt and vm.record:
        g.events.append(("deal", len(g.log), s, tuple((base + p, tuple(zones[base + p][b:]))
                                                     for p, b in zip(who, before))))
    return short


class Shuffle(Node):
    """Shuffle one zone with the game's random generator."""

    def __init__(self, zone):
        self.zone = zone

    def run(self, vm, g, frame):
        shuffle(g, self.zone(g, frame[2], None))


def shuffle(g, slot) -> None:
    zone = g.zones[slot]
    spend(g, len(zone))
    shuffle_list(g.rng, zone)
    if g.known:
        # where each card lies is no longer known to anyone who was shown it
        for c in zone:
            g.known.pop(c, None)


def moved(vm, g, cards) -> None:
    """Cards changed zone: their card variables go back to their defaults (unless kept), and whoever was
    shown them forgets them."""
    known = g.known
    if known:
        for c in cards:
            known.pop(c, None)
    for name, default in vm.rs.card_resets:
        values = g.cvars[name]
        for c in cards:
            values[c] = list(default) if type(default) is list else default


class Reveal(Node):
    """Show cards to some players only: each remembers them (its view lists them) until they move, or
    until the end of the turn or round; the log tells only them."""

    def __init__(self, cards, to, until, template):
        self.cards, self.to, self.until, self.template = cards, to, until, template

    def run(self, vm, g, frame):
        env = frame[2]
        cards = self.cards(g, env, None)
        cards = [cards] if type(cards) is Card else list(cards)
        who = as_players(g, self.to(g, env, None), "reveal's 'to'")
        spend(g, len(cards) * (len(who) + 1))
        for c in cards:
            if type(c) is not Card:
                raise GameError(f"reveal shows cards, not {vm.format(c)}", "not-a-card")
            seen = g.known.setdefault(c, {})
            for p in who:
                seen[p] = self.until
        if vm.record and who and cards:
            text = self.template(vm, g, env) if self.template is not None else _shown(vm, g, cards, who)
            vm.log_line(text, who)


def _shown(vm, g, cards, who) -> str:
    """'P2 sees P1's hand: red 3, blue 1' (cards grouped by the zone they lie in)."""
    spend(g, len(vm.rs.card_values))
    slots = {c: i for i, z in enumerate(g.zones) for c in z}
    where = {}
    for c in cards:
        where.setdefault(slots.get(c), []).append(c)
    parts = [(vm.rs.slot_name(slot, g.layout) + ": " if slot is not None else "") + vm.format(cs)
             for slot, cs in where.items()]
    return f"{vm.format(list(who))} {'sees' if len(who) == 1 else 'see'} " + "; ".join(parts)


def forget(g, until: str) -> None:
    """The end of a turn or round: reveals that last that long are forgotten."""
    ends = ("turn",) if until == "turn" else ("turn", "round")
    for c in list(g.known):
        who = g.known[c]
        for p in [p for p, u in who.items() if u in ends]:
            del who[p]
        if not who:
            del g.known[c]


# values ---------------------------------------------------------------------

class Set(Node):
    """Assign game, player or card variables (`add` adds to them instead)."""

    def __init__(self, targets, add=False):
        self.targets, self.add = targets, add  # [(kind, name, owner fn or None, value fn)]

    def run(self, vm, g, frame):
        env = frame[2]
        add = self.add
        for kind, name, who, value in self.targets:
            v = value(g, env, None)
            if kind == "var":
                set_var(vm, g, name, v, add)
            elif kind == "pvar":
                set_player_var(vm, g, name, who(g, env, None), v, add)
            else:
                set_card_var(vm, g, name, who(g, env, None), v, add)


def set_var(vm, g, name, v, add) -> None:
    """Assign (or add to) a game variable."""
    if type(v) is list and not add:
        v = kept(g, v)   # a copy (a zone's list would change with the zone), within the caps
    old = g.vars[name]
    new = g.vars[name] = grown(g, old, v) if add else v
    if vm.record and old != new:
        g.events.append(("set", len(g.log), name, -1, old, new))


def set_player_var(vm, g, name, who, v, add) -> None:
    """Assign (or add to) a player's variable."""
    if type(v) is list and not add:
        v = kept(g, v)   # a copy (a zone's list would change with the zone), within the caps
    table = g.pvars[name]
    p = as_player(g, who)
    old = table[p]
    new = table[p] = grown(g, old, v) if add else v
    if vm.record and old != new:
        g.events.append(("set", len(g.log), name, p, old, new))


def set_card_var(vm, g, name, cards, v, add) -> None:
    """Assign (or add to) a card variable of one card or of each card of a list."""
    if type(v) is list and not add:
        v = kept(g, v)   # a copy (a zone's list would change with the zone), within the caps
    table = g.cvars[name]
    for c in [cards] if type(cards) is Card else cards:
        if type(c) is not Card:
            raise GameError(f"'{name}' is a card variable, but {vm.format(c)} is not a card", "not-a-card")
        table[c] = grown(g, table[c], v) if add else v


def grown(g, old, v):
    """`add`: numbers add up, texts and lists are appended to (within the caps of budget.py)."""
    return plus(g, old, v)


def keep(g, v):
    """A value about to be kept by generated code (a `let`, a loop's items, a procedure's argument): a list
    is copied within the caps and paid for, as the nodes do."""
    if type(v) is not list:
        return v
    n = len(v)
    if n <= 64 and list not in map(type, v):   # a short flat list (the common case): `kept` inline
        w = g.work - n
        g.work = w
        if w < 0:
            raise over_items()
        return v[:]
    return kept(g, v)


def keep_fresh(g, v):
    """A new list about to be kept (nothing else holds it: no copy), within the caps and paid for."""
    if type(v) is list:
        spend(g, size(v))
    return v


def snapshot(value):
    """A copy of a value that no later move can change (zones are live lists)."""
    if type(value) is list:
        return [snapshot(v) if type(v) is list else v for v in value]
    return value


class Let(Node):
    """Bind local names for the rest of the action or procedure."""

    def __init__(self, bindings):
        self.bindings = bindings

    def run(self, vm, g, frame):
        env = frame[2]
        for name, value in self.bindings:
            v = value(g, env, None)
            env[name] = kept(g, v) if type(v) is list else v


class Log(Node):
    """Write a line to the game's log (shown in transcripts and to players), for everyone or some players."""

    def __init__(self, template, to=None):
        self.template, self.to = template, to

    def run(self, vm, g, frame):
        if vm.record:
            env = frame[2]
            to = None if self.to is None else as_players(g, self.to(g, env, None), "log's 'to'")
            vm.log_line(self.template(vm, g, env), to)


# control --------------------------------------------------------------------

class If(Node):
    """Run `then` or `else` depending on a condition."""

    def __init__(self, cond, then_block, else_block):
        self.cond, self.then_block, self.else_block = cond, then_block, else_block

    def run(self, vm, g, frame):
        env = frame[2]
        block = self.then_block if self.cond(g, env, None) else self.else_block
        if block is not None:
            vm.push(block, env)


class Repeat(Node):
    """Run a block while (or until) a condition holds, at most `max` times; more ends the game stalled."""

    def __init__(self, cond, until, limit, body):
        self.cond, self.until, self.limit, self.body = cond, until, limit, body

    def _go_on(self, g, env):
        return bool(self.cond(g, env, None)) != self.until

    def run(self, vm, g, frame):
        env = frame[2]
        if self._go_on(g, env):
            limit = min(self.limit(g, env, None), MAX_LOOP)
            if limit < 1:
                vm.stall(f"a loop may run {limit} times but its condition holds ({self.text} at {self.loc})")
                return
            vm.push(self.body, env, self.id, [1, limit])

    def block_end(self, vm, g, frame):
        env = frame[2]
        if not self._go_on(g, env):
            g.stack.pop()
            return
        data = frame[4]
        if data[0] >= data[1]:
            vm.stall(f"a loop ran {data[1]} times without its condition being met ({self.text} at {self.loc})")
            return
        data[0] += 1
        frame[1] = 0


class ForEach(Node):
    """Run a block once per item of a list (taken when the loop starts), binding the item to a name."""

    def __init__(self, name, items, body):
        self.name, self.items, self.body = name, items, body

    def run(self, vm, g, frame):
        env = frame[2]
        items = self.items(g, env, None)
        items = kept(g, items) if type(items) is list else snapshot(items)
        if items:
            env[self.name] = items[0]
            vm.push(self.body, env, self.id, [items, 0])

    def block_end(self, vm, g, frame):
        data = frame[4]
        data[1] += 1
        if data[1] >= len(data[0]):
            g.stack.pop()
            return
        frame[2][self.name] = data[0][data[1]]
        frame[1] = 0


class Call(Node):
    """Run a named procedure with its own local names: `me` and the arguments given."""

    def __init__(self, block, args):
        self.block, self.args = block, args

    def run(self, vm, g, frame):
        env = frame[2]
        inner = {"me": env["me"]}
        for name, value in self.args:
            v = value(g, env, None)
            inner[name] = kept(g, v) if type(v) is list else v
        vm.push(self.block, inner)


def _unwind(g, marker: int, what: str, where: str) -> None:
    """Pop frames down to and including the one a flow node owns; refuse when there is none."""
    stack = g.stack
    if not any(f[3] == marker for f in stack):
        raise GameError(f"{what} is only possible {where} (it was used outside)", "flow")
    while stack[-1][3] != marker:
        stack.pop()
    stack.pop()


class EndTurn(Node):
    """Skip the rest of the turn's steps; the turn's `end` effects and the end checks still run."""

    def run(self, vm, g, frame):
        _unwind(g, vm.rs.steps_node, "end_turn", "during a turn's steps (in actions and what they call)")


class EndRound(Node):
    """End the round now: the round's `end` effects run (with `me` the current player), then the next
    round starts, by default with the same current player."""

    def run(self, vm, g, frame):
        _unwind(g, vm.rs.turn_loop_node, "end_round", "during a turn")
        g.stack[-1][2]["me"] = g.current


class EndGame(Node):
    """End the game now, with winners (players) given by an expression or else by the scoring rules."""

    def __init__(self, winners, reason):
        self.winners, self.reason = winners, reason

    def run(self, vm, g, frame):
        winners = None
        if self.winners is not None:
            winners = self.winners(g, frame[2], None)
        vm.finish(self.reason, winners)


class Choose(Node):
    """A decision inside an effect: one player, or several at once, picks among options.

    Options come from inline `args` (bound into the surrounding environment, then `do` runs) or
    from named actions (their effects run, with `me` the chooser). With `players`, every chooser's
    options are fixed from the same state and nothing is applied until all have chosen (a
    simultaneous decision); the choices then take effect one by one, each with `me` the chooser, in
    seat order starting from a seat that moves on every turn (turn mod players), so that no seat
    always wins a race.
    """

    def __init__(self, player, players, prompt, choice, body, actions, optional, secret=None, until="all"):
        self.player, self.players, self.prompt = player, players, prompt
        self.choice, self.body, self.actions, self.optional = choice, body, actions, optional
        # what others may read of a choice: secret by default when several choose at once
        self.secret = (players is not None) if secret is None else secret
        # a reaction window (`until: first`): only the first player in priority order who acted is
        # applied, priority going round the table from the player who opened the window
        self.until = until

    def _options(self, g, env, p):
        if self.actions is not None:
            options = [(i, args) for i, action in enumerate(self.actions) for args in action.options(g, p)]
        else:
            # one chooser: the options are computed around the same `me` as the effects; several: each
            # chooser's own (see _apply)
            me = env["me"] if self.players is None else p
            options = [(0, args) for args in self.choice.options(g, env, me)]
        if options and self.optional:
            options.append((-1, ()))
        return options

    def run(self, vm, g, frame):
        if vm.probing:
            # a lookahead stops where the next decision would be asked, without listing its options
            return vm.ask(self.id, -1, ())
        env = frame[2]
        if self.players is None:
            p = as_player(g, self.player(g, env, None), "the chooser")
            options = self._options(g, env, p)
            if options:
                return vm.ask(self.id, p, options)
            return
        # options are tuples: never changed, so clones can share them
        queue = [(p, tuple(self._options(g, env, p))) for p in as_players(g, self.players(g, env, None), "choosers")]
        queue = [q for q in queue if q[1]]
        if not queue:
            return
        vm.push_hold(env, self.id, {"queue": queue, "chosen": [], "at": len(g.history)})
        return vm.ask(self.id, queue[0][0], queue[0][1])

    def choice_of(self, i):
        """The choice (an action, or the inline args) an option index of this decision belongs to."""
        return self.actions[i] if self.actions is not None else self.choice

    def me_of(self, env, player, i):
        """Who `me` is for an option: the chooser for an action or a simultaneous choice; else the
        `me` of the effects around a one-player `choose`."""
        return player if self.actions is not None or self.players is not None else env["me"]

    def loggable(self, option) -> bool:
        """An option whose subsets are still to be picked is logged once they are (see engine/picks.py)."""
        return option[0] < 0 or not self.choice_of(option[0]).needs_picks(option[1])

    picks = None   # whether an option of this decision may leave items to pick (worked out when first taken)

    def resume(self, vm, g, frame, option, player):
        picks = self.picks
        if picks is None:
            picks = self.picks = any(c is not None and c.subsets
                                     for c in (self.actions if self.actions is not None else (self.choice,)))
        if picks and option[0] >= 0 and self.choice_of(option[0]).needs_picks(option[1]):
            vm.rs.nodes[vm.rs.pick_node].start(vm, g, self, option, player)
            return
        if self.players is None:
            self._apply(vm, frame[2], option, player, shared=True)
            return
        # the hold's data is never changed in place, but replaced: clones share it (see State.clone)
        data = frame[4] = {**frame[4], "chosen": frame[4]["chosen"] + [(player, tuple(option))]}
        waiting = data["queue"][len(data["chosen"]):]
        if waiting:
            vm.ask(self.id, waiting[0][0], waiting[0][1])
            return
        g.stack.pop()  # the hold frame: every choice is in; apply them in priority order
        env = frame[2]
        n = g.n
        if self.until == "first":
            # the window closes on the first player after the opener (in seat order) who acted
            first = (env["me"] + 1) % n
            acted = sorted((c for c in data["chosen"] if c[1][0] >= 0), key=lambda c: (c[0] - first) % n)
            if not acted:
                return
            p, opt = acted[0]
            if vm.record:
                vm.log_choice(self, p, opt, head=f"P{p + 1} reacts first: ", secret=False)
            self._apply(vm, env, (opt[0], tuple(opt[1])), p, shared=False)
            return
        first = g.turn % n   # priority rotates with the turn: seat `first` goes first
        order = [c for c in data["chosen"] if c[1][0] >= 0]   # a pass does nothing
        if len(order) > 1:
            order.sort(key=lambda c: (c[0] - first) % n, reverse=True)
        alone = len(order) == 1   # the only choice that does something: nothing else waits to run
        for p, opt in order:            # pushed last-first, so they run first-first
            self._apply(vm, env, (opt[0], tuple(opt[1])), p, shared=False, alone=alone)

    def _apply(self, vm, env, option, player, shared, alone=False):
        i, args = option
        if i < 0:
            return
        if self.actions is not None:
            action = self.actions[i]
            inner = {"me": player}
            inner.update(zip(action.all_names, args))
            if action.block is not None:
                if action.direct is not None and (shared or alone):
                    # effects that ask no decision run at once (one chooser, or the only choice of several
                    # that does something: nothing else is pushed first)
                    vm.run_segment(action.direct, inner, action.direct.end)
                else:
                    vm.push(action.block, inner)
            return
        # One chooser: `me` stays who it was around the choose, and the chosen values stay known after
        # it, in the same list. Several at once: each one's `do` runs with `me` = that chooser and sees
        # its own values only.
        if shared:
            env.update(zip(self.choice.all_names, args))
            target = env
        else:
            target = dict(env, me=player)
            target.update(zip(self.choice.all_names, args))
        if self.body is not None:
            vm.push(self.body, target)

    def prompt_text(self, vm, g, pending):
        if not callable(self.prompt):
            return self.prompt
        env = dict(g.stack[-1][2]) if g.stack else {}
        env["me"] = pending[1]
        return self.prompt(vm, g, env)

    def label(self, vm, g, player, option):
        i, args = option
        if i < 0:
            return "pass"
        if self.actions is not None:
            return self.actions[i].label(vm, g, player, args)
        # the label sees what the options saw: the names of the effects around the choose
        env = g.stack[-1][2] if g.stack else {"me": player}
        return self.choice.label(vm, g, env["me"] if self.players is None else player, args, env)
