"""Draw a board on a terminal: a board (present/board.py) -> lines of text, in colour with rich or plain.

The screen fits a 24-line terminal: a header, the shared zones, one line per player, the last
events, then the prompt (present/prompt.py), which chooses a long list of options in steps.
"""
from __future__ import annotations

import re

from .board import cards_text
from .text import clean

STORY_ON_SCREEN = 4
# the lines of the story that say who did what (a choice, a reaction) and where a round or the game turned
HEADLINE = re.compile(r"^(turn \d+ |round \d+|game over)|reacts first: ")


def fitted(lines: list[str], room: int) -> tuple[list[str], int]:
    """The lines of the story that fit in `room`, and how many were left out: when they do not all fit, every
    choice and every round's end and start first (the move that ended a round is never cut for the deal
    that followed it), then the other lines, the latest first; in the order they happened."""
    if room <= 0:
        return [], len(lines)
    if len(lines) <= room:
        return list(lines), 0
    heads = [i for i, line in enumerate(lines) if HEADLINE.search(line)]
    keep = set(heads[-room:])
    for i in range(len(lines) - 1, -1, -1):
        if len(keep) >= room:
            break
        keep.add(i)
    return [lines[i] for i in sorted(keep)], len(lines) - len(keep)


def wrapped(head: str, items: list[str], width: int, sep: str = " · ") -> list[str]:
    """`head` then the items joined by `sep`, continued on indented lines rather than cut at `width`."""
    lines, cur = [], head
    for i, item in enumerate(items):
        piece = item if i == 0 else sep + item
        if len(cur) + len(piece) > width and cur.strip() and cur != head:
            lines.append(cur.rstrip())
            cur = " " * len(head) + item
        else:
            cur += piece
    lines.append(cur)
    return lines


def screen_lines(b: dict, story_lines: int = STORY_ON_SCREEN, width: int = 100) -> list[tuple[str, str]]:
    """The board as (style, text) lines; style is a rich style name or '' (plain text ignores it)."""
    out = []
    me = b["seat"]
    who = f" · you are {me}" + (f" ({b['names'][int(me[1:]) - 1]})" if me and b["names"][int(me[1:]) - 1] != me else "") \
        if me else " · watching"
    piles = " · ".join(f"{p['label']} {p['count'] if p['count'] is not None else '?'}" for p in b["piles"])
    vars_ = " · ".join(f"{v['name']} {v['value']}" for v in b["vars"])
    head = f"{b['title']} · round {b['round']} · turn {b['turn']}{who}"
    if b.get("together") and not b.get("result"):
        head += " · all choose at once"
    tail = " · ".join(x for x in (piles, vars_) if x)
    if tail and len(head) + 2 + len(tail) > width:   # too long for one line: the piles go on the next
        out.append(("bold", head))
        out.append(("", " " + tail))
    else:
        gap = max(2, width - len(head) - len(tail))
        out.append(("bold", head + " " * gap + tail if tail else head))
    for z in b["zones"]:
        members = z["members"]
        if len(members) == 1 and members[0]["key"] is None:
            out.append(("", f" {z['label']:<12} {cards_text(members[0])}"))
            continue
        one = f" {z['label']:<12} " + "   ".join(f"{m['key']}: {cards_text(m)}" for m in members)
        if len(one) <= width - 2:
            out.append(("", one))   # short members (one card each, say) share a line
            continue
        out.append(("bold cyan", f" {z['label']}"))
        for m in members:
            out.append(("", f"  {m['key']:>2}  {cards_text(m)}"))
    seats = sorted(b["seats"], key=lambda s: not s["you"])
    for s in seats:
        if not s["you"]:
            continue
        for z in s["zones"]:
            # your own private zones (a hand) get a line each; what everyone sees goes on the players' lines
            if own_line(z):
                for m in z["members"]:
                    title = f"Your {z['label']}" + (f" {m['key']}" if m["key"] is not None else "") + f" ({m['count']})"
                    for line in wrapped(f" {title:<16} ", cards_text(m).split(" · "), width):
                        out.append(("green", line))
    for s in seats:
        name = "you" if s["you"] else s["seat"]
        if s["name"] != s["seat"]:
            name += f" ({s['name']})"
        bits = []
        for z in s["zones"]:
            if s["you"] and own_line(z):
                continue   # shown on its own line above (a private zone you see only the count of stays here)
            for m in z["members"]:
                label = z["label"] + (f" {m['key']}" if m["key"] is not None else "")
                if m.get("groups") is None and m.get("cards") is None:
                    if m.get("hidden"):
                        continue
                    bits.append(f"{label} {m['count']}" + (f" (top {m['top']})" if m.get("top") else ""))
                else:
                    bits.append(f"{label} ({m['count']}): {cards_text(m)}")
        bits += [f"{v['name']} {v['value']}" for v in s["vars"]]
        bits += [f"{b.get('score_names', {}).get(k, k)} {v}" for k, v in s["scores"].items()]
        # whose move it is: the current player, or everyone a simultaneous decision asks
        now = s["seat"] in b["together"] if b.get("together") else b["current"] == s["seat"]
        style = "green" if s["you"] else ("yellow" if now else "")
        turn = " ◀" if now and not b.get("result") else ""
        for line in wrapped(f" {name:<8}{turn:<2} ", bits, width):
            out.append((style, line))
    lines, left_out = fitted(b["story"], story_lines - 1) if story_lines and len(b["story"]) > story_lines \
        else (b["story"][-story_lines:] if story_lines else [], 0)
    if lines:
        out.append(("dim", " Last: " + lines[0]))
        out += [("dim", "       " + line) for line in lines[1:]]
        if left_out:
            out.append(("dim", f"       (and {left_out} more line{'s' if left_out != 1 else ''}: type 'log')"))
    if b.get("result"):
        you = next((s["seat"] for s in seats if s["you"]), None)
        out += result_lines(b["result"], you, {s["seat"]: s["name"] for s in seats})
    return out


def own_line(z: dict) -> bool:
    """A zone of yours that the others cannot see, whose cards you see: it gets a line of its own."""
    return bool(z.get("private")) and any(m.get("cards") is not None or m.get("groups") is not None
                                          for m in z["members"])


def result_lines(r: dict, you: str | None = None, names: dict | None = None) -> list[tuple[str, str]]:
    """The end of the game: how it ended, who won (told to `you`, the seat of the person watching, as
    their result: "You win!"), and the scores, players by their names."""
    names = names or {}

    def who(seat: str) -> str:
        name = names.get(seat)
        return seat + (f" ({name})" if name and name != seat else "")

    out = [("bold", f" Game over after {r['turns']} turns ({r['rounds']} round{'s' if r['rounds'] != 1 else ''}): "
                    f"{r['reason']}.")]
    winners = r["winners"]
    others = [who(w) for w in winners if w != you]
    if you is not None and you in winners:
        out.append(("bold green", " You win!" if not others else f" You share the win with {', '.join(others)}."))
    elif you is not None:
        place = ""
        totals = [row.get("total") for row in r["scores"]]
        mine = totals[int(you[1:]) - 1] if you[1:].isdigit() and r["scores"] else None
        if isinstance(mine, (int, float)) and len(totals) > 1:
            rank = 1 + sum(1 for t in totals if isinstance(t, (int, float)) and t > mine)
            place = f" You finished {_ordinal(rank)} of {len(totals)}."
        won = ", ".join(others)
        out.append(("bold", (f" {won} win{'s' if len(others) == 1 else ''}." if others else " Nobody wins (a draw).")
                    + place))
    else:
        out.append(("bold green", " Winner" + ("s: " if len(winners) > 1 else ": ")
                    + (", ".join(who(w) for w in winners) or "nobody (a draw)")))
    parts = r["parts"]
    if parts:
        cols = parts + (["total"] if len(parts) > 1 else [])
        rows = [("you" if f"P{i + 1}" == you else who(f"P{i + 1}")) for i in range(len(r["scores"]))]
        width = max(8, *(len(x) for x in rows))
        shown = dict(zip(parts, r.get("part_names") or parts))
        out.append(("", f" {'player':<{width}} " + "  ".join(f"{shown.get(c, c):>10}" for c in cols)))
        for label, row in zip(rows, r["scores"]):
            out.append(("", f" {label:<{width}} " + "  ".join(f"{row[c]!s:>10}" for c in cols)))
    return out


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class Screen:
    """Writes lines to the terminal: with rich (colour, clearing) on a terminal, plain text otherwise."""

    def __init__(self, plain: bool, echo=None, width: int | None = None):
        self.plain = plain
        self.echo = echo
        self.console = None
        if not plain and echo is None:
            from rich.console import Console
            self.console = Console(highlight=False)
        self.width = width or (self.console.size.width if self.console is not None else 100)

    def clear(self) -> None:
        if self.console is not None:
            self.console.clear()

    def line(self, text: str = "", style: str = "") -> None:
        text = clean(text)   # a ruleset's or a player's text never steers the terminal
        if self.console is not None:
            from rich.text import Text
            self.console.print(Text(text, style=style or ""), soft_wrap=False, overflow="ellipsis", no_wrap=True)
        elif self.echo is not None:
            self.echo(text)
        else:
            print(text, flush=True)

    def board(self, b: dict, story_lines: int = STORY_ON_SCREEN) -> None:
        self.clear()
        for style, text in screen_lines(b, story_lines, min(self.width, 120)):
            self.line(text, style)
