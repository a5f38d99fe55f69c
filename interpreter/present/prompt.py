"""Ask a person at the terminal for a choice: a board's decision + typed answers -> an option index, or a command.

A short list is shown whole and numbered. A long one is chosen in steps, part by part (see
present/steps.py), and typing text filters the options. `help` (or `?`) shows a summary of the rules
and the commands and leaves the menu where it was, `all` lists every legal option, `back` goes one
step back (from that list, to the steps), `quit` and `undo` are returned to the caller; `log` shows the whole story since the player's last move.
"""
from __future__ import annotations

import textwrap

from .steps import next_step, narrow

SHORT = 9          # at most this many options are listed whole
QUIT, UNDO = "quit", "undo"
COMMANDS = {"quit": QUIT, "q": QUIT, "exit": QUIT, "undo": UNDO, "u": UNDO}


class NoInput(Exception):
    """The input ended (a closed pipe, Ctrl-D): nobody is there to choose."""


def layout(items: list[str], width: int) -> list[str]:
    """Numbered items laid out in lines no wider than `width`: '1 red ×3   2 blue ×2 ...'."""
    lines, cur = [], ""
    for i, text in enumerate(items, 1):
        cell = f"{i} {text}"
        if cur and len(cur) + 3 + len(cell) > width:
            lines.append(cur)
            cur = ""
        cur = f"{cur}   {cell}" if cur else " " + cell
    if cur:
        lines.append(cur)
    return lines


class Prompt:
    """One decision asked in steps. `ask(text)` reads a line; `say(text)` writes one."""

    def __init__(self, ask, say, width: int = 100, help_lines=None, undo: bool = True, why=None, story=None):
        self.ask, self.say, self.width = ask, say, width
        self.story = story or (lambda: [])   # the story since the player's last move, for 'log'
        self.why = why or (lambda text: "")   # why a text is not a legal option now, or 
        self.help_lines = help_lines or (lambda: [])
        self.undo = undo

    def choose(self, decision: dict):
        """The index of the option chosen, or QUIT / UNDO."""
        options = decision["options"]
        labels = [o["label"] for o in options]
        parts = [o["parts"] for o in options]
        chosen: list[str] = []
        shown: list[int] | None = None     # options listed whole (a short list, or a filter's matches)
        listing = False                    # shown is every option, asked for with 'all'
        extra = "help · quit" + (" · undo" if self.undo else "")
        while True:
            left = narrow(parts, chosen)
            if shown is None and (len(options) <= SHORT or not next_step(parts, chosen)):
                shown = left
            if shown is not None:
                if len(shown) == 1 and chosen:
                    return shown[0]
                items = [labels[i] for i in shown]
                title = decision["prompt"]
            else:
                items = next_step(parts, chosen)
                title = decision["prompt"] + (" — " + " ".join(chosen) if chosen else "") + " — which?"
            self.say(f" {title}   ({extra}{' · back' if chosen or listing or (shown is not None and shown != left) else ''})")
            for line in layout(items, self.width):
                self.say(line)
            try:
                answer = self.ask("> ")
            except (EOFError, KeyboardInterrupt) as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                raise NoInput() from None
            answer = (answer or "").strip()
            low = answer.lower()
            if not answer:
                continue
            if low in COMMANDS:
                if COMMANDS[low] == UNDO and not self.undo:
                    self.say(" undo is for games against bots (with one person at the table)")
                    continue
                return COMMANDS[low]
            if low in ("help", "?", "h"):
                # the rules and the commands, wrapped to the screen; the menu stays where it was
                for line in self.help_lines():
                    for part in textwrap.wrap(line, self.width, subsequent_indent="    ") or [""]:
                        self.say(part)
                hint = (" Type a number, or part of an option to narrow the list; 'all' lists every option, "
                        "'back' goes one step back, 'log' shows what happened since your last move"
                        + (", 'undo' takes back your last move" if self.undo else "")
                        + ", 'quit' leaves.")
                for part in textwrap.wrap(hint, self.width, subsequent_indent=" "):
                    self.say(part)
                continue
            if low in ("log", "story"):
                self.say(" What happened since your last move:")
                for line in self.story() or ["(nothing yet)"]:
                    for part in textwrap.wrap(line, self.width - 2, initial_indent="  ", subsequent_indent="    ") or [""]:
                        self.say(part)
                continue
            if low in ("all", "options"):
                self.say(" Your options now:")
                for i, label in enumerate(labels, 1):
                    self.say(f"  {i:>2}. {label}")
                self.say(" Type a number from this list, or part of an option; 'back' returns to the steps.")
                shown = list(range(len(labels)))
                chosen = []
                listing = True
                continue
            if low in ("back", "b"):
                if listing:   # from the list of every option, back to the steps
                    listing, shown = False, None
                elif shown is not None and shown != left and len(options) > SHORT:
                    shown = None
                elif chosen:
                    chosen.pop()
                    shown = None
                continue
            # decimal digits only: '²' is a digit to Python but no number int() reads
            if answer.isdecimal() and len(answer) <= 9:
                k = int(answer)
                if 1 <= k <= len(items):
                    if shown is not None:
                        return shown[k - 1]
                    chosen.append(items[k - 1])
                    if len(narrow(parts, chosen)) == 1:
                        return narrow(parts, chosen)[0]
                    continue
                self.say(f" '{answer}' is not an option: type a number from 1 to {len(items)}.")
                continue
            # text: an exact label, else the options whose label contains it
            pool = shown if shown is not None else left
            exact = [i for i in pool if labels[i].lower() == low]
            matches = exact or [i for i in pool if low in labels[i].lower()]
            if len(matches) == 1:
                return matches[0]
            if not matches:
                why = self.why(answer)
                self.say(f" '{answer}' is not an option" + (f" - {why}" if why else "")
                         + "; type a number, part of an option, 'help' or 'back'.")
                continue
            shown = matches
