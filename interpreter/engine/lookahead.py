"""One step of lookahead for bots: a game + a player -> the value of each option in a world the player
could believe in (cards they cannot see are dealt again at random), so no hidden card leaks."""
from __future__ import annotations

WIN = 10 ** 9


def determinize(game, player: int, rng):
    """A clone in which every card `player` cannot see is shuffled among the places they cannot see.

    Zone sizes stay as they are; cards out of the game (visibility hidden) stay put; so do other
    players' choices already made in a simultaneous decision, which are replaced by passing."""
    world = game.clone()
    world.record = False
    world.probing = True
    rs, g = world.rs, world.state
    slots = []
    for z in rs.zones.values():
        if z.visibility in ("public", "hidden"):
            continue
        if z.per_player:
            for p in range(g.n):
                if not (z.visibility == "owner" and p == player):
                    slots.append((rs.fixed_slots + z.index * g.n + p, 0))
        else:
            keep = 1 if z.visibility == "top" else 0
            slots.extend((z.slot + i, keep) for i in range(z.count or 1))
    pool = [c for s, keep in slots for c in g.zones[s][keep:]]
    rng.shuffle(pool)
    at = 0
    for s, keep in slots:
        zone = g.zones[s]
        k = len(zone) - keep
        zone[keep:] = pool[at:at + k]
        at += k
    _forget_other_commitments(world, player)
    return world


def _pass_of(options):
    return tuple(options[-1]) if options[-1][0] == -1 else tuple(options[0])


def _forget_other_commitments(world, player: int) -> None:
    """In a simultaneous decision, others' choices are secret: in this world every other chooser
    passes (or takes their first option), and `player` chooses last, so that a trial resolves at once."""
    g = world.state
    if g.pending is None or not g.stack:
        return
    top = g.stack[-1]
    data = top[4]
    if top[0] == () and isinstance(data, dict) and "chosen" in data:
        others = [q for q in data["queue"] if q[0] != player]
        mine = [q for q in data["queue"] if q[0] == player]
        data["queue"] = others + mine
        data["chosen"] = [(q[0], _pass_of(q[1])) for q in others]


def _settle(world, node_id: int, player: int) -> None:
    """After my choice: the other choosers of the same simultaneous decision pass, so it resolves."""
    g = world.state
    while g.pending is not None and g.pending[0] == node_id and g.pending[1] not in (player, -1):
        options = g.pending[2]
        world.apply(len(options) - 1 if options[-1][0] == -1 else 0)


MAX_TRIALS = 8


def option_values(game, player: int, rng, max_trials: int = MAX_TRIALS) -> dict:
    """The ruleset's evaluation for `player` after each option, in one determinized world.

    With many options, a random sample of `max_trials` of them is tried (keeps bots fast in
    games with large choices); the result maps option index -> value."""
    evaluate = game.rs.evaluate
    world = determinize(game, player, rng)
    world.state.rng = rng   # the game's own generator state is hidden too: trials draw from the bot's
    node_id = world.state.pending[0]
    count = world.option_count()
    indexes = range(count) if count <= max_trials else sorted(rng.sample(range(count), max_trials))
    values = {}
    for i in indexes:
        trial = world.clone(share_rng=True)
        trial.apply(i)
        _settle(trial, node_id, player)
        result = trial.state.result
        if result is not None:
            values[i] = WIN if player in result["winners"] else -WIN
        else:
            values[i] = evaluate(trial.state, {"me": player}, None)
    return values
