"""The mcts agent: a Request -> the option that information-set Monte Carlo tree search prefers, searching
only worlds dealt from what its player may see.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 2012): every iteration deals a new world from the player's view (engine/lookahead.Sampler),
walks down one tree shared by all worlds, choosing by UCT among the options legal in this world
(a child's exploration term counts the iterations in which it was available, not its parent's visits),
adds one node, plays the rest at random (to the end, or until the decision comes back to the player, or
for a number of decisions, then scores the position), and credits each node on the path with the reward
of the player who chose it. Options are told apart across worlds by what they are (action and
arguments, cards by their labels), not by their index, since another world may offer other options.
With two players every decision is a node of the tree, each chosen for its chooser's own reward; with
more, the others' decisions are played at random, as in a rollout, so that the visits are not spread
over every opponent's options. In a simultaneous decision the searcher chooses first and the others
after it.

With depth 0 (the default at a decision several players make at once, where the others are played at
random and the ruleset declares `agents: evaluate`) there is no rollout: the searcher's own options are
valued as greedy values an option, all in the same worlds (a flat Monte Carlo search over
determinizations, no tree below the root).
"""
from __future__ import annotations

import itertools
import math
import random
import time

from ..runtime.draws import below
from ..runtime.listing import Listing
from ..engine.lookahead import BELIEFS, WIN, lead, position_value, worth
from ..engine.view import place_of, seen_cards
from ..runtime.values import Card, Player
from ..errors import GameError
from .base import Agent, Option, Request
from .greedy import BELIEF_HELP

DEFAULT_ITERATIONS = 200
DEFAULT_STEPS = 10_000   # steps=auto: at least this many (the default's 200 iterations, or a time per decision)
STEPS_PER_ITERATION = 50   # steps=auto: 50 an iteration past the default's, so a bigger budget is not cut short
DEFAULT_C = 0.7
# the most CPU seconds a search may take: the bound on a decision in any game, whatever its iterations left
# (a game whose rollouts run through many turns without a decision would otherwise take seconds)
DEFAULT_CAP = 0.2   # cap=auto: at least this, or CAP_PER_ITERATION an iteration, or the time asked for
CAP_PER_ITERATION = 0.001   # so that a bigger budget (the ladder's top rung) is not cut by a cap sized for 200
NEXT = "next"   # depth: the rollout stops when the decision comes back to the searcher from another player
TURN = "turn"   # depth: the last chooser in the tree plays on one step ahead (as greedy) until another is to choose
_FLAT = frozenset((int, str, bool, float, type(None), Player))   # values that are no card and hold none
_HASHLESS = frozenset((list, tuple, dict))   # what a set cannot hold


def _runs(rs) -> bool:
    """Whether a player's turn may be a run of decisions of its own of a length its choices decide: a step
    offered again until the player passes. (Items picked one at a time make runs too, but in the bundled
    game that has them `turn` measured no stronger than `next`, at twice the time: benchmarks/agents.md.)"""
    return any(getattr(node, "again", False) for node in rs.nodes)


class _Node:
    """One option taken from a position: who took it, how often it was tried and was available, and the
    sum of its chooser's rewards."""

    __slots__ = ("children", "player", "key", "visits", "avail", "total")

    def __init__(self, player: int, key=None):
        self.children: dict = {}
        self.player, self.key = player, key
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def _offered(g, pending, labels, by_back) -> dict:
    """A decision's options by what their chooser can tell apart -> the index of the first of each (see
    _offered_pairs)."""
    return dict(_offered_pairs(g, pending, labels, by_back))


def _offered_pairs(g, pending, labels, by_back) -> list:
    """A decision's options by what their chooser can tell apart: (key, the index of the first option of
    that key), in the order of the indexes, each key once (a search walks them all: a list costs less than
    a dict, whose keys would be hashed once more).

    An argument is told as its chooser can tell it: a card by its label (the same card in two worlds may
    have another id), but a card the chooser cannot see by its place (which card lies there differs from
    one world to the next: the option is "the second card of P2's hand", never the card really there)."""
    node_id, who, options = pending
    seen = []   # the cards the chooser sees: read once, at the first card

    def tell(v):
        """One argument as its chooser tells it (written inline again in the loop below, its hot path)."""
        t = type(v)
        if t in _FLAT:
            return v
        if t is list and v and type(v[0]) is Card and _HASHLESS.isdisjoint(map(type, v)):
            if not seen:
                seen.append(seen_cards(g, who))
            if seen[0].issuperset(v):
                return tuple(map(labels.__getitem__, v))   # cards the chooser sees, at C speed
        return _canon(v, labels, g, who, by_back, seen)

    product = options.single if type(options) is Listing else None
    if product is not None:
        # options made on demand (runtime/listing.py): each domain's values told once; where they are all told
        # apart, every combination is a key of its own, in the product's order, made in C
        domains = [[tell(v) for v in d] for d in product.domains]
        if all(len(set(d)) == len(d) for d in domains):
            keys = zip(itertools.repeat(node_id), itertools.repeat(who), itertools.repeat(product.tag),
                       itertools.product(*domains))
            return list(zip(keys, range(product.size)))
    offered = {}
    for i, (a, args) in enumerate(options):
        key = []
        for v in args:
            t = type(v)
            if t in _FLAT:
                key.append(v)
            elif t is list and v and type(v[0]) is Card and _HASHLESS.isdisjoint(map(type, v)):
                if not seen:
                    seen.append(seen_cards(g, who))
                # cards the chooser sees (a flock from its own hand) at C speed
                key.append(tuple(map(labels.__getitem__, v)) if seen[0].issuperset(v)
                           else _canon(v, labels, g, who, by_back, seen))
            else:
                key.append(_canon(v, labels, g, who, by_back, seen))
        offered.setdefault((node_id, who, a, tuple(key)), i)
    return list(offered.items())


def _canon(value, labels, g, who, by_back, seen):
    """One argument as its chooser can tell it (see _offered; `seen` holds the cards it sees, once read)."""
    t = type(value)
    if t is Card:
        if not seen:
            seen.append(seen_cards(g, who))
        return labels[value] if value in seen[0] or value in by_back else place_of(g, value)
    if t is list or t is tuple:
        return tuple([_canon(v, labels, g, who, by_back, seen) for v in value])
    return value


class _Deadline:
    """When a search must stop: a wall-clock time (the `time` setting) and a CPU time of the searching thread
    (the `cap`: other threads of the process, such as a server's, are not counted).

    A thread cannot have run longer than the wall clock has: until as much wall time as the cap has gone by,
    the CPU time is not read (reading it costs ten times the wall clock's reading, at every iteration)."""

    __slots__ = ("wall", "cpu", "cpu_from")

    def __init__(self, wall, cpu):
        self.wall, self.cpu = wall, cpu
        # the wall-clock time before which the thread's CPU time cannot have reached `cpu`
        self.cpu_from = None if cpu is None else time.perf_counter() + (cpu - time.thread_time())

    def over(self) -> bool:
        if self.wall is None and self.cpu is None:
            return False
        now = time.perf_counter()
        if self.wall is not None and now >= self.wall:
            return True
        return self.cpu is not None and now >= self.cpu_from and time.thread_time() >= self.cpu


class MctsAgent(Agent):
    """Information-set Monte Carlo tree search: plays any ruleset, needs no evaluation. Each iteration deals
    a world from what its player may see, walks one shared tree by UCT, plays on at random (to the end, or
    `depth` decisions and scores the position) and credits each choice with its chooser's reward; it then
    plays the option tried most. With depth 0 (auto where more than two players choose at once) no rollout: its own
    options are valued one step ahead, all in the same worlds, and the best mean is played (docs/agents.md)."""

    name = "mcts"
    OPTIONS = {
        "iterations": Option(int, DEFAULT_ITERATIONS, "search iterations per decision (0: no limit; with "
                             "time, whichever ends first)", 0),
        "time": Option(float, 0.0, "seconds of search per decision (0: no time limit)", 0),
        "cap": Option(float, "auto", "the most CPU seconds a decision's search may take, whatever the "
                      f"iterations or time left (0: no cap; auto: {DEFAULT_CAP}, or {CAP_PER_ITERATION} for each of "
                      "the iterations, or the time, where that is more); a search it ends plays what it found so far, so "
                      "what the bot plays there depends on the machine's speed", 0),
        "steps": Option(int, "auto", "decisions played per search, in the tree and the rollouts, "
                        f"whichever limit ends first (0: no limit; auto: {DEFAULT_STEPS}, or 50 for each of the "
                        f"iterations where that is more); a rollout cut by it is scored where it "
                        "stopped, or counted a draw where the ruleset gives no way to score a position", 0),
        "c": Option(float, DEFAULT_C, "UCT exploration constant (bigger explores more)", 0),
        "depth": Option(int, "auto", "rollouts stop after this many decisions and the position is scored "
                        "(-1: play to the end; next: when the decision comes back to the player from another; "
                        "turn: the last chooser in the tree plays the rest of its run of decisions one step "
                        "ahead, scored when another player is to choose; 0: no rollout, the player's own options "
                        "valued one step ahead in iterations/options worlds; auto: where the ruleset gives a way "
                        "to score a position, 0 at a decision several players make at once when the others are "
                        "played at random (opponents=rollout), turn where the others are nodes of the tree and a "
                        "step may be offered again until the player passes, else next; -1 where it gives none)", -1, words=(NEXT, TURN)),
        "reward": Option(("win", "margin"), "win", "win: 1 for a win, 1/k for a win shared by k, 0 for a "
                         "loss; margin: the score lead over the best other player, squashed to 0..1"),
        "opponents": Option(("auto", "tree", "rollout"), "auto", "the other players' decisions: tree (nodes of "
                            "the search tree, chosen for their own reward), rollout (played at random), or auto: "
                            "tree with two players, rollout with more"),
        "belief": Option(BELIEFS, "auto", BELIEF_HELP),
    }

    def __init__(self, seed: int = 0, iterations: int | None = None, time: float = 0.0, c: float = DEFAULT_C,
                 depth="auto", reward: str = "win", opponents: str = "auto", belief: str = "auto",
                 steps="auto", cap="auto"):
        self.belief = belief
        self.rng = random.Random(seed)
        if iterations is None:
            iterations = 0 if time > 0 else DEFAULT_ITERATIONS
        # the defaults sized for the default search grow with a bigger one asked for: it is not cut short
        self.cap = max(DEFAULT_CAP, CAP_PER_ITERATION * iterations, time) if cap == "auto" else cap
        self.iterations, self.time, self.c, self.depth, self.reward = iterations, time, c, depth, reward
        if steps == "auto":
            steps = max(DEFAULT_STEPS, STEPS_PER_ITERATION * iterations)
        self.opponents, self.steps = opponents, steps
        self.left = 0           # per search: the decisions it may still play (steps; inf: no limit)
        self.spread = {}        # per search: kind of value -> its scale (see _squash)
        self.searched = []      # (iterations, seconds) of each search, for benchmarks
        self.estimate = None    # after each decision: its chosen option's mean reward, where a tree was searched
        self.tree = None        # the last search's root (tools and tests)

    @classmethod
    def settings_problem(cls, settings: dict) -> str | None:
        if settings.get("iterations") == 0 and not settings.get("time") and settings.get("steps") == 0:
            return ("mcts with iterations=0 and steps=0 (no limits) needs a time per decision: "
                    "mcts:iterations=0:steps=0:time=SECONDS")
        return None

    def resolved_depth(self, request: Request, base, opponents: str):
        """The depth this search uses: the one given, or what `auto` is at this decision."""
        if self.depth != "auto":
            return self.depth
        if not request.has_evaluation():
            # nothing scores a position (neither `agents: evaluate` nor score parts): play to the end
            return -1
        # In a decision several players make at once, the others' choices cannot answer the player's:
        # played at random they only hid the differences between its own options (measured:
        # benchmarks/agents.md), so they are not played at all (depth 0). Where the others choose after
        # seeing the player's choice, the search must see their answers (next).
        together = getattr(base.rs.nodes[base.state.pending[0]], "players", None) is not None
        if opponents == "rollout" and together:
            return 0
        # Where a player's turn is a run of decisions of its own whose length its choices decide (a step
        # offered again until it passes), a rollout that plays the rest of the
        # searcher's run at random scores its random moves more than its options; `turn` plays the run one
        # step ahead and scores the position when another player is to choose (measured: benchmarks/agents.md).
        # With the others played at random (more than two players) the tree holds no node of theirs to answer.
        if opponents == "tree" and _runs(base.rs):
            return TURN
        return NEXT

    def choose(self, request: Request) -> int:
        self.estimate = None   # the chosen option's mean reward (a chance to win), where a tree was searched
        if request.count == 1:
            return 0
        start = time.perf_counter()
        sample = request.sampler(self.belief)
        base = sample.base
        opponents = self.opponents
        if opponents == "auto":
            opponents = "tree" if base.state.n <= 2 else "rollout"
        depth = self.resolved_depth(request, base, opponents)
        cut = depth in (NEXT, TURN) or depth >= 0
        # a rollout cut by the steps is scored where it stopped, where there is a way to score it
        score = request.evaluation()
        if score is None and (cut or self.reward == "margin"):
            raise GameError("the mcts agent's depth and reward=margin need a way to score a position: this "
                            "ruleset has neither 'agents: evaluate' nor score parts", "agent")
        self.left = self.steps if self.steps > 0 else math.inf
        self.spread = {}
        labels = base.rs.card_labels
        node_id, who, options = base.state.pending
        # whose decisions are nodes of the tree: everyone's, or the searcher's only
        mine_only = who if opponents == "rollout" else None
        keys = _offered(base.state, base.state.pending, labels, base.rs.by_back)
        # where no option names a card the player cannot see, every world tells the root's options alike (a
        # card it sees is never dealt again): told once here, for each world that offers them as they are
        told = None if sample.named else (base.state.pending, list(keys.items()))
        root = _Node(-1)
        rng = self.rng
        limit = self.iterations
        deadline = _Deadline(start + self.time if self.time > 0 else None,
                             time.thread_time() + self.cap if self.cap > 0 else None)
        if deadline.wall is None and deadline.cpu is None:
            deadline = None
        if depth == 0:
            choice, done = self._flat(root, sample, who, keys, labels, limit, deadline, told)
            self.searched.append((done, time.perf_counter() - start))
            self.tree = root
            return choice
        done = 0
        while ((limit <= 0 or done < limit) and (deadline is None or not deadline.over())
               and self.left > 0):
            self._iterate(root, sample(rng), rng, labels, score, depth, who, mine_only, deadline, told)
            done += 1
        self.searched.append((done, time.perf_counter() - start))
        self.tree = root
        tried = [(child.visits, child.total / child.visits, keys[k]) for k, child in root.children.items()
                 if k in keys and child.visits]
        if not tried:
            return rng.randrange(request.count)
        _, mean, index = max(tried, key=lambda t: (t[0], t[1], -t[2]))
        self.estimate = mean
        return index

    def _iterate(self, root, world, rng, labels, score, depth, me, mine_only, deadline=None, told=None) -> None:
        """One iteration in one world: select and expand, roll out, back the rewards up the path.

        `me` is the searcher; `mine_only`, when it is set, the only player whose decisions are tree nodes;
        `deadline` (a _Deadline), when set, cuts a long rollout where it stands (scored as one cut by the
        steps), so that a time budget holds however long a rollout would be; `told`, when it is set, the
        root's pending decision and its options as _offered_pairs tells them, the same in every world."""
        node, path = root, []
        by_back = world.rs.by_back
        # where a rollout stops, each player's reward is how its position grew since the decision at hand
        # (in this world): what is common to every line of play, such as points won long ago, cancels out
        start = score(world.state) if score is not None else None
        last = me
        left = self.left   # the decisions the search may still play
        try:
            while True:
                pending = world.state.pending
                if pending is None or left <= 0:
                    break
                node_id, who, options = pending
                left -= 1
                if mine_only is not None and who != mine_only:
                    world.apply(below(rng, len(options)))
                    last = who
                    continue
                pairs = told[1] if told is not None and pending is told[0] else \
                    _offered_pairs(world.state, pending, labels, by_back)
                child, new, index = self._select(node, pairs, who, rng)
                world.apply(index)
                path.append(child)
                last = who
                if new:
                    break
                node = child
            steps = 0
            nxt = depth == NEXT
            # depth=turn: whoever chose last in the tree plays the rest of its run of decisions (its turn,
            # steps offered again, items picked one by one) one step ahead, not at random, and the position
            # is scored when another player is to choose: a point every such rollout shares (what a turn
            # holds in hand, in a purse, is counted the same way), without the noise of random moves
            run = path[-1].player if depth == TURN and path else None
            value = position_value(world.rs) if run is not None else None
            g = world.state
            while True:
                pending = g.pending
                if pending is None or steps == depth or left <= 0:
                    break
                who = pending[1]
                if nxt and who == me and last != me:
                    break   # back to the searcher: its next choice is scored, not played at random
                if run is not None:
                    if who != run:
                        break   # the chooser's run of decisions is over: a position comparable to others
                    if deadline is not None and deadline.over():
                        break   # the time is up: scored where it stands
                    world.apply(self._one_step(world, who, value, rng))
                    left -= len(pending[2])   # each option tried is about a step's work
                    continue
                world.apply(below(rng, len(pending[2])))
                last = who
                steps += 1
                left -= 1
                if deadline is not None and not steps & 31 and deadline.over():
                    break   # the time is up: scored where it stands
        except GameError:
            self.left = left
            return   # a world the rules cannot go on in (a guess inconsistent with them): not counted
        self.left = left
        rewards = self._rewards(world.state, score, start)
        for child in path:
            child.visits += 1
            child.total += rewards[child.player]

    def _flat(self, root, sample, me, keys: dict, labels, limit: int, deadline, told=None):
        """depth 0: the player's own options, each valued as greedy values it, in the same worlds (so that
        what a world deals is common to all options and their differences are sharper): iterations / options
        worlds (at least one), or worlds until the time is up; the best mean is played, ties broken at
        random. -> (the option's index, the options valued)."""
        rng = self.rng
        base = sample.base
        value = position_value(base.rs)
        children = []
        for k in keys:
            child = root.children[k] = _Node(me, k)
            children.append(child)
        worlds = max(1, limit // len(children)) if limit > 0 else 0
        done = dealt = 0
        while ((worlds == 0 or dealt < worlds) and (deadline is None or not deadline.over())
               and self.left > 0):
            world = sample.flat(rng)
            pending = world.state.pending
            offered = keys if told is not None and pending is told[0] else \
                _offered(world.state, pending, labels, base.rs.by_back)
            # an option this world does not offer is not valued in it
            tried = [(child, offered[child.key]) for child in children if child.key in offered]
            for n, (child, index) in enumerate(tried, 1):
                # the last one needs no copy of the world: it is not used after it
                self._value_once(child, world if n == len(tried) else world.clone(share_rng=True), index, value, me)
                done += 1
                self.left -= 1   # one option valued: a step (or a few) played
            dealt += 1
        valued = [c for c in children if c.visits]
        if not valued:
            return rng.randrange(base.option_count()), done
        best = max(valued, key=lambda c: (c.total / c.visits, rng.random()))
        return keys[best.key], done

    @staticmethod
    def _one_step(world, who: int, value, rng) -> int:
        """The option of the pending decision whose position one step ahead is worth most to its chooser
        (ties broken at random; a win or a loss where the game ends)."""
        options = world.state.pending[2]
        if len(options) == 1:
            return 0
        best, best_value = [], -math.inf
        for i in range(len(options)):
            trial = world.clone(share_rng=True)
            trial.probing = True
            try:
                trial.apply(i)
            except GameError:
                continue
            v = worth(trial.state, who, value)
            if v > best_value:
                best, best_value = [i], v
            elif v == best_value:
                best.append(i)
        return best[below(rng, len(best))] if best else below(rng, len(options))

    def _value_once(self, child, world, index: int, value, me) -> None:
        """One world's value of one of the player's own options (depth 0): option `index` taken in `world`,
        its own items picked at random, the others' choices of the same simultaneous decision passed (the
        world comes from engine/lookahead.determinize: their secret choices already made are forgotten, and
        it stops at the next decision without listing its options); the growth of value(state, player),
        kept as it is, or a win or a loss as greedy counts them when the game ended."""
        g = world.state
        node_id = g.pending[0]
        start = value(g, me)
        pick = world.rs.pick_node
        try:
            world.apply(index)
            while g.pending is not None and g.pending[1] == me and g.pending[0] == pick:
                world.apply(below(self.rng, len(g.pending[2])))   # its items, picked one at a time
            while g.pending is not None and g.pending[0] == node_id and g.pending[1] not in (me, -1):
                options = g.pending[2]   # another chooser of the same decision: passes (or takes its first)
                world.apply(len(options) - 1 if options[-1][0] == -1 else 0)
        except GameError:
            return   # a world the rules cannot go on in: not counted
        child.visits += 1
        if g.result is not None:
            child.total += WIN if me in g.result["winners"] else -WIN
        else:
            child.total += value(g, me) - start

    def _select(self, node, offered: list, who: int, rng):
        """The child of `node` to try among the options offered in this world (`_offered_pairs`): one not
        tried yet (at random), else the best by UCT; whether it is new; and the index of its option. Counts
        every offered child as available."""
        children = node.children
        untried = []
        tried = []   # the children offered, in the order offered, while none is untried
        for k, i in offered:
            child = children.get(k)
            if child is None:
                untried.append((k, i))
            else:
                child.avail += 1
                if not child.visits:
                    untried.append((k, i))   # added by an iteration that could not finish
                elif not untried:
                    tried.append((child, i))
        if untried:
            k, i = untried[rng.randrange(len(untried))]
            child = children.get(k)
            if child is None:
                child = children[k] = _Node(who, k)
                child.avail = 1
            return child, True, i
        c, sqrt, log = self.c, math.sqrt, math.log
        best, best_value, index = None, -1.0, -1
        for child, i in tried:
            visits = child.visits
            value = child.total / visits + c * sqrt(log(child.avail) / visits)
            if value > best_value:
                best, best_value, index = child, value, i
        return best, False, index

    def _rewards(self, g, score, start) -> list:
        """Each player's reward, 0 to 1, for a finished game or a position where the rollout stopped."""
        n = g.n
        result = g.result
        if result is None and score is None:
            return [1.0 / n] * n   # cut by the steps where nothing can score it: a draw
        if result is None:
            # each player's growth less the others' mean growth (with two players: the growth of its lead)
            grown = [v - s for v, s in zip(score(g), start)]
            total = sum(grown)
            if n == 1:
                return self._squash(grown, "cut")
            return self._squash([x - (total - x) / (n - 1) for x in grown], "cut")
        if self.reward == "margin":
            totals = [row["total"] for row in result["scores"]]
            return self._squash([lead(totals, p) for p in range(n)], "end")
        winners = result["winners"]
        if not winners:
            # nobody won: a draw between several players (a stalled game), a loss in a game played alone
            return [1.0 / n] * n if n > 1 else [0.0]
        out = [0.0] * n
        share = 1.0 / len(winners)
        for w in winners:
            out[w] = share
        return out

    def _squash(self, values: list, kind: str) -> list:
        """Numbers of any size -> rewards from 0 to 1 (0.5 for nothing gained): tanh of each value over the
        median absolute value (zeros left out) of its kind seen so far in this search. A median, not a
        mean: a rare huge value (a round won in a rollout) must not flatten every ordinary difference."""
        seen = self.spread.setdefault(kind, [[], 0.0, 0])   # absolute values, their median, when it was taken
        sizes = seen[0]
        sizes.extend(abs(v) for v in values if v)
        if not sizes:
            return [0.5] * len(values)
        if len(sizes) >= seen[2]:
            # sorting each time would cost more than the rest of an iteration: every eighth growth will do
            sizes.sort()
            seen[1] = sizes[len(sizes) // 2]
            seen[2] = len(sizes) + len(sizes) // 8 + 1
        scale = seen[1]
        return [0.5 + 0.5 * math.tanh(v / scale) for v in values]
