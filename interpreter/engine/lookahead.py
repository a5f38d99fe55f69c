"""Worlds for bots: a game + a player -> copies the player could believe in (what they cannot see dealt
again at random), the value of each option one step ahead, and positions scored for search."""
from __future__ import annotations

import copy
import random

from ..errors import GameError
from ..runtime.draws import below, shuffle
from ..runtime.listing import Listing, argument_rows
from ..runtime.values import Card, Player
from .flow import Step
from .view import seen_cards

WIN = 10 ** 9
# what a value may be when it holds no card, at any depth
_NO_CARDS = frozenset((int, str, bool, float, type(None), Player))


BELIEFS = ("auto", "history", "view", "peek")   # peek: sees everything (a cheat, to measure what hiding is worth)
AUTO_HISTORY = 60   # belief=auto: worlds consistent with the history while it is at most this long


def replays(game, belief: str) -> bool:
    """Whether worlds are made consistent with the history (engine/belief.py) for this belief setting:
    "history" always (within its budget), "view" never, "auto" while the history is short, in a ruleset
    whose hidden state the view alone is known to get wrong (`misleads`)."""
    if belief == "history":
        return True
    return belief == "auto" and len(game.state.history) <= AUTO_HISTORY and misleads(game.rs)


def misleads(rs) -> bool:
    """Whether a world dealt from the view is known to contradict what a player saw: the ruleset has values
    their owner sees and the others do not (set by choices they did not see), or random draws in its
    actions (a host who opens a door at random among those the hidden cards allow). Elsewhere (only cards
    hidden, secret offers) the view-dealt worlds are kept by `auto`: there a fresh deal seldom follows a
    long history, and the replays would cost more than the search (docs/agents.md)."""
    if any(spec.visible == "owner" for spec in rs.var_specs.values()):
        return True
    text = repr(rs.data.get("actions"))
    return "random(" in text or "sample(" in text


def determinize(game, player: int, rng, belief: str = "view"):
    """A clone in which every card `player` cannot see is shuffled among the places they cannot see.

    Zone sizes stay as they are; cards the player was shown (reveals) or sees (the top card of a `top`
    zone) stay put. Variables the player may not see take the values a setup gives them. Other players'
    choices already made in a simultaneous decision are replaced by passing. The world draws its random
    outcomes from `rng`: the game's own generator is hidden too (and is not copied).

    With `belief` "history" (or "auto" on a short history), the world is one replayed along the history
    so that the player saw in it all it really saw (engine/belief.py), where one can be made and offers
    the same options; else it is dealt from the current view as above."""
    if belief != "peek" and replays(game, belief):
        from .belief import consistent_worlds
        for world in consistent_worlds(game, player, rng, _deal_unseen, wanted=1):
            if len(world.state.pending[2]) == len(game.state.pending[2]) and \
                    world.decision.options == game.decision.options:
                world = world.clone(share_rng=True, bare=True)
                world.state.rng = rng
                world.record = False
                world.probing = True
                _forget_other_commitments(world, player)
                return world
    # a world is never replayed nor shown: neither it nor its trials copy the game's history and log
    world = game.clone(share_rng=True, bare=True)
    world.state.rng = rng
    world.record = False
    world.probing = True
    # first, so that the others' options (many, in a simultaneous decision) are not relabeled in vain
    _forget_other_commitments(world, player)
    if belief != "peek":
        _deal_unseen(world, player, rng)
    return world


def _deal_unseen(world, player: int, rng, options_named=None) -> None:
    """Shuffle the cards `player` cannot identify among the positions they lie in (each card among the
    places of cards of its type), and hide values.

    The cards are sorted before the shuffle, so the world depends on which cards are unseen and where
    the gaps are, never on which unseen card lies where: a bot's world is the same whatever the hidden
    order of the real game (the leak tests check this)."""
    g = world.state
    known = g.known
    zones = g.zones
    spots, types, one_type = g.layout.unseen[player]
    holes = None   # (slot, position) of every card the player cannot identify, when some are known
    before = []
    if known:
        holes = []
        for slot, start in spots:
            cards = zones[slot]
            for i in range(start, len(cards)):
                if player not in known.get(cards[i], ()):
                    holes.append((slot, i))
        before = [zones[s][i] for s, i in holes]
    else:   # every card from each slot's first hidden position: whole slices
        for slot, start in spots:
            before += zones[slot][start:] if start else zones[slot]
    # a card is only imagined as another card of its type (a type shows on the card's back)
    groups: dict = {}
    if not one_type:
        for k, c in enumerate(before):
            t = types[c]
            found = groups.get(t)
            if found is None:
                groups[t] = [k]
            else:
                found.append(k)
    if len(groups) <= 1:   # one type (the common case): every hidden card may be any other
        pool = sorted(before)
        shuffle(rng, pool)
    else:
        pool = before[:]
        for _, places in sorted(groups.items()):
            cards = sorted(before[k] for k in places)
            shuffle(rng, cards)
            for k, c in zip(places, cards):
                pool[k] = c
    # the world shares its zones' lists with the game it was cloned from: each zone dealt gets a new list
    if holes is not None:
        mine = set()
        for (s, i), c in zip(holes, pool):
            if s not in mine:
                mine.add(s)
                zones[s] = zones[s][:]
            zones[s][i] = c
    else:
        k = 0
        for slot, start in spots:
            cards = zones[slot]
            if len(cards) > start:
                end = k + len(cards) - start
                zones[slot] = cards[:start] + pool[k:end] if start else pool[k:end]
                k = end
    # The card at a place is imagined to be another: wherever the game refers to a card it cannot see
    # (a variable, a name of an effect in progress), the bot sees the card imagined at that place; and
    # values everyone sees on the cards' backs stay where they lie.
    _relabel(world, dict(zip(before, pool)), options_named)
    _hide_values(world, player, pool, rng)


def _relabel(world, sigma: dict, options_named=None) -> None:
    """Give every card of `sigma` its new identity in variables, card variables, effects in progress and the
    pending options (`options_named`: whether they name a card the player cannot see, when known)."""
    if not sigma:
        return
    g = world.state
    flat = _NO_CARDS
    done = {}   # id(tuple) -> (the tuple, its relabeled copy): options are shared by many lists

    def swap(v):
        # containers with nothing inside that may hold a card are kept as they are (the world's own
        # lists: it is a clone), at C speed; the options of a simultaneous decision are many
        t = type(v)
        if t is Card:
            return sigma.get(v, v)
        if t is tuple:
            if flat.issuperset(map(type, v)):
                return v
            seen = done.get(id(v))
            if seen is None:   # the original is kept alive in `done`, so its id is not reused
                seen = done[id(v)] = (v, tuple([x if type(x) in flat else swap(x) for x in v]))
            return seen[1]
        if t is list:
            if flat.issuperset(map(type, v)):
                return v
            return [x if type(x) in flat else swap(x) for x in v]
        if t is dict:
            if flat.issuperset(map(type, v.values())):
                return v
            return {k: x if type(x) in flat else swap(x) for k, x in v.items()}
        return v

    g.vars = swap(g.vars)
    g.pvars = {k: swap(v) for k, v in g.pvars.items()}
    if g.pending is not None and (names_unseen(world, g.pending) if options_named is None else options_named):
        # an option that names a card the player cannot see names the card at its place: "card 2 of P2's
        # hand" is whichever card lies there in this world (options are told apart by place, not identity)
        node_id, who, options = g.pending
        g.pending = (node_id, who, swap(list(options) if type(options) is Listing else options))
    for name, table in g.cvars.items():
        old = table[:]
        for c, new in sigma.items():
            table[new] = swap(old[c])
    envs = {}
    for frame in g.stack:
        env = frame[2]
        if id(env) not in envs:
            envs[id(env)] = swap(env)
        frame[2] = envs[id(env)]
        data = frame[4]
        if type(data) is dict and "chosen" in data:
            # a simultaneous decision: {"queue": [(player, options)], "chosen": [(player, option)], ...};
            # an option is (index, arguments), and most options' arguments hold no card
            frame[4] = held = {k: v if type(v) in flat else swap(v) for k, v in data.items()
                              if k != "queue" and k != "chosen"}
            held["queue"] = [(p, tuple([o if flat.issuperset(map(type, o[1])) else (o[0], swap(o[1]))
                                       for o in opts])) for p, opts in data["queue"]]
            held["chosen"] = [(p, o if flat.issuperset(map(type, o[1])) else (o[0], swap(o[1])))
                             for p, o in data["chosen"]]
        elif type(data) not in flat:
            frame[4] = swap(data)


def names_unseen(game, pending) -> bool:
    """Whether an option of this decision names a card its chooser cannot see (most name none: a world
    then keeps them as they are)."""
    seen = None
    lists = {}   # id -> (a list, whether it holds an unseen card): a hand's group is in many options

    def unseen(v) -> bool:   # whether v holds a card the chooser does not see
        t = type(v)
        if t is Card:
            return v not in seen
        if t is list or t is tuple:
            found = lists.get(id(v))
            if found is None:
                if v and type(v[0]) is Card and _NO_LISTS.isdisjoint(map(type, v)) and seen.issuperset(v):
                    answer = False   # cards it sees (a flock from its own hand), at C speed
                else:
                    answer = any(unseen(x) for x in v if type(x) not in _NO_CARDS)
                found = lists[id(v)] = (v, answer)   # the list kept: its id is no other's while this runs
            return found[1]
        return False
    for args in argument_rows(pending[2]):   # a product's domains, not its combinations
        if _NO_CARDS.issuperset(map(type, args)):
            continue
        if seen is None:
            seen = seen_cards(game.state, pending[1])
        for x in args:
            if type(x) not in _NO_CARDS:
                found = lists.get(id(x))   # a list met in an earlier option: known without a call
                if found[1] if found is not None else unseen(x):
                    return True
    return False


_NO_LISTS = frozenset((list, tuple, dict))   # what a set cannot hold


def _hide_values(world, player: int, unseen, rng) -> None:
    """Variables hidden from `player` take the values they have just after the setup of another game
    (same rules, players and parameters, on a seed drawn from the bot's generator): what the rules start
    them at, or one of the values a random setup gives them. The variables of the cards it cannot see
    take their declared values. The bot cannot read the real ones."""
    rs, g = world.rs, world.state
    hidden = [(name, spec) for name, spec in rs.var_specs.items() if spec.visible != "public"]
    if hidden:
        # the declared value alone can be far off: chips declared 0 and dealt by the setup
        start = type(world)._start(rs, g.n, rng.getrandbits(32), g.params, False).state
        for name, spec in hidden:
            if spec.per_player:
                table = g.pvars[name]
                for p in range(g.n):
                    if spec.visible == "nobody" or p != player:
                        table[p] = copy.deepcopy(start.pvars[name][p])
            else:
                g.vars[name] = copy.deepcopy(start.vars[name])
    for name, spec in rs.card_vars.items():
        if spec.visible == "public":
            continue
        values = g.cvars[name]
        for c in unseen:
            values[c] = list(spec.value) if type(spec.value) is list else spec.value


def _pass_of(options):
    return tuple(options[-1]) if options[-1][0] == -1 else tuple(options[0])


def _simultaneous_frame(g):
    """The hold frame of the simultaneous decision under way (below any items being picked), or None."""
    for frame in reversed(g.stack):
        data = frame[4]
        if frame[0] == () and isinstance(data, dict):
            if "chosen" in data:
                return frame
            if "origin" in data:
                continue   # a pick in progress: the decision it belongs to lies below
        return None
    return None


def _forget_other_commitments(world, player: int) -> None:
    """In a simultaneous decision, others' choices are secret: in this world every other chooser
    passes (or takes their first option), and `player` chooses last, so that a trial resolves at once.
    Each other chooser is left only the option they take: nothing else reads the others' lists here."""
    g = world.state
    if g.pending is None:
        return
    frame = _simultaneous_frame(g)
    if frame is not None:
        data = frame[4]
        others = [(q[0], _pass_of(q[1])) for q in data["queue"] if q[0] != player]
        # the player's own options are read from the pending decision; their copy in the queue is never
        # read once they choose last (and would be relabeled for nothing)
        mine = [(q[0], ()) for q in data["queue"] if q[0] == player]
        # replaced, not changed in place: the real game's frame shares it (see State.clone)
        frame[4] = {**data, "queue": [(p, (option,)) for p, option in others] + mine, "chosen": others}


def _reopen_commitments(world, player: int) -> None:
    """In a simultaneous decision, others' choices are secret: in this world `player` chooses first and
    every other chooser chooses again after it, from options listed anew in this world (the options
    they were really offered tell what they hold)."""
    g = world.state
    if g.pending is None:
        return
    frame = _simultaneous_frame(g)
    if frame is None:
        return
    node, env, data = world.rs.nodes[frame[3]], frame[2], frame[4]
    mine = [q for q in data["queue"] if q[0] == player]
    others = [(q[0], tuple(node._options(g, env, q[0]))) for q in data["queue"] if q[0] != player]
    frame[4] = {**data, "queue": mine + [q for q in others if q[1]], "chosen": []}   # replaced: shared


class Sampler:
    """Worlds for a search by `player` from the game as it is now: each call deals what the player cannot
    see again and gives the world a generator of its own (the game's generator state would tell the
    order of future shuffles)."""

    def __init__(self, game, player: int, belief: str = "view"):
        # without the choices of every player so far (secret ones included) and the log (private lines too)
        base = game.clone(bare=True)
        base.record = False
        self.base, self.player = base, player
        self.game, self.belief = game, belief
        self.worlds = None   # worlds consistent with the history, made at the first call (belief.py)
        # whether the options name a card the player cannot see: known once, for every world dealt
        self.named = base.state.pending is not None and names_unseen(base, base.state.pending)

    def consistent(self, rng) -> list:
        """The worlds consistent with the history this sampler deals from ([]: it deals from the view)."""
        if self.worlds is None:
            self.worlds = []
            if replays(self.game, self.belief):
                from .belief import consistent_worlds
                self.worlds = [w.clone(bare=True) for w in consistent_worlds(self.game, self.player, rng, _deal_unseen)]
        return self.worlds

    def __call__(self, rng):
        kept = self.consistent(rng)
        if kept:
            world = kept[below(rng, len(kept))].clone()
            world.probing = False
        else:
            world = self.base.clone()
            world.probing = False
            if self.belief != "peek":
                _deal_unseen(world, self.player, rng, self.named)
        _reopen_commitments(world, self.player)
        world.state.seed_rng(rng.getrandbits(64))
        return world

    def flat(self, rng):
        """A world for valuing the player's own options one step ahead (as `determinize` makes them)."""
        kept = self.consistent(rng)
        if kept:
            world = kept[below(rng, len(kept))].clone(share_rng=True)
            world.state.rng = rng
            world.probing = True
            _forget_other_commitments(world, self.player)
            return world
        return determinize(self.base, self.player, rng, "peek" if self.belief == "peek" else "view")


def evaluator(rs, by: str = "auto"):
    """How good a position is for each player, as a function (game state -> a number per player): the
    ruleset's `agents: evaluate` (by="evaluate", or "auto" where it declares one), else each player's
    score total (by="score", or "auto"); None when the ruleset has neither."""
    if rs.evaluate is not None and by != "score":
        evaluate = rs.evaluation
        return lambda g: [evaluate(g, p) for p in g.players]
    if rs.scoring.parts and by != "evaluate":
        values = rs.scoring.values

        def totals(g):
            return [sum(v for v in values(g, p) if type(v) is int or type(v) is float) for p in g.players]
        return totals
    return None


def lead(values: list, p: int):
    """How far player p's value is ahead of the best of the others' (its own value when alone)."""
    if len(values) == 1:
        return values[0]
    return values[p] - max(v for q, v in enumerate(values) if q != p)


def evaluation_text(rs) -> str:
    """What `evaluator` uses, in words (for help texts and explanations)."""
    if rs.evaluate is not None:
        return "the ruleset's 'agents: evaluate'"
    if rs.scoring.parts:
        return "the score parts (own total minus the best other total)"
    return "nothing (the ruleset has neither 'agents: evaluate' nor score parts)"


def position_value(rs, by: str = "auto"):
    """What the greedy bot maximises, as value(game state, player): the ruleset's `agents: evaluate` for
    the player; without one (or by="score"), the player's score total minus the best total of the others."""
    if rs.evaluate is not None and by != "score":
        return rs.evaluation
    totals = evaluator(rs, "score")
    if totals is None:
        return None
    return lambda g, p: lead(totals(g), p)


def _settle(world, node_id: int, player: int) -> None:
    """After my choice: the other choosers of the same simultaneous decision pass, so it resolves."""
    g = world.state
    while g.pending is not None and g.pending[0] == node_id and g.pending[1] not in (player, -1):
        options = g.pending[2]
        world.apply(len(options) - 1 if options[-1][0] == -1 else 0)


MAX_TRIALS = 8
REPLIES = 4   # greedy: the others' secret choices sampled per option at a decision made at once


def option_values(game, player: int, rng, max_trials: int = MAX_TRIALS, value=None, belief: str = "view",
                  replies: int = 0) -> dict:
    """How good each option is for `player` one step ahead, in one determinized world.

    `value(g, player)` scores a position (default: `position_value`). With many
    options, a random sample of `max_trials` of them is tried (keeps bots fast in games with large
    choices); the result maps option index -> value (an option whose trial the world's rules could not
    go on with is left out). At a sealed decision several players make at once (see _sealed), the others
    pass after the player's choice (replies=0), or (replies=k) choose at random among their options in
    this world, k times, the same k draws for every option, and an option is worth its mean over them."""
    if value is None:
        value = position_value(game.rs)
    world = determinize(game, player, rng, belief)
    if replies and _sealed(world):
        return _replied_values(world, player, rng, max_trials, value, replies)
    node_id = world.state.pending[0]
    count = world.option_count()
    indexes = _tried(count, max_trials, rng)
    values = {}
    pick = game.rs.pick_node
    last = indexes[-1] if len(indexes) else None
    for i in indexes:
        # the last trial needs no copy: the world is not used after it
        trial = world if i == last else world.clone(share_rng=True)
        try:
            trial.apply(i)
            while trial.state.pending is not None and trial.state.pending[0] == pick and trial.state.pending[1] == player:
                trial.apply(below(rng, trial.option_count()))   # several items: a random completion
            _settle(trial, node_id, player)
        except GameError:
            # a world the rules cannot go on in (a guess that contradicts what the real game did, such as
            # a hidden variable the option was made from): the option gets no value here, as in mcts
            continue
        values[i] = worth(trial.state, player, value)
    return values


def _tried(count: int, max_trials: int, rng):
    """Which of `count` options a lookahead tries: all of them, or a random sample of `max_trials`, in order."""
    return range(count) if count <= max_trials else sorted(rng.sample(range(count), max_trials))


def _sealed(world) -> bool:
    """Whether the decision under way is one several players make at once inside the rules (a secret
    bet, a reaction: `choose` with `players`, `react`), where the others answering at random is worth its
    cost, and not a turn's step all players take at once (open trading, each move its own: there the
    others pass, as one step ahead assumes; answering them would multiply a trial by the players: a
    trading game of eight players forty times slower)."""
    frame = _simultaneous_frame(world.state)
    return frame is not None and not isinstance(world.rs.nodes[frame[3]], Step)


def worth(g, player: int, value):
    """A position's worth to `player` one step ahead: a win or a loss where the game ended, else `value`."""
    result = g.result
    if result is not None:
        return WIN if player in result["winners"] else -WIN
    return value(g, player)


def _replied_values(world, player: int, rng, max_trials: int, value, replies: int) -> dict:
    """option_values at a decision made at once, the others answering at random: each option tried against
    the same `replies` draws of the others' choices (and of the rules' random draws), its value their mean.
    Passing, the others would leave every pot to the player (a secret bet always won)."""
    _reopen_commitments(world, player)   # the player first, then each other chooser from its own options
    node_id = world.state.pending[0]
    count = world.option_count()
    indexes = _tried(count, max_trials, rng)
    seeds = [rng.getrandbits(64) for _ in range(replies)]
    pick = world.rs.pick_node
    values = {}
    for i in indexes:
        total = tried = 0
        for seed in seeds:
            trial = world.clone(share_rng=True)
            trial.probing = False   # the others' decisions are asked, with their options
            draw = trial.state.rng = random.Random(seed)
            g = trial.state
            try:
                trial.apply(i)
                while g.pending is not None and g.pending[1] == player and g.pending[0] == pick:
                    trial.apply(below(draw, len(g.pending[2])))   # its items, picked at random
                while g.pending is not None and g.pending[1] != player and g.pending[0] in (node_id, pick):
                    trial.apply(below(draw, len(g.pending[2])))   # another chooser of the same decision
            except GameError:
                continue
            total += worth(g, player, value)
            tried += 1
        if tried:
            values[i] = total / tried
    return values
