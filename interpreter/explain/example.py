"""An example of play for the rulebook: a ruleset + a seed -> the table after the setup and the first turns of a
bot game told as a story, with every card named (Markdown lines)."""
from __future__ import annotations

from ..agents import Request, checked, make_agent
from ..agents.spec import agent_problem, parse_spec
from ..engine.game import Game
from ..present.narrate import ALL, story

EXAMPLE_SEED = 1
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana")
TURNS = 4            # turns told
MAX_CHOICES = 80     # however many choices a turn takes, the example stops here


def bots(rules) -> str:
    """The bots of the example: the ruleset's own, else greedy where a position can be scored, else random."""
    for spec in (rules.default_agent, "greedy", "random"):
        if spec and agent_problem(parse_spec(spec), rules) is None:
            return spec
    return "random"


def table_lines(game, names) -> list[str]:
    """Every zone the players are shown, with all its cards (the example hides nothing)."""
    rs, g = game.rs, game.state
    words, display = rs.display.words, rs.display
    out = []
    for zd in display.zones:
        z = rs.zones[zd.name]
        for slot, owner, key in g.layout.slots(z):
            if zd.members is not None and key is not None:
                shown = zd.members if isinstance(zd.members, int) else g.params.get(zd.members)
                if isinstance(shown, int) and isinstance(key, int) and key >= shown:
                    continue
            called = display.called(z, key)
            where = f"{names[owner]}'s {called}" if owner is not None else called
            cards = g.zones[slot]
            if zd.show == "count" or (owner is None and z.others_see != "cards"):   # a pile's order is no one's
                what = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
                if z.others_see == "top" and cards:
                    what += f", {words(rs.card_labels[cards[0]])} on top"
            else:
                what = ", ".join(words(rs.card_labels[c]) for c in cards) or "empty"
            out.append(f"- {where[:1].upper() + where[1:]}: {what}.")
    return out


def example_of_play(rules, seed: int | None = None) -> list[str]:
    """The section 'An example of play': who plays, the table after the setup, then a paragraph per turn."""
    seed = EXAMPLE_SEED if seed is None else seed
    n = rules.min_players
    names = list(NAMES[:n]) + [f"P{i + 1}" for i in range(len(NAMES), n)]
    spec = bots(rules)
    game = Game.new(rules, n, seed)
    agents = [make_agent(spec, seed * 1000 + i) for i in range(n)]
    g = game.state
    out = ["## An example of play", "",
           f"{_list(names)} play a game (bots, `{spec}`, seed {seed}: `rulebook play {rules.name} --players {n} "
           f"--seed {seed}` deals the same cards). Here every card is shown, hands too.", "",
           "After the setup:", ""] + table_lines(game, names) + [""]
    since, events_from = len(g.log), len(g.events)
    first_turn, choices = g.turn, 0
    while not game.is_over and choices < MAX_CHOICES and g.turn < first_turn + TURNS:
        p = game.current_player
        game.apply(checked(agents[p].choose(Request(game, p)), game, agents[p]))
        choices += 1
    lines = story(game, ALL, since, events_from=events_from, names=names)
    out += paragraphs(lines, first_turn + TURNS)
    if not game.is_over:
        out += ["And so on, until the game ends.", ""]
    return out


def _list(names) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def paragraphs(lines: list[str], stop_turn: int) -> list[str]:
    """The story as paragraphs: one per turn ('**Turn 3.** Ann: lay ... Ann takes ...'), one for a round's
    start and one for its end (what the end of a round does, in the turn that ended it), up to `stop_turn`."""
    out, current, turn = [], [], None

    def close():
        if current:
            out.extend([" ".join(current), ""])
            current.clear()
    for line in lines:
        words = line.split(" ", 2)
        if words[0] == "turn" and len(words) > 2 and words[1].isdigit():
            if int(words[1]) >= stop_turn:
                break
            if words[1] != turn:
                close()
                turn = words[1]
                current.append(f"**Turn {turn}.**")
            line = words[2]
        elif words[0] == "round" and len(words) > 2 and words[1].rstrip(":").isdigit():
            close()
            number, rest = words[1].rstrip(":"), words[2]
            if rest.startswith("ends: "):
                current.append(f"**End of round {number}** ({rest[len('ends: '):]}).")
                continue
            current.append(f"**Round {number}.**")
            line = rest
        current.append(_sentence(line))
    close()
    return out


def _sentence(line: str) -> str:
    line = line.strip()
    line = line[:1].upper() + line[1:]
    return line if line.endswith((".", "!", "?")) else line + "."
