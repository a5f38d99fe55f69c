"""`rulebook play` as a person uses it (plain mode): steps, help, quit and save, resume, undo, hot-seat, Ctrl-C."""
from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

import cli
from interpreter import Game, load
from interpreter.agents import Request, make_agent
from interpreter.present import terminal
from interpreter.present.narrate import story
from test_error_places import HEAD, place   # the cards, zones and setup of a ruleset that fails


def play(args, answers, env=None):
    return CliRunner().invoke(cli.cli, ["play"] + args, input="".join(a + "\n" for a in answers))


def test_a_long_list_is_chosen_in_steps_and_the_screen_shows_the_board():
    r = play(["cubirds", "--seed", "3", "--agents", "human,random"], ["1", "2", "1", "quit", "no"])
    out = r.output
    assert r.exit_code == 0, out
    assert "CuBirds · round 1 · turn 1 · you are P1" in out
    assert " Rows" in out and "   1  magpie · duck · toucan" in out
    assert " Your hand (8)    owl ×3 (flock 3/4) · magpie ×2 (flock 5/7)" in out
    assert " lay birds — which?   (help · quit · undo)" in out
    assert " 1 lay 3 owl   2 lay 2 magpie   3 lay 1 toucan   4 lay 1 robin   5 lay 1 parrot" in out
    assert " lay birds — lay 3 owl — which?" in out and " 1 in row 1   2 in row 2   3 in row 3   4 in row 4" in out
    assert "you put 3 birds from your hand in row 2: owl ×3" in out
    assert "left without saving" in out


def test_typing_filters_the_options_and_all_lists_them_all():
    r = play(["cubirds", "--seed", "3", "--agents", "human,random"], ["help", "all", "magpie", "quit", "no"])
    out = r.output
    assert "CuBirds: Lay all your birds of one species" in out
    assert "  · lay: Lay every bird of one species" in out
    assert "   1. lay 3 owl in row 1 on the left" in out and "  40. lay 1 parrot in row 4 on the right" in out
    # 'magpie' narrows the list to the 8 magpie options, listed whole
    assert " 1 lay 2 magpie in row 1 on the left" in out


def test_quit_saves_and_resume_goes_on(tmp_path):
    save = tmp_path / "game.json"
    r = play(["cubirds", "--seed", "5", "--agents", "human,first"], ["1", "1", "1", "quit", str(save)])
    assert r.exit_code == 0, r.output
    assert f"saved; go on with: rulebook play --resume {save}" in r.output
    data = json.loads(save.read_text())
    assert data["format"] == terminal.SAVE_FORMAT and data["agents"] == ["human", "first"]
    turn = data["game"]["state"]["turn"]
    r2 = play(["--resume", str(save)], ["quit", "no"])
    assert r2.exit_code == 0, r2.output
    assert f"CuBirds · round 1 · turn {turn} · you are P1" in r2.output


def test_resume_of_a_file_that_is_not_a_saved_game(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    r = CliRunner().invoke(cli.cli, ["play", "--resume", str(bad)])
    assert r.exit_code == 1
    assert "is not a saved game of rulebook" in str(r.exception) or "is not a saved game" in r.output


def test_undo_takes_back_the_last_move_and_the_bots_after_it():
    r = play(["cubirds", "--seed", "3", "--agents", "human,first"],
             ["1", "1", "1", "2", "undo", "quit", "no"])
    out = r.output
    assert r.exit_code == 0, out
    assert "undone: your last choice and the moves after it" in out
    # the last choice was 'pass' in the draw step of turn 1: that step is asked again, the bot's turn undone
    after = out.split("undone")[1]
    assert "turn 1 · you are P1" in after and " draw   (help · quit · undo)" in after


def test_two_people_at_one_terminal_get_a_hand_over_screen_and_no_undo():
    r = play(["pit", "--seed", "1", "--players", "3", "--agents", "human,human", "--names", "Ada,Bea"],
             ["pass", "", "pass", "", "quit", "no"])
    out = r.output
    assert r.exit_code == 0, out
    assert "seats: P1 human (Ada), P2 human (Bea), P3 greedy" in out
    assert " Pass the terminal to P2 (Bea)." in out
    assert " Pass the terminal to P1 (Ada)." in out
    assert "(help · quit)" in out and "(help · quit · undo)" not in out


def test_input_that_ends_leaves_with_a_message():
    r = play(["cubirds", "--seed", "3", "--agents", "human,random"], [])
    assert r.exit_code == 1
    assert "no more input: the game was left unfinished" in r.output


def test_ctrl_c_leaves_with_one_line(monkeypatch):
    def interrupt(self):
        raise KeyboardInterrupt
    monkeypatch.setattr(terminal.Session, "run", interrupt)
    r = play(["cubirds", "--seed", "3"], [])
    assert r.exit_code == 1
    assert r.output.strip().splitlines()[-1] == "left the game at turn 1 (Ctrl-C); it was not saved"


def test_bots_only_are_watched_to_the_end():
    r = CliRunner().invoke(cli.cli, ["play", "cubirds", "--agents", "random", "--seed", "1"])
    assert r.exit_code == 0
    assert "P2 puts 1 bird from their hand in row 2: flamingo" in r.output
    assert " Winner: P" in r.output
    # what is printed as the bots play is the game's whole story, each line once and in order (an event
    # just after a log line was told twice: again before the next log line)
    game = Game.new(load("cubirds"), 2, seed=1)
    start, first_event = len(game.state.log), len(game.state.events)
    bots = [make_agent("random", seed=1 * 1000 + i) for i in range(2)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(Request(game, game.current_player)))
    told = story(game, None, start, marked=True, events_from=first_event)
    watched = r.output.splitlines()[1:1 + len(told)]
    assert watched == told and len(told) > 50


def test_digits_that_are_no_number_are_refused_and_asked_again():
    # '²' and '¹' are digits to Python that int() cannot read; a number of 5000 digits neither
    r = play(["cubirds", "--seed", "3", "--agents", "human,random"], ["²", "¹", "9" * 5000, "quit", "no"])
    assert r.exit_code == 0, r.output
    assert " '²' is not an option" in r.output and " '¹' is not an option" in r.output
    assert f" '{'9' * 5000}' is not an option" in r.output
    assert "left without saving" in r.output


def test_a_move_after_undo_is_played_in_the_game_undo_made():
    # undo replaced the session's game while the loop still held the old one: the next move crashed
    answers = ["5", "4", "2", "undo", "5", "4", "2", "quit", "no"]
    r = play(["cubirds", "--players", "2", "--agents", "human,random", "--seed", "659726042"], answers)
    out = r.output
    assert r.exit_code == 0, out
    assert r.exception is None
    after = out.split("undone")[1]
    assert after.count("you put 2 birds from your hand in row") == 1
    assert "turn 3 · you are P1" in after and "left without saving" in after


def test_undo_any_number_of_times_and_after_a_resume(tmp_path):
    save = tmp_path / "game.json"
    first = ["5", "4", "2", "1", "1", "1"]
    r = play(["cubirds", "--players", "2", "--agents", "human,random", "--seed", "659726042"],
             first + ["undo", "undo", "undo", "undo", "quit", str(save)])
    assert r.exit_code == 0 and r.exception is None, r.output
    assert r.output.count("undone: your last choice") >= 2
    assert "nothing to undo" in r.output       # more undos than moves: said, not a crash
    r2 = play(["--resume", str(save)], first + ["undo", "1", "1", "1", "quit", "no"])
    assert r2.exit_code == 0 and r2.exception is None, r2.output
    assert "undone: your last choice" in r2.output and "left without saving" in r2.output


def test_a_trade_that_came_too_late_is_told():
    # P1 takes P3's offer of 2 while P3 changes it to 3 at the same moment: the story says why nothing happened
    answers = "1 2 1 1 1 1 1 2 2 1 1 2 1 1 quit no".split()
    r = play(["pit", "--players", "4", "--seed", "4255753413"], answers)
    assert r.exit_code == 0, r.output
    assert "you were too late for P3's offer of 2: it had changed" in r.output


def test_the_end_screen_tells_you_your_result():
    r = play(["forehead-poker", "--players", "2", "--agents", "human,random", "--seed", "3"], ["1"] * 400)
    assert r.exit_code == 0, r.output
    assert " P2 wins. You finished 2nd of 2." in r.output and " Winner: P2" not in r.output
    assert "\n you               0           0           0" in r.output


@pytest.mark.parametrize("winners,you,want", [
    (["P1"], "P1", " You win!"),
    (["P1", "P3"], "P1", " You share the win with P3 (Cy)."),
    (["P3"], "P2", " P3 (Cy) wins. You finished 3rd of 3."),
    ([], "P2", " Nobody wins (a draw). You finished 1st of 3."),
    (["P3"], None, " Winner: P3 (Cy)"),
])
def test_the_result_is_told_to_whoever_reads_it(winners, you, want):
    from interpreter.present.screen import result_lines
    r = {"turns": 9, "rounds": 1, "reason": "the end", "winners": winners, "parts": ["points"],
         "scores": [{"points": 5, "total": 5}, {"points": 1, "total": 1}, {"points": 9, "total": 9}]}
    if not winners:
        r["scores"] = [{"points": 0, "total": 0}] * 3
    lines = [text for _, text in result_lines(r, you, {"P1": "P1", "P2": "Bea", "P3": "Cy"})]
    assert lines[1] == want
    assert lines[3].startswith(" you " if you == "P1" else " P1 ")


def test_a_simultaneous_step_marks_everyone_who_chooses():
    r = play(["pit", "--players", "4", "--seed", "4255753413"], ["quit", "no"])
    out = r.output
    assert " · you are P1 · all choose at once" in out
    assert all(f" {who:<8} ◀" in out for who in ("you", "P2", "P3", "P4"))
    one = play(["cubirds", "--seed", "3", "--agents", "human,random"], ["quit", "no"]).output
    assert "all choose at once" not in one and one.count("◀") == 1


def test_help_keeps_the_stepped_menu_and_back_leaves_the_full_list():
    r = play(["cubirds", "--seed", "3", "--agents", "human,random"], ["1", "help", "all", "back", "quit", "no"])
    out = r.output
    assert r.exit_code == 0, out
    after_help = out.split("The whole rules: rulebook explain cubirds")[1]
    # help: the rules and the commands, then the same step again (lay 3 owl chosen), not 40 options
    assert after_help.split("Your options now")[0].count(" lay birds — lay 3 owl — which?") == 1
    # 'all' lists the 40, 'back' returns to the steps
    assert "  40. lay 1 parrot in row 4 on the right" in after_help
    assert after_help.split("  40. lay 1 parrot")[1].count(" lay birds — which?") == 1
    # every help line fits the screen (the rules line was cut at 100 columns)
    help_text = out.split("> ")[2].split(" lay birds")[0]
    assert all(len(line) <= 100 for line in help_text.splitlines())
    assert "First to 7 species, or to 2 species of 3 birds, wins." in " ".join(help_text.split())


def test_every_kind_of_card_has_a_colour_of_its_own():
    from interpreter.bundled import bundled
    from interpreter.present.board import palette
    for name in bundled():
        hues = palette(load(name))
        assert len(set(hues.values())) == len(hues), name
    # the two pairs that shared a colour by the hash of their names
    birds = palette(load("cubirds"))
    assert birds["duck"] != birds["reed"] and birds["robin"] != birds["owl"]


FAILING_PLAY = "name: failing-play\n" + HEAD + """\
actions:
  divide:
    do:
      - set: {zero: '1 / zero'}
  give:
    args: {c: me.hand}
    do:
      - move: {cards: '[c]', from: me.hand, to: pile}
flow:
  round:
    turn:
      steps:
        - {name: go, actions: [divide, give]}
"""


def test_a_choice_the_ruleset_fails_on_is_told_at_its_line_and_the_game_goes_on(tmp_path):
    """The ruleset's fault, not the player's: told with the line and a caret, nothing changed, asked again."""
    path = tmp_path / "failing.yaml"
    path.write_text(FAILING_PLAY)
    r = play([str(path), "--agents", "human,random", "--seed", "1", "--plain"], ["1", "quit", "no"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    at = next(i for i, line in enumerate(lines) if "the ruleset cannot play this choice" in line)
    line, col = place(FAILING_PLAY, "set: {zero: '1 / zero'}")
    assert lines[at + 1].startswith(f" {path}:{line}:{col}: ruleset error in 'set': division by zero")
    assert lines[at + 2] == "     " + FAILING_PLAY.splitlines()[line - 1]
    assert lines[at + 3] == " " * (4 + col) + "^"
    assert "refused" not in r.output
    assert r.output.count(" 1 divide ") >= 2   # asked again, the same options
