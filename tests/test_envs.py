"""The reinforcement-learning environments (interpreter/envs/, docs/rl.md): PettingZoo's own API and seed tests
for every bundled ruleset at its fewest and most players, long random play with the environment's promises
checked at every step, observations that do not change when what their player may not see changes (with the
disguise of tests/test_agents_leak.py), action indexes that mean what `describe` says, rewards of scripted
games, illegal actions, the Gymnasium wrapper against rulebook's bots, and the one-line message without the
extra."""
from __future__ import annotations

import random
import sys
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from interpreter import Game, GameError, RulebookError, load, load_text
from interpreter.envs import MissingExtra, rulebook_env, rulebook_gym
from interpreter.envs.actions import ActionLayout, Decision, relative_name
from interpreter.envs.domains import INT_CAP, Reader
from interpreter.envs.session import IllegalAction, Session
from interpreter.runtime.values import Card, Player
from helpers import ROOT, hidden_games, rules as loaded, shipped_rulesets
from test_agents_leak import disguised_fully, moments
from test_views_leak import TEST_PARAMS

# warnings PettingZoo's api_test gives every environment whose observation is a dict with an action mask
# (its own classic games are on a list that silences them)
DICT_OBSERVATION = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


def bundled_cases():
    for path in shipped_rulesets():
        rules = loaded(str(path))
        for n in sorted({rules.min_players, rules.max_players}):
            yield pytest.param(rules, n, id=f"{path.stem}-{n}p")


def smallest():
    for path in shipped_rulesets():
        yield pytest.param(loaded(str(path)), id=path.stem)


# PettingZoo's tests ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules,players", list(bundled_cases()))
def test_pettingzoo_api_test(rules, players):
    env = rulebook_env(rules, players)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=150)
    other = {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION)}
    assert other == set()


@pytest.mark.parametrize("rules,players", list(bundled_cases()))
def test_pettingzoo_seed_test(rules, players):
    seed_test(lambda: rulebook_env(rules, players), num_cycles=40)


# long random play --------------------------------------------------------------------------------------

STEPS = 2500


def check_vector(env, agent, obs):
    """Every zone's part of the vector holds what the agent's view shows of it."""
    session = env.session
    seat = env.agent_name_mapping[agent]
    view = session.view(seat)
    vector = obs["observation"]
    blocks = {name: (start, size) for name, start, size in session.observer.blocks}
    seats = session.observer.seats[seat]
    for name, member, r, faces, first, count, top, known in session.observer.zones:
        entry = view["zones"][name]
        entry = entry if r is None else entry[seats[r]]
        entry = entry if member is None else entry[member]
        if faces >= 0:
            assert vector[faces:faces + session.observer.faces].sum() == len(entry)
        if count >= 0:
            assert vector[count] == entry["count"]
    start, size = blocks["seat"]
    assert list(vector[start:start + size]).index(1) == seat


@pytest.mark.parametrize("rules", list(smallest()))
def test_random_play_keeps_every_promise(rules):
    """Thousands of random legal steps over successive games: the agent asked has a legal action for every
    option of the engine (none lost, each index taking an option of that decision), the others none; the
    labels are the engine's; the vector is what the view shows; rewards come only at the end."""
    players = rules.min_players
    env = rulebook_env(rules, players, params=TEST_PARAMS.get(rules.name))
    rng = np.random.default_rng(5)
    env.reset(seed=5)
    steps = games = 0
    while steps < STEPS:
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            session = env.session
            legal = np.flatnonzero(obs["action_mask"])
            positions = session.encoded.positions
            assert sorted(positions) == list(legal) and session.encoded.lost == 0
            assert sorted(positions.values()) == sorted(set(positions.values()))
            assert reward == 0
            if steps % 40 == 0:
                decision = session.game.decision
                assert dict(info["labels"]) == {i: decision.options[p] for i, p in positions.items()}
                assert env.observation_space(agent).contains(obs)
                check_vector(env, agent, obs)
                for other in env.agents:
                    if other != agent:
                        assert not env.observe(other)["action_mask"].any()
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if steps >= STEPS:
                break
        else:
            result = env.session.result
            games += 1
            rewards = env.session.rewards()
            if result["stalled"]:
                assert rewards == [0.0] * players
            else:
                assert sum(rewards) == pytest.approx(1.0 if result["winners"] else 0.0)
            env.reset()
            continue
        break
    assert steps == STEPS


def test_a_game_at_its_turn_limit_is_truncated():
    """The tutorial CuBirds stalls at its turn limit in random play: truncated, nobody rewarded."""
    env = rulebook_env("cubirds-pairs", 2)
    for seed in range(50):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                break
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        if env.session.result["stalled"]:
            break
    result = env.session.result
    assert result["stalled"] and "turn limit" in result["reason"]
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(env._cumulative_rewards[a] == 0 for a in env.agents)
    assert all(env.infos[a]["result"] is result for a in env.agents)


def test_max_steps_truncates():
    env = rulebook_env("pit", 4, max_steps=30)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    assert steps == 30 and env.agents == []
    assert not env.session.over


# observations leak nothing -----------------------------------------------------------------------------

def observed(session, game, seat):
    """What `seat` is given when `game` is at its decision: the vector, the mask, and (if asked) the labels."""
    session.game = game
    session._asked()
    obs = session.observation(seat)
    labels = dict(session.info()["labels"]) if session.chooser == seat else None
    return obs["observation"].copy(), obs["action_mask"].copy(), labels


def leak_cases():
    for path in shipped_rulesets() + hidden_games():
        yield pytest.param(loaded(str(path)), id=path.stem)


@pytest.mark.parametrize("rules", list(leak_cases()))
def test_an_observation_does_not_change_when_what_its_player_may_not_see_changes(rules):
    """At moments of random games, every player's vector, action mask and labels are the same in a copy of the
    game where the cards it may not see have taken each other's identities (everywhere the game refers to
    them, its options included) and the values hidden from it are others."""
    players = rules.min_players
    mine, theirs = Session(rules, players, TEST_PARAMS.get(rules.name)), Session(rules, players, TEST_PARAMS.get(rules.name))
    rng = random.Random(7)
    checked = changed = 0
    for game in moments(rules, players, seed=3):
        for seat in range(players):
            other = disguised_fully(game, seat, rng)
            a, b = observed(mine, game, seat), observed(theirs, other, seat)
            assert np.array_equal(a[0], b[0]), f"P{seat + 1}, turn {game.state.turn}"
            assert np.array_equal(a[1], b[1]) and a[2] == b[2], f"P{seat + 1}, turn {game.state.turn}"
            changed += other.state.zones != game.state.zones
            checked += 1
    assert checked >= 4 * players
    if rules.name in ("cubirds", "pit", "forehead-poker", "guess-card", "souk"):
        assert changed   # the disguise changed some hidden card


def test_the_check_catches_a_mask_that_numbers_unseen_cards_by_face(monkeypatch):
    """In the guessing game, P1 takes one of two cards it cannot see: numbered by face (as if seen), the mask
    tells which card is blue; the check above sees the difference."""
    monkeypatch.setattr(Decision, "card", lambda self, c: self.face[c])
    rules = load(str(next(p for p in hidden_games() if p.stem == "guess-card")))
    session, other_session = Session(rules, 2), Session(rules, 2)
    rng = random.Random(1)
    differs = 0
    for seed in range(20):
        game = Game.new(rules, 2, seed=seed, record=False)
        seat = game.current_player
        a = observed(session, game, seat)
        b = observed(other_session, disguised_fully(game, seat, rng), seat)
        differs += not np.array_equal(a[1], b[1])
    assert differs > 0


def test_the_check_catches_a_vector_that_counts_another_hand():
    """A vector that counted the faces in the next player's hand (read from the state, as a hand-written
    environment might) would differ between the game and its disguise."""
    rules = load("forehead-poker")
    rng = random.Random(2)
    differs = 0
    for game in moments(rules, 3, seed=1):
        seat = game.current_player

        def leaky(g):
            hand = g.state.zones[g.rs.zone_slot("hand", 3, (seat + 1) % 3)]
            return sorted(g.rs.faces[c] for c in hand)
        differs += leaky(game) != leaky(disguised_fully(game, seat, rng))
    assert differs > 0


# what an index means --------------------------------------------------------------------------------------

def meaning(layout, game, option) -> str:
    """An option in words, as `describe` words its index, worked out here from the option's values."""
    g = game.state
    node_id, me, _ = g.pending
    i, args = option
    if i == -1:
        return "pass"
    if i == -2:
        return "done"
    picking = layout.picking(game)
    node = game.rs.nodes[node_id]
    if picking is not None:
        choice, j = picking
        kind = layout.pick_kinds[(id(choice), j)]
        names = [choice.subsets[j].name]
    else:
        kind = layout.node_kinds[node_id][i]
        choice = node.choice_of(i)
        names = choice.arg_names
    seen = layout_seen(game, me)

    def word(v):
        if type(v) is Player:
            return relative_name((v - me) % g.n)
        if type(v) is Card:
            return game.rs.card_labels[v] if v in seen else None
        if type(v) is list and v and type(v[0]) is Card:
            if not all(c in seen for c in v):
                return None
            lowest = min(v, key=lambda c: game.rs.faces[c])
            return f"cards from {game.rs.card_labels[lowest]} up"
        if type(v) is bool:
            return "true" if v else "false"
        if type(v) is list:
            return "[" + ", ".join(word(x) for x in v) + "]"
        return "none" if v is None else str(v)
    words = [word(v) for v in args]
    if None in words:
        return None   # a card it cannot see: told by its place, checked by the leak test
    return kind.name + ("" if not names else " " + ", ".join(f"{n}={w}" for n, w in zip(names, words)))


def layout_seen(game, me):
    from interpreter.engine.view import seen_cards
    return seen_cards(game.state, me) | game.rs.by_back


@pytest.mark.parametrize("rules", list(smallest()))
def test_an_index_means_what_describe_says(rules):
    """At every decision of random games, each option's index reads (describe) as the option itself: its
    action, the chooser-relative player, the card's face, the lowest face of a group, the number or text."""
    players = rules.min_players
    session = Session(rules, players, TEST_PARAMS.get(rules.name))
    layout = session.actions
    checked = 0
    for seed in range(3):
        session.start(seed)
        rng = random.Random(seed)
        for _ in range(150):
            if session.over:
                break
            options = session.game.state.pending[2]
            for index, position in session.encoded.positions.items():
                if index >= layout.overflow_at:
                    continue
                expected = meaning(layout, session.game, options[position])
                if expected is not None:
                    assert layout.describe(index) == expected
                    checked += 1
            session.apply(rng.choice(session.legal()))
    assert checked > 50


def test_the_numbering_depends_only_on_the_ruleset_and_the_player_count():
    a, b = ActionLayout(load("souk"), 3, load("souk").resolve_params(3, {})), rulebook_env("souk", 3).session.actions
    assert a.size == b.size and [a.describe(i) for i in range(a.size)] == [b.describe(i) for i in range(b.size)]
    assert rulebook_env("souk", 2).session.size != b.size   # relative seats: one more player, more indexes


DOMAINS = """
name: domains
players: {min: 2, max: 3}
parameters: {most: 4, goods: [tin, oil]}
components:
  card:
    label: "{colour} {value}"
    in: deck
    cards:
      - {colour: red, value: 1}
      - {colour: red, value: 2}
      - {colour: blue, value: 1}
zones:
  deck: {visibility: hidden}
  row: {count: 3}
  hand: {per_player: true, visibility: owner}
  stall: {per_player: true, keys: [gold, salt]}
functions:
  each_one: {args: [cards], value: 'map(groups(cards, colour), first(it))'}
actions:
  go:
    do: []
flow:
  round:
    turn:
      steps: [go]
"""

DOMAIN_VALUES = [
    ("range(3)", dict(ints=3)),
    ("range(count(row))", dict(ints=3)),
    ("range(1, most + 1)", dict(ints=5)),
    ("[count(me.hand)]", dict(ints=INT_CAP)),
    ('["left", "right"]', dict(consts={"left", "right"})),
    ("keys(stall)", dict(consts={"gold", "salt"})),
    ("goods", dict(consts={"tin", "oil"})),
    ("sort(distinct(me.hand.colour))", dict(consts={"red", "blue"})),
    ('distinct(me.hand.colour) + ["none of them"]', dict(consts={"red", "blue", "none of them"})),
    ('[[], ["a"], ["a", "b"]]', dict(consts={(), ("a",), ("a", "b")})),
    ("others(me)", dict(players=True)),
    ("me.hand", dict(cards=True)),
    ("each_one(me.hand)", dict(cards=True)),
    ("groups(me.hand, colour)", dict(lists=True)),
    ("combinations(me.hand, 2) where count(it) > 1", dict(lists=True)),
]


@pytest.mark.parametrize("text,expected", DOMAIN_VALUES, ids=[t for t, _ in DOMAIN_VALUES])
def test_a_domain_reads_as_the_values_it_can_give(text, expected):
    rules = load_text(DOMAINS)
    params = rules.resolve_params(2, {})
    fn = rules.expression(text)
    values = Reader(rules, rules.layout(2, params), params).domain(fn, fn.kind)
    found = {k: getattr(values, k) for k in ("players", "cards", "lists", "ints", "consts")}
    wanted = {"players": False, "cards": False, "lists": False, "ints": 0, "consts": set(), **expected}
    assert found == wanted


# rewards -------------------------------------------------------------------------------------------------

RACE = """
name: draw-race
players: {min: 2, max: 3}
components:
  card:
    label: "{value}"
    in: deck
    cards: [VALUES]
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
actions:
  take:
    label: "take one"
    do:
      - move: {from: deck, to: me.hand}
  take_two:
    when: count(deck) >= 2
    label: "take two"
    do:
      - move: {from: deck, to: me.hand, count: 2}
flow:
  ends:
    - when: count(deck) == 0
      reason: the deck is empty
  round:
    turn:
      steps:
        - {name: draw, actions: [take, take_two]}
scoring:
  parts:
    points: sum(me.hand.value)
"""


def race(values):
    """A game without chance: the players take the top one or two cards in turn; the most points win."""
    return load_text(RACE.replace("VALUES", ", ".join(f"{{value: {v}}}" for v in values)))


def play_out(env, actions):
    """Play the named actions in order; the cumulative reward of every agent at the end."""
    for name in actions:
        env.step([i for i in range(env.session.size) if env.describe(i) == name][0])
    return {a: env._cumulative_rewards[a] for a in env.agents}


RACES = [
    # values on the deck from the top, players, reward, the actions in turn, each seat's reward
    ([1, 2, 3, 4], 2, "win", ["take_two", "take_two"], [0.0, 1.0]),
    ([1, 2, 3, 4], 2, "win", ["take", "take", "take_two"], [1.0, 0.0]),
    ([1, 2, 3, 4], 2, "margin", ["take_two", "take_two"], [-4.0, 4.0]),
    ([1, 2, 3, 4], 2, "margin", ["take", "take", "take", "take"], [-2.0, 2.0]),
    ([2, 1, 1, 2], 2, "win", ["take_two", "take_two"], [0.5, 0.5]),
    ([3, 1, 1, 2], 3, "win", ["take", "take", "take_two"], [0.5, 0.0, 0.5]),
    ([3, 1, 1, 2], 3, "margin", ["take", "take", "take_two"], [0.0, -2.0, 0.0]),
]


@pytest.mark.parametrize("values,players,reward,actions,expected", RACES)
def test_rewards_of_a_scripted_game(values, players, reward, actions, expected):
    env = rulebook_env(race(values), players, reward=reward)
    env.reset(seed=0)
    got = play_out(env, actions)
    assert env.session.over and all(env.terminations.values())
    assert got == {f"player_{p}": r for p, r in enumerate(expected)}


# illegal actions ---------------------------------------------------------------------------------------

def test_an_illegal_action_raises_and_changes_nothing():
    env = rulebook_env("cubirds", 2)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.session.game.to_json()
    with pytest.raises(IllegalAction) as caught:
        env.step(illegal)
    assert isinstance(caught.value, RulebookError)
    assert f"action {illegal} (" in str(caught.value) and "the legal actions are" in str(caught.value)
    for bad in (env.session.size, -1, 2.5, "0", None, True):
        with pytest.raises(IllegalAction):
            env.step(bad)
    assert env.session.game.to_json() == before and env.agent_selection == agent
    env.step(int(np.flatnonzero(mask)[0]))   # and the game goes on from where it was
    assert len(env.session.game.state.history) == 1


def test_an_illegal_action_with_a_penalty_ends_the_game():
    env = rulebook_env("cubirds", 2, illegal="penalty", illegal_reward=-2)
    env.reset(seed=3)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    before = env.session.game.to_json()
    env.step(illegal)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env._cumulative_rewards == {agent: -2.0, [a for a in env.agents if a != agent][0]: 0.0}
    assert "is not legal now" in env.infos[agent]["illegal"]
    assert env.session.game.to_json() == before
    while env.agents:
        env.step(None)


def test_bad_settings_are_refused_with_a_message():
    for kwargs, words in [({"players": 9}, "for 2 to 5 players"), ({"reward": "points"}, "reward is one of"),
                          ({"illegal": "ignore"}, "illegal is one of"), ({"max_steps": 0}, "max_steps"),
                          ({"params": {"species_to_wn": 3}}, "species_to_wn"), ({"render_mode": "rgb"}, "render_mode")]:
        with pytest.raises(GameError, match=words):
            rulebook_env("cubirds", **kwargs)


# the Gymnasium wrapper ---------------------------------------------------------------------------------------

def test_the_gymnasium_wrapper_passes_gymnasiums_checker():
    env = rulebook_gym("lanterns", 2, opponents="random", illegal="penalty")   # its checker ignores the mask
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # gymnasium's notes on infinite bounds of the variables
        check_env(env, skip_render_check=True)


def test_the_learner_plays_its_seat_against_the_bots_and_is_rewarded_at_the_end():
    env = rulebook_gym("cubirds", 3, opponents=["greedy", "random"], seat="random")
    seats = set()
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        seats.add(env.seat)
        rng = np.random.default_rng(seed)
        total, done = 0.0, False
        while not done:
            assert env.session.chooser == env.seat and info["player"] == f"P{env.seat + 1}"
            assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            total += reward
            done = terminated or truncated
        assert total == env.session.rewards()[env.seat] and "result" in info
    assert len(seats) > 1


def test_the_wrapper_reproduces_an_episode_from_its_seed():
    def episode(seed):
        env = rulebook_gym("forehead-poker", 3, opponents="greedy")
        obs, _ = env.reset(seed=seed)
        trace, done = [obs["observation"]], False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, _ = env.step(int(legal[0]))
            trace.append(obs["observation"])
            done = terminated or truncated
        return trace, reward
    a, b = episode(4), episode(4)
    assert len(a[0]) == len(b[0]) and all(np.array_equal(x, y) for x, y in zip(a[0], b[0])) and a[1] == b[1]


def test_the_wrapper_refuses_what_cannot_play():
    with pytest.raises(GameError, match="a human cannot sit"):
        rulebook_gym("cubirds", 2, opponents="human")
    with pytest.raises(GameError, match="2 agents for 1 other seats"):
        rulebook_gym("cubirds", 2, opponents=["random", "random"])
    with pytest.raises(GameError, match="unknown agent"):
        rulebook_gym("cubirds", 2, opponents="randm")
    with pytest.raises(GameError, match="seat is 0 to 1"):
        rulebook_gym("cubirds", 2, seat=2)


# the extra, rendering ----------------------------------------------------------------------------------------

def test_without_the_extra_one_line_says_what_to_install(monkeypatch):
    for name in [m for m in sys.modules if m.startswith("interpreter.envs.") and m != "interpreter.envs.domains"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)   # as if it were not installed
    for make in (rulebook_env, rulebook_gym):
        with pytest.raises(MissingExtra) as caught:
            make("cubirds", 2)
        assert str(caught.value) == "the reinforcement-learning environments need the rl extra: pip install 'rulebook[rl]'"
        assert isinstance(caught.value, ImportError) and isinstance(caught.value, RulebookError)


def test_the_labels_are_the_engines_and_are_made_when_read():
    env = rulebook_env("cubirds", 2)
    env.reset(seed=2)
    info = env.infos[env.agent_selection]
    decision = env.session.game.decision
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    assert info["labels"]._labels is None and len(info["labels"]) == len(legal)   # nothing made yet
    env.step(int(legal[-1]))   # the game moves on; the labels are those of the decision they were given at
    assert list(info["labels"]) == list(legal) and info["labels"].prompt == decision.prompt
    assert sorted(info["labels"].values()) == sorted(decision.options)
    assert rulebook_env("cubirds", 2, labels=False).session.labels is False


def test_the_example_trains_and_judges(capsys):
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import train_linear
    finally:
        sys.path.remove(str(ROOT / "examples"))
    train_linear.main(["--ruleset", "lanterns", "--episodes", "20", "--eval", "10"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "lanterns, 2 players, against random: 146 actions, observations of 161 numbers"
    assert lines[1].startswith("  trained on 20 games: won ")
    assert lines[2].startswith("  trained: won ") and " of 10 games, " in lines[2] and "95% interval" in lines[2]
    assert lines[3].startswith("untrained: won ") and lines[4].startswith("the trained agent ")


def test_render_shows_the_table_to_an_onlooker_and_who_is_asked():
    env = rulebook_env("cubirds", 2, render_mode="ansi")
    env.reset(seed=1)
    lines = env.render().splitlines()
    assert lines[0] == "round 1, turn 1 - P2 to play (as every player sees it)"
    assert "  hand: P1: 8 cards; P2: 8 cards" in lines and lines[-1] == "P2 to choose: lay birds"
