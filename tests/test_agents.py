"""Agents: specs and their errors, user agents behind the view-and-options protocol, the honest greedy
agent, the mcts agent's search (it finds wins, plays simultaneous decisions, is reproducible), rewards."""
from __future__ import annotations

import math
import random
import sys

import pytest

from interpreter import Game, GameError, load, load_text
from interpreter.agents import (AgentSpecError, agent_problem, GreedyAgent, MctsAgent, RandomAgent, Request, UserAgent,
                                make_agent, parse_spec, play)
from interpreter.agents.mcts import _offered
from interpreter.engine.lookahead import Sampler, _simultaneous_frame, position_value

# specs ---------------------------------------------------------------------------------------------------

SPECS = [
    ("random", "random", ()),
    ("mcts", "mcts", ()),
    ("mcts:iterations=400", "mcts", (("iterations", 400),)),
    ("mcts:depth=next:opponents=tree", "mcts", (("depth", "next"), ("opponents", "tree"))),
    ("mcts:iterations=0:time=0.5:c=1.2:depth=8:reward=margin", "mcts",
     (("iterations", 0), ("time", 0.5), ("c", 1.2), ("depth", 8), ("reward", "margin"))),
    (" greedy : trials=4 : worlds = 3 ", "greedy", (("trials", 4), ("worlds", 3))),
    ("my_bots:Keen", "my_bots:Keen", ()),
    ("pkg.bots:Keen:word=fly:n=3:on=true", "pkg.bots:Keen", (("word", "fly"), ("n", 3), ("on", True))),
]


@pytest.mark.parametrize("text,name,options", SPECS, ids=[s[0] for s in SPECS])
def test_a_spec_names_an_agent_and_its_settings(text, name, options):
    spec = parse_spec(text)
    assert (spec.name, spec.options, spec.user) == (name, options, ":" in name)


SPEC_ERRORS = [
    ("randm", "unknown agent 'randm' (agents: random, first, greedy, mcts, human, or module:ClassName); "
              "did you mean 'random'?"),
    ("", "'' names no agent (agents: random, first, greedy, mcts, human, or module:ClassName)"),
    ("mcts:iter=5", "agent 'mcts' has no setting 'iter' (it takes iterations, time, cap, steps, c, depth, reward, opponents, "
                    "belief)"),
    ("mcts:dpth=5", "agent 'mcts' has no setting 'dpth' (it takes iterations, time, cap, steps, c, depth, reward, "
                    "opponents, belief); "
                    "did you mean 'depth'?"),
    ("random:depth=3", "agent 'random' has no setting 'depth' (it takes none)"),
    ("mcts:iterations=x", "mcts's 'iterations' must be a whole number, not 'x'"),
    ("mcts:iterations=-1", "mcts's 'iterations' must be a number of at least 0, not '-1'"),
    ("mcts:iterations=0:steps=0", "mcts with iterations=0 and steps=0 (no limits) needs a time per decision: "
                                  "mcts:iterations=0:steps=0:time=SECONDS"),
    ("mcts:time=soon", "mcts's 'time' must be a number, not 'soon'"),
    ("mcts:c=nan", "mcts's 'c' must be a finite number, not 'nan'"),
    ("mcts:depth=-2", "mcts's 'depth' must be a number of at least -1, not '-2'"),
    ("mcts:depth=deep", "mcts's 'depth' must be a whole number, not 'deep'"),
    ("mcts:reward=score", "mcts's 'reward' must be one of win, margin, not 'score'"),
    ("mcts:opponents=some", "mcts's 'opponents' must be one of auto, tree, rollout, not 'some'"),
    ("greedy:trials=0", "greedy's 'trials' must be a number of at least 1, not '0'"),
    ("greedy:by=best", "greedy's 'by' must be one of auto, evaluate, score, not 'best'"),
    ("mcts:iterations", "'iterations' in 'mcts:iterations' is not key=value (settings follow the agent's name: "
                        "NAME:key=value:key=value)"),
    ("mcts:iterations=1:iterations=2", "'mcts:iterations=1:iterations=2' sets 'iterations' twice"),
    ("my-bots:Keen", "'my-bots:Keen' is not module:ClassName (a Python module path and a class name)"),
    ("bots:Keen:fast", "'fast' in 'bots:Keen:fast' is not key=value (settings follow the agent's name: "
                       "NAME:key=value:key=value)"),
]


@pytest.mark.parametrize("text,message", SPEC_ERRORS, ids=[s[0] or "empty" for s in SPEC_ERRORS])
def test_a_wrong_spec_says_what_is_wrong(text, message):
    with pytest.raises(AgentSpecError) as err:
        parse_spec(text)
    assert str(err.value) == message


def test_a_spec_makes_a_fresh_seeded_agent():
    a, b = make_agent("mcts:iterations=7:depth=2", seed=5), make_agent("mcts:iterations=7:depth=2", seed=5)
    assert isinstance(a, MctsAgent) and a is not b
    assert (a.iterations, a.depth, a.c, a.reward, a.spec) == (7, 2, 0.7, "win", "mcts:iterations=7:depth=2")
    assert make_agent("mcts").depth == "auto" and make_agent("mcts:depth=auto").depth == "auto"
    assert a.rng.random() == b.rng.random()
    assert make_agent("mcts:time=0.5").iterations == 0   # a time budget alone: as many iterations as fit


# user agents -----------------------------------------------------------------------------------------------

def user_module(tmp_path, monkeypatch, name, code):
    """Write a module of agents into a fresh folder and make it the current one."""
    (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    sys.modules.pop(name, None)


RECORDER = """
class Recorder:
    seen = []
    def __init__(self, seed=0, word="x", n=1):
        self.settings = (seed, word, n)
    def choose(self, view, options):
        Recorder.seen.append((view, options))
        return len(options) - 1
"""


def test_a_user_agent_gets_the_view_and_the_option_labels_and_nothing_else(tmp_path, monkeypatch):
    user_module(tmp_path, monkeypatch, "rec_bots", RECORDER)
    agent = make_agent("rec_bots:Recorder:word=fly:n=3", seed=12)
    assert isinstance(agent, UserAgent) and agent.inner.settings == (12, "fly", 3)
    game = Game.new(load("cubirds"), 2, seed=1)
    player, labels, view = game.current_player, game.decision.options, game.view(game.current_player)
    assert agent.choose(Request(game, player)) == len(labels) - 1
    assert agent.inner.seen[-1] == (view, list(labels))


BROKEN = """
class Wild:
    def choose(self, view, options):
        return len(options) + 6
class Boom:
    def choose(self, view, options):
        raise ValueError("no idea")
class Plain:
    def __init__(self):
        pass
    def choose(self, view, options):
        return 0
NOT_A_CLASS = 3
"""


def test_a_user_agent_that_answers_wrongly_stops_the_game_with_a_clear_error(tmp_path, monkeypatch):
    user_module(tmp_path, monkeypatch, "broken_bots", BROKEN)
    game = Game.new(load("cubirds"), 2, seed=1)
    count = game.option_count()
    with pytest.raises(GameError) as err:
        play(game, [make_agent("broken_bots:Wild"), RandomAgent(1)] if game.current_player == 0
             else [RandomAgent(1), make_agent("broken_bots:Wild")])
    assert str(err.value) == (f"agent 'broken_bots:Wild' chose {count + 6}, which is not an option index "
                              f"(0 to {count - 1})")
    assert game.state.history == []   # nothing was applied
    with pytest.raises(GameError) as err:
        make_agent("broken_bots:Boom").choose(Request(game, game.current_player))
    assert str(err.value).startswith("agent 'broken_bots:Boom' failed: ValueError: no idea (")
    assert "broken_bots.py:7)" in str(err.value)


@pytest.mark.parametrize("spec,message", [
    ("nowhere_bots:Keen", "cannot find the module 'nowhere_bots' of agent 'nowhere_bots:Keen' (in the current "
                          "folder or the Python path)"),
    ("broken_bots2:Keen", "module 'broken_bots2' has no 'Keen'"),
    ("broken_bots2:Boon", "module 'broken_bots2' has no 'Boon'; did you mean 'Boom'?"),
    ("broken_bots2:NOT_A_CLASS", "'broken_bots2:NOT_A_CLASS' is not a class with a choose(view, options) method"),
    ("broken_bots2:Plain:level=3", "agent 'broken_bots2:Plain:level=3': Plain() cannot take these settings: "
                                   "got an unexpected keyword argument 'level'"),
])
def test_a_user_agent_that_cannot_be_made_is_a_spec_error(tmp_path, monkeypatch, spec, message):
    user_module(tmp_path, monkeypatch, "broken_bots2", BROKEN)
    with pytest.raises(AgentSpecError) as err:
        make_agent(spec)
    assert str(err.value) == message


def test_a_module_that_fails_to_import_says_where(tmp_path, monkeypatch):
    user_module(tmp_path, monkeypatch, "typo_bots", "class Keen:\n    def choose(self, view, options)\n")
    with pytest.raises(AgentSpecError) as err:
        make_agent("typo_bots:Keen")
    assert str(err.value).startswith("importing 'typo_bots' for agent 'typo_bots:Keen' failed: SyntaxError: ")
    assert "typo_bots.py:2)" in str(err.value)


# greedy -----------------------------------------------------------------------------------------------------

BANK = """
name: bank
players: {min: 2, max: 2}
components:
  coin:
    label: "coin {value}"
    in: pile
    cards:
      - {each: {value: [1, 2, 3, 4, 5, 6, 7, 8]}}
zones:
  pile: {visibility: count}
  hand: {per_player: true, visibility: owner}
  bank: {per_player: true}
setup:
  - shuffle: pile
  - deal: {from: pile, to: hand, count: 4}
actions:
  keep:
    args: {coin: me.hand}
    label: "bank {coin}"
    do: [{move: {cards: coin, from: me.hand, to: me.bank}}, {move: {from: me.hand, to: pile, count: 1}}]
flow:
  ends: [{when: 'all(players, count(it.hand) == 0)'}]
  round: {turn: {steps: [keep]}}
SCORING
"""


def test_greedy_without_an_evaluation_plays_for_the_score():
    rules = load_text(BANK.replace("SCORING", "scoring: {parts: {coins: sum(me.bank.value)}}"))
    for seed in range(6):
        game = Game.new(rules, 2, seed=seed)
        p = game.current_player
        hand = [rules.cards[c]["value"] for c in game.state.zones[rules.zone_slot("hand", 2, p)]]
        choice = GreedyAgent(seed).choose(Request(game, p))
        assert game.decision.options[choice] == f"bank coin {max(hand)}"


@pytest.mark.parametrize("by,pick", [("auto", min), ("evaluate", min), ("score", max)])
def test_greedy_scores_by_the_evaluation_or_by_the_score_as_told(by, pick):
    """The evaluation here prefers banking small coins, the score large ones."""
    rules = load_text(BANK.replace("SCORING", "scoring: {parts: {coins: sum(me.bank.value)}}\n"
                                   "agents: {evaluate: -sum(me.bank.value)}"))
    for seed in range(4):
        game = Game.new(rules, 2, seed=seed)
        p = game.current_player
        hand = [rules.cards[c]["value"] for c in game.state.zones[rules.zone_slot("hand", 2, p)]]
        choice = make_agent(f"greedy:by={by}", seed).choose(Request(game, p))
        assert game.decision.options[choice] == f"bank coin {pick(hand)}"


@pytest.mark.parametrize("spec,scoring,problem", [
    ("greedy:by=evaluate", "scoring: {parts: {coins: sum(me.bank.value)}}",
     "greedy:by=evaluate scores positions by 'agents: evaluate', but bank declares none"),
    ("greedy:by=score", "agents: {evaluate: count(me.bank)}",
     "greedy:by=score scores positions by the score parts, but bank has none"),
    ("greedy:by=score", "scoring: {parts: {coins: sum(me.bank.value)}}", None),
    ("greedy", "agents: {evaluate: count(me.bank)}", None),
])
def test_greedy_is_refused_a_way_of_scoring_the_ruleset_lacks(spec, scoring, problem):
    assert agent_problem(parse_spec(spec), load_text(BANK.replace("SCORING", scoring))) == problem


def test_greedy_with_nothing_to_score_by_is_refused():
    rules = load_text(BANK.replace("SCORING", ""))
    game = Game.new(rules, 2, seed=1)
    with pytest.raises(GameError) as err:
        GreedyAgent(1).choose(Request(game, game.current_player))
    assert "the greedy agent needs a way to score a position" in str(err.value)
    # mcts needs no evaluation: it plays for the game's result
    assert 0 <= MctsAgent(1, iterations=20, cap=0).choose(Request(game, game.current_player)) < game.option_count()


# mcts -----------------------------------------------------------------------------------------------------

NIM = """
name: nim
players: {min: 2, max: 2}
components:
  stone:
    label: stone
    in: heap
    cards: [{count: HEAP}]
zones:
  heap: {}
  taken: {}
actions:
  take:
    args: {k: '[1, 2]'}
    if: count(heap) >= k
    label: "take {k}"
    do:
      - move: {from: heap, to: taken, count: k}
      - if: count(heap) == 0
        then: [{end_game: {winners: '[me]', reason: took the last stone}}]
flow:
  round: {turn: {steps: [take]}}
"""


@pytest.mark.parametrize("heap,best", [(4, "take 1"), (5, "take 2"), (7, "take 1"), (8, "take 2"), (2, "take 2")])
def test_mcts_finds_the_winning_move_of_a_small_game(heap, best):
    """Taking the last stone wins: the winning move leaves a multiple of 3 (the opponent's nodes are
    chosen for the opponent's reward, so the search must see the reply)."""
    rules = load_text(NIM.replace("HEAP", str(heap)))
    for seed in range(3):
        game = Game.new(rules, 2, seed=seed)
        choice = MctsAgent(seed, iterations=300, cap=0).choose(Request(game, game.current_player))
        assert game.decision.options[choice] == best


def test_mcts_is_reproducible_with_an_iteration_budget():
    rules = load("piepmatz")

    def history(seed):
        game = Game.new(rules, 2, seed=seed, record=False)
        play(game, [MctsAgent(seed, iterations=10, depth=4, cap=0), RandomAgent(seed)])
        return game.state.history
    assert history(3) == history(3)
    assert history(3) != history(4)


@pytest.mark.parametrize("n,result,expected", [
    (2, {"winners": [0]}, [1.0, 0.0]),
    (2, {"winners": [0, 1]}, [0.5, 0.5]),
    (3, {"winners": [2]}, [0.0, 0.0, 1.0]),
    (3, {"winners": [0, 2]}, [0.5, 0.0, 0.5]),
    (4, {"winners": []}, [0.25, 0.25, 0.25, 0.25]),     # nobody won (a stalled game): a draw
])
def test_rewards_for_a_finished_game(n, result, expected):
    assert MctsAgent()._rewards(position(n, dict(result, scores=[{"total": 0}] * n)), None, None) == expected


def position(n, result):
    class State:
        pass
    g = State()
    g.n, g.result = n, result
    return g


def test_where_a_rollout_stops_a_reward_is_the_growth_of_the_lead_squashed():
    """Values of [3, 5] from [3, 4] at the decision: growths 0 and 1, leads grown by -1 and 1; the median
    absolute value seen so far is 1, so the rewards are 0.5 -+ 0.5 tanh(1)."""
    agent = MctsAgent()
    rewards = agent._rewards(position(2, None), lambda g: [3, 5], [3, 4])
    assert [round(r, 4) for r in rewards] == [round(0.5 - 0.5 * math.tanh(1), 4), round(0.5 + 0.5 * math.tanh(1), 4)]
    # the same growth for everyone: nothing gained
    assert agent._rewards(position(3, None), lambda g: [5, 5, 1], [0, 0, -4]) == [0.5, 0.5, 0.5]


def test_with_more_players_a_cut_off_reward_is_the_growth_less_the_others_mean_growth():
    """Growths 6, 0, 0, 0: player 1 gained 6 over the others' mean 0, each other lost 2 to the mean 2 of
    theirs; the median absolute value is 2, so 0.5 + 0.5 tanh(3) and 0.5 + 0.5 tanh(-1)."""
    rewards = MctsAgent()._rewards(position(4, None), lambda g: [6, 0, 0, 0], [0, 0, 0, 0])
    assert rewards == [0.5 + 0.5 * math.tanh(3)] + [0.5 + 0.5 * math.tanh(-1)] * 3


def test_a_rare_huge_value_does_not_flatten_the_ordinary_ones():
    """The scale is the median absolute value, not the mean: after one growth of 1000 among growths of
    1, a growth of 1 is still worth 0.5 + 0.5 tanh(1)."""
    agent = MctsAgent()
    for _ in range(5):
        agent._rewards(position(2, None), lambda g: [1, 0], [0, 0])
    agent._rewards(position(2, None), lambda g: [1000, 0], [0, 0])
    rewards = agent._rewards(position(2, None), lambda g: [1, 0], [0, 0])
    assert [round(r, 6) for r in rewards] == [round(0.5 + 0.5 * math.tanh(1), 6), round(0.5 - 0.5 * math.tanh(1), 6)]


def test_with_reward_margin_a_finished_game_rewards_the_score_lead():
    agent = MctsAgent(reward="margin")
    scores = [{"total": 10}, {"total": 4}, {"total": 7}]     # leads 3, -6, -3: median absolute lead 3
    rewards = agent._rewards(position(3, {"winners": [0], "scores": scores}), None, None)
    assert rewards == [0.5 + 0.5 * math.tanh(3 / 3), 0.5 + 0.5 * math.tanh(-6 / 3), 0.5 + 0.5 * math.tanh(-3 / 3)]


BANK_SCORED = "scoring: {parts: {coins: sum(me.bank.value)}}"


@pytest.mark.parametrize("scoring,depth", [(BANK_SCORED, "next"), ("", -1)])
def test_depth_auto_scores_by_the_score_parts_where_there_is_no_evaluation(scoring, depth):
    """Without `agents: evaluate`, rollouts stop and are scored by the score parts; with neither, they
    are played to the end."""
    game = Game.new(load_text(BANK.replace("SCORING", scoring)), 2, seed=1)
    assert MctsAgent(1).resolved_depth(Request(game, game.current_player), game, "tree") == depth


@pytest.mark.parametrize("scoring", [BANK_SCORED, ""])
def test_mcts_plays_at_most_steps_decisions_per_search(scoring, monkeypatch):
    """Full rollouts of an 8-decision game with steps=25: the search stops after exactly 25 decisions,
    the last rollout cut (scored by the score parts, or a draw where nothing scores it)."""
    game = Game.new(load_text(BANK.replace("SCORING", scoring)), 2, seed=1)
    played = []
    apply = Game.apply
    monkeypatch.setattr(Game, "apply", lambda self, choice: played.append(choice) or apply(self, choice))
    agent = MctsAgent(1, steps=25, depth=-1)
    agent.choose(Request(game, game.current_player))
    iterations, _ = agent.searched[-1]
    assert len(played) == 25 and agent.left == 0 and 3 <= iterations < 25


def test_a_rollout_cut_where_nothing_scores_a_position_is_a_draw():
    assert MctsAgent()._rewards(position(3, None), None, None) == [1 / 3] * 3


def test_mcts_with_a_time_budget_searches_until_the_time_is_up():
    game = Game.new(load("cubirds"), 2, seed=1)
    agent = make_agent("mcts:time=0.05:depth=3", seed=1)
    agent.choose(Request(game, game.current_player))
    iterations, seconds = agent.searched[-1]
    assert iterations > 0 and seconds >= 0.05


def test_in_a_simultaneous_decision_the_searchers_world_forgets_what_the_others_chose():
    """Pit: the others choose at once; a search by the last chooser sees a world in which the others
    have not chosen yet (their real choices are secret) and choose after it, from options listed in
    that world."""
    rules = load("pit")
    game = Game.new(rules, 4, seed=2, record=False)
    for _ in range(3):
        game.apply(0)                       # three players commit
    last = game.current_player
    real = _simultaneous_frame(game.state)[4]
    assert len(real["chosen"]) == 3
    world = Sampler(game, last)(random.Random(1))
    data = _simultaneous_frame(world.state)[4]
    assert data["chosen"] == [] and data["queue"][0][0] == last
    assert sorted(q[0] for q in data["queue"]) == sorted(q[0] for q in real["queue"])
    assert world.state.history == [] and world.state.log == []
    # a search from here plays on: every other chooser is asked in the world
    choice = MctsAgent(1, iterations=12, depth=8, cap=0).choose(Request(game, last))
    assert 0 <= choice < game.option_count()


def test_a_hidden_variable_is_believed_to_hold_what_a_setup_gives_it():
    """Forehead poker: chips are private, declared 0 and dealt by the setup. In a bot's world the others'
    chips are what they are at the first decision of a new game (the starting chips less the ante),
    whatever they really hold now; its own are real."""
    rules = load("forehead-poker")
    fresh = Game.new(rules, 3, seed=99, record=False).state.pvars["chips"]
    assert fresh == [rules.params["starting_chips"] - 1] * 3
    game = Game.new(rules, 3, seed=4, record=False)
    game.state.pvars["chips"] = [15, 7, 1]
    me = game.current_player
    world = Sampler(game, me)(random.Random(2))
    assert world.state.pvars["chips"] == [[15, 7, 1][p] if p == me else fresh[p] for p in range(3)]


@pytest.mark.parametrize("name,players,opponents,choosers", [
    ("pit", 4, "auto", {"me"}), ("pit", 4, "rollout", {"me"}), ("pit", 4, "tree", {"me", "others"}),
    ("pit", 3, "auto", {"me"}), ("piepmatz", 2, "auto", {"me", "others"}), ("piepmatz", 2, "rollout", {"me"}),
])
def test_with_more_than_two_players_only_the_searchers_decisions_are_tree_nodes(name, players, opponents, choosers):
    """opponents=auto is a tree of everyone's decisions with two players; with more, the others'
    decisions are played at random and the tree holds the searcher's only (opponents=rollout)."""
    game = Game.new(load(name), players, seed=3, record=False)
    me = game.current_player
    agent = MctsAgent(2, iterations=60, opponents=opponents, cap=0)
    agent.choose(Request(game, me))
    seen, todo = set(), [agent.tree]
    while todo:
        node = todo.pop()
        for child in node.children.values():
            seen.add("me" if child.player == me else "others")
            todo.append(child)
    assert seen == choosers


def test_with_depth_next_a_rollout_stops_when_the_decision_comes_back_to_the_player():
    """Pit, four players: each iteration scores the position when the searcher is asked again, after
    the others' choices of the market step took effect."""
    game = Game.new(load("pit"), 4, seed=3, record=False)
    me = game.current_player
    agent = MctsAgent(2, iterations=40, depth="next", cap=0)
    scored = []
    real = agent._rewards

    def rewards(g, score, start):
        scored.append((g.pending[1], g.turn))
        return real(g, score, start)
    agent._rewards = rewards
    agent.choose(Request(game, me))
    assert len(scored) == 40 and {who for who, _ in scored} == {me}
    assert min(turn for _, turn in scored) == game.state.turn + 1


GAMBLE = """
name: gamble
players: {min: 3, max: 3}
components:
  chip:
    label: "chip {v}"
    in: deck
    cards: [{v: 20, count: 1}, {v: 0, count: 9}]
zones:
  deck: {visibility: count}
  hand: {per_player: true, visibility: owner}
player_variables:
  points: 0
setup:
  - shuffle: deck
actions:
  safe:
    label: safe
    do: [{add: {me.points: 1}}]
  gamble:
    label: gamble
    do: [{move: {from: deck, to: me.hand, count: 1}}]
flow:
  ends:
    - when: count(deck) == 0
      winners: maxima(players, it.points + sum(it.hand.v))
      reason: the deck is empty
  round:
    turn:
      steps:
        - name: play
          actions: [safe, gamble]
agents:
  evaluate: me.points + sum(me.hand.v)
"""


def test_with_depth_0_an_option_is_worth_its_mean_growth_over_worlds():
    """Depth 0: 'safe' adds 1, 'gamble' draws one of ten hidden chips, one of
    them worth 20: a mean of 2. Both are valued in the same worlds by the growth of the evaluation, kept
    as it is (a scale that saturates at a few points would make the rare 20 look like a 1)."""
    rules = load_text(GAMBLE)
    for seed in range(4):
        game = Game.new(rules, 3, seed=seed)
        agent = MctsAgent(seed, iterations=300, depth=0, cap=0)
        choice = agent.choose(Request(game, game.current_player))
        assert game.decision.options[choice] == "gamble"
        children = {key[2]: child for key, child in agent.tree.children.items()}   # by action: safe, gamble
        assert children[0].total == children[0].visits == 150          # two options: 150 worlds each
        assert children[1].visits == 150 and children[1].total % 20 == 0 and children[1].total > 150
        assert not children[0].children and not children[1].children   # no rollout, no node below


def test_depth_0_values_every_option_in_the_same_worlds_and_plays_the_best_mean():
    """Pit, four players (depth=auto is 0: they trade at once): iterations / options worlds, each of which values every option
    of the searcher's (Pit offers the same ones in every world: they depend on its own hand and on the
    sizes of the offers out); the best mean is played."""
    game = Game.new(load("pit"), 4, seed=3, record=False)
    for _ in range(9):
        game.apply(0)
    me = game.current_player
    agent = MctsAgent(2, iterations=200, cap=0)
    choice = agent.choose(Request(game, me))
    children = list(agent.tree.children.values())
    k = len(children)
    assert k >= 8 and {c.visits for c in children} == {200 // k} and agent.searched[-1][0] == 200 // k * k
    assert not any(c.children for c in children)
    index = _offered(game.state, game.state.pending, game.rs.card_labels, game.rs.by_back)   # option -> its index
    picked = next(c for key, c in agent.tree.children.items() if index[key] == choice)
    assert picked.total / picked.visits == max(c.total / c.visits for c in children)


@pytest.mark.parametrize("name,players,flat", [("pit", 4, True), ("pit", 3, True), ("forehead-poker", 3, False),
                                              ("cubirds", 3, False), ("piepmatz", 2, False)])
def test_depth_auto_is_0_where_more_than_two_players_choose_at_once(name, players, flat):
    """depth=auto: 0 (no node below the root's children) at a decision several players make at once with
    the others played at random; where they choose after seeing the player's choice, the search goes
    deeper."""
    game = Game.new(load(name), players, seed=3, record=False)
    agent = MctsAgent(2, iterations=60, cap=0)
    agent.choose(Request(game, game.current_player))
    deeper = any(child.children for child in agent.tree.children.values())
    assert deeper is not flat


def test_depth_0_with_a_time_budget_values_options_until_the_time_is_up():
    game = Game.new(load("pit"), 4, seed=3, record=False)
    agent = make_agent("mcts:iterations=0:time=0.05:depth=0", seed=1)
    assert 0 <= agent.choose(Request(game, game.current_player)) < game.option_count()
    worlds, seconds = agent.searched[-1]
    assert worlds > 0 and seconds >= 0.05
    assert len({c.visits for c in agent.tree.children.values()}) == 1   # each world values every option


@pytest.mark.parametrize("name,players", [("souk", 2), ("forehead-poker", 3), ("piepmatz", 2)])
def test_mcts_plays_whole_games_with_picks_reactions_and_choices_inside_effects(name, players):
    rules = load(name)
    game = Game.new(rules, players, seed=4, record=False)
    agents = [MctsAgent(4, iterations=6, depth=4, cap=0)] + [RandomAgent(s) for s in range(1, players)]
    play(game, agents)
    assert game.is_over and agents[0].searched


# the command line ------------------------------------------------------------------------------------------

def run_here(args, capsys, monkeypatch):
    """`rulebook ARGS` through the real entry point, in this process: (exit status, stdout, stderr)."""
    from cli import main
    monkeypatch.setattr(sys, "argv", ["rulebook", *args])
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_refuses_greedy_where_nothing_scores_a_position(tmp_path, capsys, monkeypatch):
    path = tmp_path / "bank.yaml"
    path.write_text(BANK.replace("SCORING", ""), encoding="utf-8")
    code, _, err = run_here(["simulate", str(path), "--agents", "greedy"], capsys, monkeypatch)
    assert code == 2
    assert ("Invalid value for '--agents': the greedy agent scores positions, but bank has neither "
            "'agents: evaluate' nor score parts; use random or mcts") in err
    code, _, err = run_here(["simulate", str(path), "--agents", "mcts:depth=3"], capsys, monkeypatch)
    assert code == 2 and "mcts with depth or reward=margin scores positions" in err
    code, out, _ = run_here(["simulate", str(path), "--agents", "mcts:iterations=5", "--games", "2"], capsys,
                            monkeypatch)
    assert code == 0 and "2 games" in out


def test_a_user_agent_that_fails_during_a_game_exits_one_with_its_message(tmp_path, capsys, monkeypatch):
    user_module(tmp_path, monkeypatch, "boom_bots", BROKEN)
    code, _, err = run_here(["simulate", "cubirds", "--agents", "boom_bots:Boom", "--games", "1"], capsys, monkeypatch)
    assert code == 1 and "error: cubirds, game seed 0: agent 'boom_bots:Boom' failed: ValueError: no idea (" in err
    code, _, err = run_here(["simulate", "cubirds", "--agents", "boom_bots:Nope"], capsys, monkeypatch)
    assert code == 2 and "Invalid value for '--agents': module 'boom_bots' has no 'Nope'" in err


def test_the_agents_command_lists_every_agent_and_its_settings(capsys, monkeypatch):
    code, out, _ = run_here(["agents"], capsys, monkeypatch)
    assert code == 0
    names = [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")]
    assert names == ["random", "first", "greedy", "mcts", "human", "module"]
    assert "    iterations=N, default 200: search iterations per decision" in out
    assert "    reward=win|margin, default win: " in out
    assert "    depth=N|auto|next|turn, default auto: " in out


def test_play_asks_pick_only_of_an_agent_whose_choose_reads_the_count_alone():
    """random and first are asked by pick(count), without a Request; a subclass that changes choose alone is
    asked through its choose, and the same seed plays the same game either way."""
    from interpreter.agents import FirstAgent, RandomAgent, play
    from interpreter.agents.base import picker

    asked = []

    class Watching(RandomAgent):
        def choose(self, request):
            asked.append(request.count)
            return RandomAgent.choose(self, request)

    rules = load("cubirds")
    assert picker(RandomAgent(1)) is not None and picker(FirstAgent()) is not None
    assert picker(Watching(1)) is None
    a, b = Game.new(rules, 2, seed=4, record=False), Game.new(rules, 2, seed=4, record=False)
    play(a, [RandomAgent(1), RandomAgent(2)])
    play(b, [Watching(1), Watching(2)])
    assert asked and len(asked) == len(b.state.history)
    assert a.state.history == b.state.history and a.result == b.result
    # one count-only agent beside one asked by choose: the same game as both asked by choose
    c = Game.new(rules, 2, seed=4, record=False)
    play(c, [RandomAgent(1), Watching(2)])
    assert c.state.history == a.state.history and c.result == a.result


def test_a_count_only_agent_whose_pick_goes_wrong_mid_game_is_refused_in_its_name():
    """play() lets Game.apply go on with count-only agents' picks; a pick that is not an option index, at
    the 7th decision, stops the game there in that agent's name, the 6 decisions before it applied."""
    from interpreter.agents import RandomAgent, play

    class Late(RandomAgent):
        name = "late"
        spec = "late"

        def __init__(self, seed, at):
            super().__init__(seed)
            self.asked, self.at = 0, at

        def choose(self, request):
            return self.pick(request.count)

        def pick(self, count):
            self.asked += 1
            return count + 3 if self.asked == self.at else 0

    rules = load("cubirds")
    game = Game.new(rules, 2, seed=4, record=False)
    seats = [Late(1, 4), Late(2, 4)]   # each seat asked in turn from the first decision: the 7th or 8th fails
    with pytest.raises(GameError) as err:
        play(game, seats)
    assert "agent 'late' chose " in str(err.value) and "which is not an option index (0 to " in str(err.value)
    assert sum(s.asked for s in seats) - 1 == len(game.state.history)   # all but the failed pick applied
    assert game.state.pending is not None


CHORES = """
name: chores
players: {min: 2, max: 2}
components:
  token:
    label: token
    in: box
    cards: [{count: 1}]
zones:
  box: {visibility: public}
player_variables:
  points: 0
actions:
  good:
    label: good
    do: [{add: {me.points: 2}}]
  poor:
    label: poor
    do: [{add: {me.points: 1}}]
  bad:
    label: bad
    do: [{add: {me.points: -1}}]
flow:
  ends:
    - when: turn > 6
      winners: maxima(players, it.points)
      reason: done
  round:
    turn:
      steps:
        - {name: first, actions: [bad, poor, good]}
        - {name: second, actions: [good, bad, poor]}
        - {name: third, actions: [poor, good, bad]}
agents:
  evaluate: me.points
"""


def test_one_step_takes_the_option_worth_most_to_its_chooser_and_leaves_the_world_alone():
    rules = load_text(CHORES)
    game = Game.new(rules, 2, seed=1, record=False)
    value = position_value(rules)
    rng = random.Random(3)
    for _ in range(9):   # three turns of three steps: 'good' is each step's best, wherever it is listed
        me = game.current_player
        before = value(game.state, me)
        index = MctsAgent._one_step(game, me, value, rng)
        assert game.decision.options[index] == "good" and value(game.state, me) == before
        game.apply(index)


def test_with_depth_turn_the_last_chooser_plays_its_run_one_step_ahead_and_is_scored_when_another_is_to_choose():
    """Chores: a turn is three decisions of one player. From the first of them, three iterations try each
    option once; each rollout plays the rest of the turn by the best option one step ahead ('good', 2 points
    each, not a random one) and is scored when the other player is to choose: the searcher's growth is what
    the root's option gave, and 4."""
    rules = load_text(CHORES)
    game = Game.new(rules, 2, seed=1, record=False)
    me = game.current_player
    agent = MctsAgent(2, iterations=3, depth="turn", cap=0)
    scored = []
    real = agent._rewards

    def rewards(g, score, start):
        scored.append((g.pending[1], g.turn, score(g)[me] - start[me]))
        return real(g, score, start)
    agent._rewards = rewards
    choice = agent.choose(Request(game, me))
    assert game.decision.options[choice] == "good"
    assert len(scored) == 3 and {who for who, _, _ in scored} == {1 - me}
    assert {turn for _, turn, _ in scored} == {game.state.turn + 1}
    assert sorted(gain for _, _, gain in scored) == [-1 + 4, 1 + 4, 2 + 4]   # bad, poor or good at the root, then good, good


def test_depth_turn_is_a_setting_of_its_own():
    agent = make_agent("mcts:depth=turn", seed=1)
    assert agent.depth == "turn"


@pytest.mark.parametrize("name,players,depth", [
    ("harbour-lights", 2, "turn"), ("lanterns", 2, "turn"),                          # steps offered again
    ("cubirds", 2, "next"), ("piepmatz", 2, "next"), ("forehead-poker", 2, "next"), ("souk", 2, "next"),
    ("harbour-lights", 3, "next"), ("souk", 3, "next")])                             # the others at random
def test_depth_auto_is_turn_with_two_players_where_a_turn_is_a_run_of_decisions_of_one_player(name, players, depth):
    game = Game.new(load(name), players, seed=1, record=False)
    while game.option_count() < 2:
        game.apply(0)
    opponents = "tree" if players == 2 else "rollout"
    assert MctsAgent(1).resolved_depth(Request(game, game.current_player), game, opponents) == depth


def test_the_mcts_cap_ends_a_search_however_many_iterations_are_left():
    """cap: the most CPU seconds a search may take. A cap too small for one iteration ends the search at
    once (the bot still plays a legal option); cap=0 plays every iteration asked."""
    from interpreter import Game, load
    from interpreter.agents import Request, make_agent
    rules = load("cubirds")
    game = Game.new(rules, 2, seed=3, record=False)
    while game.decision is not None and len(game.decision.options) < 2:
        game.apply(0)
    capped = make_agent("mcts:iterations=50:cap=0.000000001", 1)
    choice = capped.choose(Request(game, game.current_player))
    assert 0 <= choice < len(game.decision.options)
    assert capped.searched[-1][0] <= 1
    free = make_agent("mcts:iterations=50:cap=0", 1)
    free.choose(Request(game, game.current_player))
    assert free.searched[-1][0] == 50


@pytest.mark.parametrize("spec,steps", [("mcts", 10_000), ("mcts:iterations=25", 10_000), ("mcts:iterations=400", 20_000),
                                        ("mcts:iterations=2000", 100_000), ("mcts:iterations=0:time=0.5", 10_000),
                                        ("mcts:steps=300", 300), ("mcts:iterations=2000:steps=0", 0)])
def test_mcts_steps_auto_grows_with_the_iterations(spec, steps):
    from interpreter.agents import make_agent
    assert make_agent(spec, 1).steps == steps


def test_a_bigger_budget_is_not_cut_short_by_the_default_steps():
    """At Souk's first decision a search of 1,500 iterations plays about 14,000 decisions: a fixed 10,000 steps
    stopped it near 1,040 iterations."""
    game = Game.new(load("souk"), 2, seed=3, record=False)
    while game.option_count() < 2:
        game.apply(0)
    agent = MctsAgent(1, iterations=1500, cap=0)
    agent.choose(Request(game, game.current_player))
    assert agent.searched[-1][0] == 1500
    short = MctsAgent(1, iterations=1500, cap=0, steps=10_000)
    short.choose(Request(game, game.current_player))
    assert short.searched[-1][0] < 1500   # the old default would have cut it: the test above can fail


@pytest.mark.parametrize("spec,cap", [("mcts", 0.2), ("mcts:iterations=100", 0.2), ("mcts:iterations=400", 0.4),
                                      ("mcts:iterations=0:time=1.5", 1.5), ("mcts:cap=0", 0),
                                      ("mcts:iterations=2000:cap=0.3", 0.3)])
def test_mcts_cap_auto_grows_with_the_budget_asked_for(spec, cap):
    from interpreter.agents import make_agent
    assert make_agent(spec, 1).cap == pytest.approx(cap)
