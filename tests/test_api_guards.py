"""The Python API refuses bad arguments and damaged saves with the project's own errors (GameError,
IllegalChoice), never a TypeError or IndexError, and never a view of a seat that does not exist."""
from __future__ import annotations

import copy
import json

import pytest

from interpreter import Game, GameError, IllegalChoice, load
from interpreter.agents import HumanAgent, Request


@pytest.fixture(scope="module")
def rules():
    return load("cubirds")


@pytest.fixture(scope="module")
def save(rules):
    game = Game.new(rules, 3, seed=4)
    for _ in range(5):
        game.apply(0)
    return json.loads(json.dumps(game.to_json()))


@pytest.mark.parametrize("players,seed,params,message", [
    ("3", 0, None, "the number of players must be a whole number, not '3'"),
    (3.0, 0, None, "the number of players must be a whole number, not 3.0"),
    (True, 0, None, "the number of players must be a whole number, not True"),
    (None, 0, None, "the number of players must be a whole number, not None"),
    (9, 0, None, "cubirds is for 2 to 5 players, not 9"),
    (3, "1", None, "the seed must be a whole number, not '1'"),
    (3, 1.5, None, "the seed must be a whole number, not 1.5"),
    (3, 0, ["hand_size"], "params must be a map of parameter names to values, not ['hand_size']"),
])
def test_game_new_refuses_bad_arguments(rules, players, seed, params, message):
    with pytest.raises(GameError) as info:
        Game.new(rules, players, seed=seed, params=params)
    assert str(info.value) == message


def test_game_new_takes_a_ruleset_not_its_name():
    with pytest.raises(GameError) as info:
        Game.new("cubirds", 3)
    assert str(info.value) == "Game.new takes a ruleset (from load or load_text), not str"


@pytest.mark.parametrize("player", ["a", -1, 3, 99, 1.0, True, [0]])
def test_view_refuses_seats_that_do_not_exist(rules, player):
    game = Game.new(rules, 3, seed=1)
    with pytest.raises(GameError) as info:
        game.view(player)
    assert str(info.value) == f"view takes a seat from 0 to 2 (or None for an onlooker), not {player!r}"


def test_view_takes_every_seat_and_none_for_an_onlooker(rules):
    game = Game.new(rules, 3, seed=1)
    assert [game.view(p)["player"] for p in range(3)] == ["P1", "P2", "P3"]
    hands = game.view(None)["zones"]["hand"]
    assert all(hands[seat] == {"count": len(game.view(p)["zones"]["hand"][seat])}
               for p, seat in enumerate(["P1", "P2", "P3"]))


@pytest.mark.parametrize("choice", [-1, 10 ** 6, 1.0, None, True, [0], "no such option"])
def test_apply_refuses_what_is_not_an_option_and_changes_nothing(rules, choice):
    game = Game.new(rules, 3, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalChoice):
        game.apply(choice)
    assert game.to_json() == before


@pytest.mark.parametrize("choices,message", [
    ("0", "the choices to replay must be a list of option numbers or labels, not '0'"),
    (7, "the choices to replay must be a list of option numbers or labels, not 7"),
    ([0, 0, 999], "choice 3 of the replay: option 999 does not exist: choose 0 to "),
    ([0, None], "choice 2 of the replay: option None does not exist: choose 0 to "),
])
def test_replay_refuses_bad_choices_saying_which(rules, choices, message):
    with pytest.raises(GameError) as info:
        Game.replay(rules, 3, 1, choices)
    assert str(info.value).startswith(message)


# Saves ---------------------------------------------------------------------------------------------

def damage(save, how):
    data = copy.deepcopy(save)
    how(data["state"])
    return data


def _duplicate_a_card(s):
    z = next(z for z in s["zones"] if z)
    z.append(z[0])


def _swap_a_card_for_another(s):
    z = next(z for z in s["zones"] if z)
    other = next(c for zz in s["zones"] for c in zz if c != z[0])
    z[0] = other


def _pending_node(node):
    def how(s):
        s["pending"][0] = node
    return how


DAMAGES = [
    ("a missing zone", lambda s: s["zones"].pop(), "'zones' must have "),
    ("n = 100", lambda s: s.update(n=100), "the number of players 'n' must be a whole number from 2 to 5, not 100"),
    ("n = '3'", lambda s: s.update(n="3"), "the number of players 'n' must be a whole number from 2 to 5, not '3'"),
    ("a duplicated card", _duplicate_a_card, "lies in two places"),
    ("a card in place of another", _swap_a_card_for_another, "lies in two places"),
    ("a card id out of range", lambda s: s["zones"][0].append(10 ** 6), "a card in zone 0 must be a whole number from 0 to 109"),
    ("a negative card id", lambda s: s["zones"][0].__setitem__(0, -1) if s["zones"][0] else s["zones"][0].append(-1),
     "must be a whole number from 0 to 109, not -1"),
    ("a frame's block out of range", lambda s: s["frames"][0].__setitem__(0, 10 ** 6), "the block of frame 0 must be"),
    ("a frame's environment out of range", lambda s: s["frames"][-1].__setitem__(2, 99), "the environment of frame"),
    ("a frame's position out of range", lambda s: s["frames"][-1].__setitem__(1, 999), "the position in frame"),
    ("a frame cut short", lambda s: s["frames"][0].pop(), "frame 0 must have 5 entries, not 4"),
    ("no frames", lambda s: s.update(frames=[]), "a decision waits, but no effect is running to take it"),
    ("a pending node out of range", _pending_node(10 ** 6), "the node of 'pending' must be"),
    ("a pending node that asks nothing", _pending_node(0), "which asks no decision"),
    ("a pending player out of range", lambda s: s["pending"].__setitem__(1, 7), "the player of 'pending' must be"),
    ("a pending option with a value too many", lambda s: s["pending"][2][0][1].append(1), "values where"),
    ("an option of an action that does not exist",
     lambda s: s["pending"][2][0].__setitem__(0, 99), "an option's action must be"),
    ("no pending decision", lambda s: s.update(pending=None), "the game is neither over nor waiting for a decision"),
    ("a missing variable table", lambda s: s.pop("pvars"), "'state' lacks pvars"),
    ("an unknown variable", lambda s: s["vars"].update(nope=1), "'vars' has unknown nope"),
    ("a negative round", lambda s: s.update(round=-3), "'round' must be a whole number of at least 0, not -3"),
    ("a player out of range in a value", lambda s: s["envs"][0].update(me={"$player": 9}),
     "a player in environment 0 must be a whole number from 0 to 2, not 9"),
    ("a card out of range in a value", lambda s: s["envs"][0].update(x={"$card": 999}),
     "a card in environment 0 must be a whole number from 0 to 109, not 999"),
    ("a current player out of range", lambda s: s.update(current=-1), "'current' must be a whole number from 0 to 2"),
    ("a broken generator", lambda s: s.update(rng=[3, "x", None]), "'rng' is not the state of a random generator"),
    # found by benchmarks/fuzz_long.py: setstate raised OverflowError
    ("a negative word in the generator", lambda s: s["rng"][1].__setitem__(81, -640050747927547),
     "'rng' is not the state of a random generator"),
    ("a generator cut short", lambda s: s["rng"][1].pop(), "'rng' is not the state of a random generator"),
    ("a history of texts", lambda s: s.update(history=["a"]), "a choice in 'history' must be"),
    ("a log of numbers", lambda s: s.update(log=[1]), "a line of 'log' is not a text, nor readers and texts"),
    ("a value nested very deep", lambda s: s["envs"][0].update(x=json.loads("[" * 200 + "]" * 200)),
     "nests deeper than 64 levels"),
]


@pytest.mark.parametrize("what,how,message", DAMAGES, ids=[d[0] for d in DAMAGES])
def test_a_damaged_save_is_refused_at_once_saying_what_is_damaged(rules, save, what, how, message):
    with pytest.raises(GameError) as info:
        Game.from_json(rules, damage(save, how))
    assert info.value.code == "saved-game"
    assert str(info.value).startswith("the saved game is damaged: ") and message in str(info.value)


@pytest.mark.parametrize("data", [None, [], "save", {}, {"fingerprint": "x"}])
def test_what_is_not_a_save_of_this_ruleset_is_refused(rules, save, data):
    with pytest.raises(GameError) as info:
        Game.from_json(rules, data)
    assert str(info.value) == "this saved game was made with a different ruleset"


def test_a_save_without_its_state_is_refused(rules, save):
    with pytest.raises(GameError) as info:
        Game.from_json(rules, {"fingerprint": save["fingerprint"]})
    assert str(info.value) == "the saved game is damaged: it has no 'state'"


def test_an_intact_save_is_accepted_and_plays_on_as_the_original(rules, save):
    original = Game.from_json(rules, save)
    back = Game.from_json(rules, json.loads(json.dumps(original.to_json())))
    for p in range(3):
        assert back.view(p) == original.view(p)
    back.apply(0)
    original.apply(0)
    assert back.to_json() == original.to_json()


# The terminal prompt -------------------------------------------------------------------------------

def ask(rules, answers):
    """What a HumanAgent answers to the first decision of a game, given these typed lines (an
    exception in the list is raised in their place), and what it printed."""
    game = Game.new(rules, 2, seed=2)
    lines, printed = list(answers), []

    def typed(prompt):
        line = lines.pop(0)
        if isinstance(line, BaseException):
            raise line
        return line

    agent = HumanAgent(input_fn=typed, output_fn=printed.append)
    return agent.choose(Request(game, game.current_player)), printed


@pytest.mark.parametrize("answer", ["²", "¹", "1" * 5000, "-1", "1.0"])
def test_the_prompt_asks_again_for_what_is_no_option_number(rules, answer):
    choice, printed = ask(rules, [answer, "1"])
    assert choice == 0
    assert any(line.startswith(f"'{answer}' is not an option") for line in printed)


def test_the_prompt_reads_full_width_digits_as_numbers(rules):
    assert ask(rules, ["２"])[0] == 1


@pytest.mark.parametrize("exc,message", [
    (EOFError(), "no more input: the game was left unfinished"),
    (KeyboardInterrupt(), "interrupted (Ctrl-C): the game was left unfinished"),
])
def test_the_end_of_input_and_ctrl_c_end_the_game_cleanly(rules, exc, message):
    with pytest.raises(GameError) as info:
        ask(rules, [exc])
    assert str(info.value) == message


# The scenario runner -------------------------------------------------------------------------------

@pytest.mark.parametrize("paths,message", [
    (None, "run_scenarios takes a list of files and folders, not NoneType"),
    (7, "run_scenarios takes a list of files and folders, not int"),
    ([None], "run_scenarios takes the path of a scenario file or folder, not None"),
    ([""], "run_scenarios takes the path of a scenario file or folder, not ''"),
])
def test_the_scenario_runner_refuses_what_is_not_a_path(paths, message):
    from interpreter import RulebookError
    from interpreter.scenario import run_scenarios
    with pytest.raises(RulebookError) as info:
        run_scenarios(paths)
    assert str(info.value) == message


def test_the_scenario_runner_takes_one_path_as_a_list_of_one():
    from interpreter.scenario import run_scenarios
    from helpers import ROOT
    one = ROOT / "tests" / "scenarios" / "cubirds-big-flock-wins.yaml"
    results, code = run_scenarios(str(one))
    assert code == 0 and [r.name for r in results] == ["CuBirds: a big flock of owls wins"]
