"""Worlds consistent with what a player saw: a game + a player -> copies of the game at the same decision,
replayed from a new deal along the real history so that the player is shown, step by step, exactly what
it was really shown.

Dealing what a player cannot see again at random (engine/lookahead.py) forgets how the game got here: a
host who opened the one door without the car, an opponent who laid three owls (so held them), a chip
count set by a hidden choice. Here a world starts from the game just after its setup, with the cards
the player could not see dealt again and the values hidden from it drawn from another setup, and plays
the real history again with a generator of its own:

- the player's own choices are the options it took, found by their labels as it read them;
- another player's choice is one of that player's options in this world, tried in random order, that
  leaves the player's view as it really was after it (uniform over the choices consistent with what the
  player saw: the others' minds are not modelled);
- a random draw of the rules is the world's own, kept only if the player's view is still as it was.

A world that cannot follow the history (no option matches, or a draw showed something else) is dropped
and another is started: this is rejection sampling, and the worlds kept are drawn from the player's
belief given everything it observed. It costs a replay of the game per world, so it is bounded: it stops
after GIVE_UP worlds in a row failed before any followed the history (where a fresh deal almost never
agrees with what was seen later: cards shown at a showdown, trades between hands), and at most
BUDGET choices applied for one decision in all, and a game whose history is too long for a world
within that budget (more than half of it), or that cannot be replayed from its seed (a position arranged by a tool or a test),
gets no consistent world; the bots then deal worlds from the current view alone (the documented
fallback, docs/agents.md).
"""
from __future__ import annotations

import random

from ..errors import GameError
from .view import observation

BUDGET = 300         # choices applied (worlds tried and the replay of what the player saw) per decision
WORLDS = 80          # consistent worlds made per decision at most
GIVE_UP = 6          # worlds that could not follow the history, none having followed it: no more tries


def observed(game, player: int):
    """What `player` saw along the real history -> (the chooser of each choice; what the player was shown
    before each choice and now (`view.observation`); for each of its own choices the label it read, and
    for each other choice that was not secret the line it read of it), or None when the game cannot be
    replayed from its seed (the replay does not end where the game stands)."""
    g = game.state
    if g.redeals:
        return None   # cards dealt again by an undo: the seed does not replay it (bots deal from the view)
    history = g.history
    replay = type(game)._start(game.rs, g.n, g.seed, g.params, False)
    replay.probing = False
    rs = game.rs
    choosers, views, own = [], [observation(replay.state, player, rs)], {}
    try:
        for k, index in enumerate(history):
            pending = replay.state.pending
            if pending is None or not 0 <= index < len(pending[2]):
                return None
            choosers.append(pending[1])
            if pending[1] == player:
                own[k] = replay.decision.options[index]
            elif not replay.rs.nodes[pending[0]].secret:
                own[k] = read_as(replay, player, pending, index)   # the line the player read of it
            replay.apply(index)
            views.append(observation(replay.state, player, rs))
    except GameError:
        return None
    now = replay.state.pending
    if replay.view(player, ids=True) != game.view(player, ids=True) or (now is None) != (g.pending is None) or \
            now is not None and (now[:2] != g.pending[:2] or len(now[2]) != len(g.pending[2])):
        return None   # (what the pending options name is not compared: the player may not see it)
    return choosers, views, own


def read_as(game, player: int, pending, index: int) -> str:
    """Another player's option as `player` reads it in the log: its label, with each card the player
    cannot see where it lies written "a card" (what the log tells of it, present/log.py)."""
    node = game.rs.nodes[pending[0]]
    with game.told(player, "a card"):
        return node.label(game, game.state, pending[1], pending[2][index])


def consistent_worlds(game, player: int, rng, deal, wanted: int = WORLDS, budget: int = BUDGET) -> list:
    """Up to `wanted` worlds at the game's decision, each consistent with everything `player` observed
    (see the module's text); [] when none could be made within `budget` choices applied. `deal(world,
    player, rng)` deals again what the player cannot see in the game just after setup (lookahead's)."""
    if game.state.pending is None or not isinstance(player, int) or not 0 <= player < game.state.n:
        return []
    if 2 * len(game.state.history) > budget:
        return []   # the replay of what it saw and one world would spend the budget
    seen = observed(game, player)
    if seen is None:
        return []
    choosers, views, own = seen
    history = game.state.history
    spent = len(history)
    g = game.state
    start = type(game)._start(game.rs, g.n, g.seed, g.params, False)
    worlds, failed = [], 0
    while len(worlds) < wanted and spent + len(history) <= budget and (worlds or failed < GIVE_UP):
        world = start.clone()
        world.record = False
        world.probing = False
        deal(world, player, rng)
        world.state.rng = random.Random(rng.getrandbits(64))
        if observation(world.state, player, world.rs) != views[0]:
            spent += 1
            failed += 1
            continue   # the values hidden from it were drawn in a way its view shows: try again
        world, used = _follow(world, player, rng, choosers, views, own, budget - spent)
        spent += used
        if world is not None:
            worlds.append(world)
        elif used == 0:
            break
        else:
            failed += 1
    return worlds


def _follow(world, player, rng, choosers, views, own, budget):
    """Replay the history in `world` -> (the world at its end, or None where it could not follow, and the
    choices applied). A depth-first search: each step's candidates in random order, and where a later
    step cannot be followed (a secret offer that the trade it made later contradicts), the search goes
    back to the latest step with candidates left."""
    used = 0
    steps = []      # per step reached: (the world before it, its candidates not tried yet)
    current = world
    while len(steps) <= len(choosers):
        k = len(steps)
        if k == len(choosers):
            return current, used
        steps.append((current, _candidates(current, player, rng, choosers[k], k, own)))
        while True:
            before, left = steps[-1]
            k = len(steps) - 1
            found = None
            while left:
                if used >= budget:
                    return None, used
                trial = before.clone()
                used += 1
                try:
                    trial.apply(left.pop())
                except GameError:
                    continue
                if observation(trial.state, player, trial.rs) == views[k + 1]:
                    found = trial
                    break
            if found is not None:
                current = found
                break
            steps.pop()   # nothing left here: back to the step before
            if not steps:
                return None, used
    return current, used


def _candidates(world, player, rng, who, k, own) -> list:
    """The options of step k to try in `world`, the last first: the one the player took (by its label),
    or the chooser's options in random order (only those that read as the player read the choice, when
    it was not secret); [] where the world is not at that chooser's decision."""
    pending = world.state.pending
    if pending is None or pending[1] != who:
        return []
    if who == player:
        labels = world.decision.options
        return [labels.index(own[k])] if own[k] in labels else []
    candidates = list(range(len(pending[2])))
    rng.shuffle(candidates)
    if k in own:   # a choice the player read (not secret): only the options that read the same
        candidates = [i for i in candidates if read_as(world, player, pending, i) == own[k]]
    return candidates
