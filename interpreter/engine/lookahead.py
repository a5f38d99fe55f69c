"""One step of lookahead for bots: a game + a player -> the value of each option in a world the player
could believe in (cards they cannot see are dealt again at random), so no hidden card leaks."""
from __future__ import annotations

from .values import Card

WIN = 10 ** 9


def determinize(game, player: int, rng):
    """A clone in which every card `player` cannot see is shuffled among the places they cannot see.

    Zone sizes stay as they are; cards out of sight entirely (a zone shown as nothing) stay put, and
    so do cards the player was shown (reveals) or sees (the top card of a `top` zone). Variables the
    player may not see take their starting values. Other players' choices already made in a
    simultaneous decision are replaced by passing. The world draws its random outcomes from `rng`:
    the game's own generator is hidden too (and is not copied)."""
    world = game.clone(share_rng=True)
    world.state.rng = rng
    world.record = False
    # a world is never replayed nor shown: its trials need not copy the game's history and log
    world.state.history, world.state.log, world.state.events = [], [], []
    world.probing = True
    rs, g = world.rs, world.state
    known = g.known
    holes = []   # (slot, position) of every card the player cannot see, but for zones shown as nothing
    unseen = []  # ... and the cards of those zones
    for z in rs.zones.values():
        for slot, owner, _ in g.layout.slots(z):
            level = z.level(player, owner)
            cards = g.zones[slot]
            if level == "none":
                unseen.extend(c for c in cards if player not in known.get(c, ()))
            if level in ("cards", "none"):
                continue
            for i in range(1 if level == "top" else 0, len(cards)):
                if player not in known.get(cards[i], ()):
                    holes.append((slot, i))
    # first, so that the others' options (many, in a simultaneous decision) are not relabeled in vain
    _forget_other_commitments(world, player)
    before = [g.zones[s][i] for s, i in holes]
    unseen.extend(before)
    pool = before[:]
    rng.shuffle(pool)
    for (s, i), c in zip(holes, pool):
        g.zones[s][i] = c
    # The card at a place is imagined to be another: wherever the game refers to a card it cannot see
    # (a variable, a name of an effect in progress), the bot sees the card imagined at that place; and
    # values everyone sees on the cards' backs stay where they lie.
    _relabel(world, dict(zip(before, pool)))
    _hide_values(world, player, unseen)
    return world


def _relabel(world, sigma: dict) -> None:
    """Give every card of `sigma` its new identity in variables, card variables and effects in progress."""
    if not sigma:
        return
    g = world.state

    deep = (list, tuple, dict)

    def swap(v):
        # one call per container, not per item: the options of a simultaneous decision are many
        t = type(v)
        if t is Card:
            return sigma.get(v, v)
        if t is list or t is tuple:
            out = [sigma.get(x, x) if type(x) is Card else swap(x) if type(x) in deep else x for x in v]
            return out if t is list else tuple(out)
        if t is dict:
            return {k: sigma.get(x, x) if type(x) is Card else swap(x) if type(x) in deep else x
                    for k, x in v.items()}
        return v

    g.vars = {k: swap(v) for k, v in g.vars.items()}
    g.pvars = {k: [swap(x) for x in v] for k, v in g.pvars.items()}
    for name, table in g.cvars.items():
        old = table[:]
        for c, new in sigma.items():
            table[new] = swap(old[c])
    envs = {}
    for frame in g.stack:
        env = frame[2]
        if id(env) not in envs:
            envs[id(env)] = {k: swap(v) for k, v in env.items()}
        frame[2] = envs[id(env)]
        frame[4] = swap(frame[4])


def _hide_values(world, player: int, unseen) -> None:
    """Variables hidden from `player` get their starting values (and so do the variables of the cards
    it cannot see): the bot cannot read them."""
    rs, g = world.rs, world.state
    for name, spec in rs.var_specs.items():
        if spec.visible == "public":
            continue
        if spec.per_player:
            table = g.pvars[name]
            for p in range(g.n):
                if spec.visible == "nobody" or p != player:
                    table[p] = list(spec.value) if type(spec.value) is list else spec.value
        else:
            g.vars[name] = list(spec.value) if type(spec.value) is list else spec.value
    for name, spec in rs.card_vars.items():
        if spec.visible == "public":
            continue
        values = g.cvars[name]
        for c in unseen:
            values[c] = list(spec.value) if type(spec.value) is list else spec.value


def _pass_of(options):
    return tuple(options[-1]) if options[-1][0] == -1 else tuple(options[0])


def _forget_other_commitments(world, player: int) -> None:
    """In a simultaneous decision, others' choices are secret: in this world every other chooser
    passes (or takes their first option), and `player` chooses last, so that a trial resolves at once.
    Each other chooser is left only the option they take: nothing else reads the others' lists here."""
    g = world.state
    if g.pending is None or not g.stack:
        return
    top = g.stack[-1]
    data = top[4]
    if top[0] == () and isinstance(data, dict) and "chosen" in data:
        others = [(q[0], _pass_of(q[1])) for q in data["queue"] if q[0] != player]
        mine = [q for q in data["queue"] if q[0] == player]
        data["queue"] = [(p, (option,)) for p, option in others] + mine
        data["chosen"] = others


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
    world = determinize(game, player, rng)   # trials draw from the bot's generator
    node_id = world.state.pending[0]
    count = world.option_count()
    indexes = range(count) if count <= max_trials else sorted(rng.sample(range(count), max_trials))
    values = {}
    pick = game.rs.pick_node
    for i in indexes:
        trial = world.clone(share_rng=True)
        trial.apply(i)
        while trial.state.pending is not None and trial.state.pending[0] == pick and trial.state.pending[1] == player:
            trial.apply(rng.randrange(trial.option_count()))   # several items: a random completion
        _settle(trial, node_id, player)
        result = trial.state.result
        if result is not None:
            values[i] = WIN if player in result["winners"] else -WIN
        else:
            values[i] = evaluate(trial.state, {"me": player}, None)
    return values
