"""Agents: a player's view and the legal options -> the index of a choice (random, first, human)."""
from __future__ import annotations

import json
import random

import click

from .errors import GameError


class Request:
    """What an agent is shown for one decision. The view and the labels are computed only when read."""

    __slots__ = ("_game", "player", "count", "_view", "_decision")

    def __init__(self, game, player: int):
        self._game = game
        self.player = player
        self.count = game.option_count()
        self._view = None
        self._decision = None

    @property
    def view(self) -> dict:
        """Everything this player may see (see Game.view)."""
        if self._view is None:
            self._view = self._game.view(self.player)
        return self._view

    def option_values(self, rng) -> dict:
        """How good each option is for this player one step ahead, by the ruleset's `evaluate`,
        in a world where the cards this player cannot see are dealt again at random."""
        from .engine.lookahead import option_values
        return option_values(self._game, self.player, rng)

    def why_not(self, text: str) -> str:
        """Why `text` is not a legal option now (the condition that failed, with its values), or ''."""
        from .engine.refusal import explain_refusal
        return explain_refusal(self._game, text)

    @property
    def has_evaluation(self) -> bool:
        return self._game.rs.evaluate is not None

    @property
    def options(self) -> tuple:
        if self._decision is None:
            self._decision = self._game.decision
        return self._decision.options

    @property
    def prompt(self) -> str:
        if self._decision is None:
            self._decision = self._game.decision
        return self._decision.prompt


class Agent:
    """Chooses an option index for a Request."""

    name = "agent"

    def choose(self, request: Request) -> int:  # pragma: no cover - every agent overrides
        raise NotImplementedError


class RandomAgent(Agent):
    """Uniformly random legal options, from its own seeded generator (never the game's)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, request: Request) -> int:
        return self.rng.randrange(request.count)


class GreedyAgent(Agent):
    """One step of lookahead: the option whose result the ruleset's `evaluate` likes best (ties
    broken at random; at most 8 options, sampled, are tried), in a world where the cards it cannot
    see are dealt again at random; plays at random where the ruleset declares no evaluation."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, request: Request) -> int:
        if request.count == 1:
            return 0
        if not request.has_evaluation:
            return self.rng.randrange(request.count)
        values = request.option_values(self.rng)
        best = max(values.values())
        return self.rng.choice([i for i, v in values.items() if v == best])


class FirstAgent(Agent):
    """Always the first legal option: a deterministic baseline."""

    name = "first"

    def choose(self, request: Request) -> int:
        return 0


class HumanAgent(Agent):
    """A person at the terminal: shows their view and numbered options, asks until the answer is valid."""

    name = "human"

    def __init__(self, input_fn=None, output_fn=None):
        self.input = input_fn or _read_answer
        self.output = output_fn or click.echo

    def choose(self, request: Request) -> int:
        out = self.output
        out("")
        out(render_view(request.view))
        out(f"P{request.player + 1}, {request.prompt}:")
        for i, label in enumerate(request.options, 1):
            out(f"  {i:>2}. {label}")
        while True:
            try:
                answer = self.input(f"choose 1-{request.count} (or a label)")
            except (EOFError, click.Abort):
                raise GameError("no more input: the game was left unfinished", "aborted") from None
            except KeyboardInterrupt:
                out("")
                raise GameError("interrupted (Ctrl-C): the game was left unfinished", "aborted") from None
            answer = (answer or "").strip()
            # a number in decimal digits ('²' is a digit to Python but no number int() reads)
            if answer.isdecimal() and len(answer) <= 9 and 1 <= int(answer) <= request.count:
                return int(answer) - 1
            matches = [i for i, label in enumerate(request.options) if label == answer]
            if not matches:
                matches = [i for i, label in enumerate(request.options) if label.startswith(answer)] if answer else []
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                out(f"'{answer}' matches {len(matches)} options; type more of it or a number.")
            else:
                why = request.why_not(answer) if answer and not answer.isdecimal() else ""
                out(f"'{answer}' is not an option" + (f" - {why}" if why else "")
                    + f": type a number from 1 to {request.count}.")


def _read_answer(prompt: str) -> str:
    """A line typed at the terminal: EOFError when the input ends, KeyboardInterrupt on Ctrl-C (told
    apart, where click's prompt makes both an Abort)."""
    return input(f"{prompt}: ")


def render_view(view: dict) -> str:
    """A compact text rendering of a view for the terminal."""
    lines = [f"round {view['round']}, turn {view['turn']} - {view['current']} to play (you are {view['player']})"]
    for name, zone in view["zones"].items():
        lines.append(f"  {name}: {_zone_text(zone)}")
    for name, value in view.get("vars", {}).items():
        lines.append(f"  {name} = {_value_text(value)}")
    for name, table in view.get("player_vars", {}).items():
        lines.append(f"  {name}: " + ", ".join(f"{p} {_value_text(v)}" for p, v in table.items()))
    return "\n".join(lines)


def _value_text(value) -> str:
    if isinstance(value, dict) and value.get("hidden"):
        return "?"
    return json.dumps(value) if not isinstance(value, str) else value


def _card_text(card) -> str:
    """A card as shown: its label, with its variables (other than their defaults) in brackets."""
    if isinstance(card, dict):
        extra = ", ".join(f"{k} {_value_text(v)}" for k, v in card.items() if k != "card" and v not in (None, 0, [], False))
        return f"{card['card']} [{extra}]" if extra else str(card["card"])
    return str(card)


def _zone_text(zone) -> str:
    if isinstance(zone, dict) and zone.get("hidden"):
        known = zone.get("known")
        return "(hidden)" + (f", you know: {', '.join(_card_text(c) for _, c in known)}" if known else "")
    if isinstance(zone, dict) and "count" in zone:
        top = f", top: {_card_text(zone['top'][0])}" if zone.get("top") else ""
        known = zone.get("known")
        seen = f", you know: {', '.join(f'#{i + 1} {_card_text(c)}' for i, c in known)}" if known else ""
        return f"{zone['count']} cards{top}{seen}"
    if isinstance(zone, dict):
        return "; ".join(f"{p}: {_zone_text(z)}" for p, z in zone.items())
    if zone and (isinstance(zone[0], list) or isinstance(zone[0], dict) and "card" not in zone[0]):
        return " | ".join(f"[{_zone_text(z)}]" for z in zone)
    return ", ".join(_card_text(c) for c in zone) if zone else "(empty)"


AGENTS = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "human": HumanAgent}


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by name; a seeded one where it uses randomness."""
    if name in ("random", "greedy"):
        return AGENTS[name](seed)
    if name in AGENTS:
        return AGENTS[name]()
    raise GameError(f"unknown agent '{name}' (agents: {', '.join(AGENTS)})", "agent")


def play(game, agents) -> dict:
    """Drive a game to its end with one agent per seat; return its result."""
    while not game.is_over:
        player = game.current_player
        game.apply(agents[player].choose(Request(game, player)))
    return game.result
