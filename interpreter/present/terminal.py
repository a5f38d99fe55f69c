"""Play at the terminal: a game + one agent per seat -> a session drawn on a Screen, with help, quit (and save),
undo against bots, resume from a saved file, and a hand-over screen between people at one terminal."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..agents import HumanAgent, Request, checked, make_agent
from ..engine.game import Game
from ..engine.redeal import undo as undone
from ..errors import GameError
from .board import board
from .narrate import story
from .prompt import QUIT, UNDO, NoInput, Prompt
from .screen import Screen, result_lines

SAVE_FORMAT = "rulebook saved game"
SCREEN_LINES = 24
PROMPT_LINES = 4     # the question, one or two lines of options, the answer


def seat_agents(names: list[str], players: int, default_bot: str) -> list[str]:
    """The agent of every seat: the names given, in order; seats after them repeat the bots among them
    (never `human`), or take the ruleset's default bot. No names: one person, then bots."""
    if not names:
        return ["human"] + [default_bot] * (players - 1)
    bots = [n for n in names if n != "human"] or [default_bot]
    out = list(names[:players])
    while len(out) < players:
        out.append(bots[(len(out) - len(names)) % len(bots)])
    return out


def help_lines(rules) -> list[str]:
    """A summary of the rules for the help command: the game in a few lines and what each action does."""
    words = rules.display.words
    out = [f" {rules.title}: " + " ".join(rules.text.split())]
    for name, action in rules.actions.items():
        text = getattr(action, "text", "") or ""
        if text:
            out.append(f"  · {words(name.replace('_', ' '))}: {' '.join(str(text).split())}")
    out.append(" The whole rules: rulebook explain " + rules.name)
    return out


class Session:
    """One game at the terminal: who sits where, what has been shown, how to save it."""

    def __init__(self, rules, game: Game, agents: list[str], seed: int, params: dict, names: list[str],
                 screen: Screen, ask, quiet: bool = False, source: str = ""):
        self.rules, self.game, self.agent_names = rules, game, agents
        self.seed, self.params, self.names = seed, params, names
        self.screen, self.ask, self.quiet = screen, ask, quiet
        self.source = source or rules.name
        self.humans = [i for i, a in enumerate(agents) if a == "human"]
        self.agents = [HumanAgent() if a == "human" else make_agent(a, seed=seed * 1000 + i)
                       for i, a in enumerate(agents)]
        self.chosen_by: list[int] = []      # who made each choice of the history
        self.last_human = None
        self.seen = len(game.state.log)     # log entries already narrated to the watcher
        self.seen_events = len(game.state.events)   # ... and events
        self.marks: dict = {}               # per person: the log entry from which they have not seen the story

    # the game loop -------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (0), or until the person quits (0) or input ends (1)."""
        # self.game is read afresh every turn: an undo replaces it with a replayed game
        while not self.game.is_over:
            game = self.game
            p = game.current_player
            if p in self.humans:
                outcome = self.human_turn(p)
                if outcome is not None:
                    return outcome
            else:
                agent = self.agents[p]
                game.apply(checked(agent.choose(Request(game, p)), game, agent))
                self.chosen_by.append(p)
                if not self.humans and not self.quiet:
                    self.watch()
        self.finish()
        return 0

    def watch(self) -> None:
        """Bots only: print what happened, as everyone sees it."""
        g = self.game.state
        lines = story(self.game, None, self.seen, marked=True, events_from=self.seen_events)
        self.seen, self.seen_events = len(g.log), len(g.events)
        for line in lines:
            self.screen.line(line)

    def human_turn(self, p: int):
        game = self.game
        if len(self.humans) > 1 and self.last_human not in (None, p):
            self.hand_over(p)
        since = self.mark(p)
        b = board(game, p, self.names, since)
        self.draw(b)
        from ..engine.refusal import explain_refusal
        prompt = Prompt(self.ask, self.screen.line, min(self.screen.width, 120), lambda: help_lines(self.rules),
                        undo=len(self.humans) == 1, why=lambda text: explain_refusal(self.game, text),
                        story=lambda: b["story"])
        try:
            choice = prompt.choose(b["decision"])
        except NoInput:
            print("no more input: the game was left unfinished", file=sys.stderr, flush=True)
            return 1
        if choice == QUIT:
            self.offer_save()
            return 0
        if choice == UNDO:
            self.undo(p)
            return None
        self.last_human = p
        try:
            game.apply(choice)
        except GameError as exc:
            if exc.location is None:
                self.screen.line(f" refused: {exc}")
            else:   # the ruleset's own text failed on this choice: not the player's doing, and told where
                self.screen.line(" the ruleset cannot play this choice; nothing changed:")
                for line in exc.render().splitlines():
                    self.screen.line(" " + line)
            return None
        self.chosen_by.append(p)
        self.marks[p] = len(game.state.log)
        return None

    def mark(self, p: int) -> int:
        """The log entry from which `p` has not seen the story yet."""
        return self.marks.get(p, max(0, len(self.game.state.log) - 8))

    def draw(self, b: dict) -> None:
        """The board with as many lines of story as fit above the prompt on a 24-line terminal."""
        from .screen import screen_lines
        fixed = len(screen_lines(b, 0, self.screen.width))
        room = max(1, SCREEN_LINES - PROMPT_LINES - fixed - 1)
        if self.screen.plain:
            self.screen.line("")
        self.screen.board(b, room)

    def hand_over(self, p: int) -> None:
        """Several people at one terminal: hide the last player's hand before the next one looks."""
        self.screen.clear()
        for _ in range(3 if not self.screen.plain else 0):
            self.screen.line("")
        name = self.names[p] if p < len(self.names) and self.names[p] else ""
        self.screen.line(f" Pass the terminal to P{p + 1}{f' ({name})' if name else ''}.", "bold")
        self.screen.line(" Press Enter when only they can see the screen.")
        try:
            self.ask("")
        except EOFError:
            raise NoInput() from None

    def undo(self, p: int) -> None:
        """Take back this person's last choice and the bots' choices after it (replayed from the seed), the cards
        this person cannot see dealt again: what they drew or glimpsed is not waiting for them (engine/redeal.py)."""
        history = self.game.state.history
        mine = [i for i, who in enumerate(self.chosen_by) if who == p]
        if not mine or len(self.chosen_by) != len(history):
            self.screen.line(" nothing to undo")
            return
        keep = mine[-1]
        self.game = undone(self.game, keep, p)
        self.chosen_by = self.chosen_by[:keep]
        self.screen.line(" undone: your last choice and the moves after it (the cards you cannot see are "
                         "shuffled again)")

    # the end, saving and resuming ------------------------------------------------
    def finish(self) -> None:
        b = board(self.game, self.humans[0] if len(self.humans) == 1 else None, self.names,
                  self.mark(self.humans[0]) if len(self.humans) == 1 else len(self.game.state.log))
        if self.humans:
            self.draw(b)
        else:
            self.screen.line("")
            names = {f"P{i + 1}": name for i, name in enumerate(b["names"])}
            for style, text in result_lines(b["result"], None, names):
                self.screen.line(text, style)

    def offer_save(self) -> None:
        try:
            answer = self.ask(" Save the game to a file? Type a file name (Enter: rulebook-save.json, "
                              "'no': do not save) ")
        except EOFError:
            answer = "no"
        answer = (answer or "").strip()
        if answer.lower() in ("n", "no"):
            self.screen.line(" left without saving")
            return
        path = Path(answer or "rulebook-save.json")
        try:
            path.write_text(json.dumps(self.saved(), ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            self.screen.line(f" cannot write {path}: {exc.strerror or exc}")
            return
        self.screen.line(f" saved; go on with: rulebook play --resume {path}")

    def saved(self) -> dict:
        return {"format": SAVE_FORMAT, "ruleset": self.source, "players": self.game.state.n,
                "seed": self.seed, "params": self.params, "agents": self.agent_names, "names": self.names,
                "chosen_by": self.chosen_by, "game": self.game.to_json()}


def read_saved(path: str, agents_given: bool = False) -> dict:
    """A saved game's file -> its data, every field checked; a file that is not one is a GameError that says
    why. A save is data: it may name the built-in agents only (code of one's own is named with --agents, by
    the person who runs it, never loaded from a file: `agents_given`, the save's agents are not used)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise GameError(f"cannot read {path}: {exc.strerror or exc}", "saved-game") from None
    except UnicodeDecodeError:
        raise GameError(f"{path} is not a saved game (not a text)", "saved-game") from None
    except ValueError as exc:
        raise GameError(f"{path} is not a saved game (not JSON: {exc})", "saved-game") from None
    except RecursionError:
        raise GameError(f"{path} is not a saved game (its JSON nests too deep)", "saved-game") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise GameError(f"{path} is not a saved game of rulebook", "saved-game")
    check_saved(path, data, agents_given)
    return data


# what a session's save holds, beside the game itself (checked by Game.from_json)
SAVED_FIELDS = {"ruleset": str, "players": int, "seed": int, "params": dict, "agents": list, "names": list,
                "chosen_by": list, "game": dict}


def check_saved(path: str, data: dict, agents_given: bool = False) -> None:
    """Refuse a session's save whose fields are missing or of the wrong kind, or that names code to run."""
    from ..agents.spec import AgentSpecError, parse_spec

    def damaged(what: str) -> GameError:
        return GameError(f"{path} is damaged: {what}", "saved-game")
    for key, kind in SAVED_FIELDS.items():
        if key not in data:
            raise damaged(f"it has no '{key}'")
        value = data[key]
        if type(value) is not kind:
            raise damaged(f"'{key}' must be {_KIND_WORDS[kind]}, not {type(value).__name__}")
    if not data["ruleset"]:
        raise damaged("'ruleset' names no ruleset")
    if not all(type(a) is str for a in data["agents"]) or len(data["agents"]) != data["players"]:
        raise damaged(f"'agents' must be {data['players']} agent names, one a seat")
    for text in data["agents"]:
        try:
            spec = parse_spec(text)
        except AgentSpecError as exc:
            raise damaged(f"'agents': {exc}") from None
        if spec.user and not agents_given:
            raise GameError(f"{path} names agent '{text}', code of your own: a saved game never loads code; "
                            f"to play with it, name it yourself with --agents", "saved-game")
    if not all(type(x) is str for x in data["names"]):
        raise damaged("'names' must be texts")
    if not all(type(x) is int and 0 <= x < data["players"] for x in data["chosen_by"]):
        raise damaged("'chosen_by' must be seats")


_KIND_WORDS = {str: "a text", int: "a whole number", dict: "a map", list: "a list"}
