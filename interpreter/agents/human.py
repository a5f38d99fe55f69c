"""The human agent: a Request -> the view and numbered options at the terminal -> the option the person types."""
from __future__ import annotations

import json

import click

from ..errors import GameError
from .base import Agent, Request


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
