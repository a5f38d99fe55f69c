"""The rules as a reference (`rulebook explain --detail`): a compiled ruleset -> a Markdown document of every zone, parameter, step, action and effect, the expressions as written."""
from __future__ import annotations

from pathlib import Path

from ..effects import EFFECTS
from ..effects.text import arg_in_words, code, flat, plain, words

# what one audience is shown, and what everyone is shown when owner and others see the same
LEVEL_WORDS = {"cards": "the cards", "top": "how many and the top card", "count": "how many",
               "none": "nothing, not even how many"}
SEES = {"cards": "everyone sees every card", "count": "everyone sees only how many cards",
        "top": "everyone sees how many cards and the top card",
        "none": "nobody sees anything, not even how many cards"}


# small text helpers --------------------------------------------------------------------------
def cell(value) -> str:
    """A value fit for a Markdown table cell."""
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return flat("" if value is None else value).replace("|", "\\|") or "—"


def table(header, rows) -> list[str]:
    """A Markdown table."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return out + ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]


# effects in words: each effect's own (its definition's `explain`, interpreter/effects/) ---------------
# effect name -> renderer(its value, the whole item) -> (sentence, [(heading or None, nested effects)])
RENDER = {name: cls.explain for name, cls in EFFECTS.items()}


def head(item) -> tuple[str, object, dict]:
    """An effect item -> (effect name, its value, the whole map)."""
    if isinstance(item, str):
        return item, None, {}
    name = next(k for k in item if k in RENDER)
    return name, item[name], item


def sentence(item) -> tuple[str, list]:
    """One effect -> its sentence and its nested groups [(heading or None, effects)]."""
    name, value, whole = head(item)
    return RENDER[name](value, whole)


def bullets(effects, depth: int = 0) -> list[str]:
    """A list of effects -> Markdown bullets, one per effect, nested for the effects inside it."""
    out, pad = [], "  " * depth
    for item in effects or []:
        text, groups = sentence(item)
        out.append(f"{pad}- {text}")
        for heading, inner in groups:
            if inner:
                out += ([f"{pad}- {heading}"] if heading else []) + bullets(inner, depth + 1)
    return out


def walk(effects):
    """Every effect of a list, with the effects inside them, depth first."""
    for item in effects or []:
        yield item
        for _, inner in sentence(item)[1]:
            yield from walk(inner)


# the document -----------------------------------------------------------------------------------
def flow_parts(data) -> tuple[dict, dict, dict]:
    """The flow, its round and the round's turn, each a map (empty when absent)."""
    flow = data.get("flow") or {}
    rnd = flow.get("round") or {}
    return flow, rnd, rnd.get("turn") or {}


def places(data):
    """Every effect list of the ruleset, with where it is, in reading order."""
    flow, rnd, turn = flow_parts(data)
    yield "the setup", data.get("setup")
    for name, spec in (data.get("procedures") or {}).items():
        yield f"procedure *{name}*", spec.get("do") if isinstance(spec, dict) else spec
    for name, spec in (data.get("actions") or {}).items():
        yield f"action `{name}`", (spec or {}).get("do")
    yield "the start of a round", rnd.get("start")
    yield "the start of a turn", turn.get("start")
    yield "the end of a turn", turn.get("end")
    yield "the end of a round", rnd.get("end")
    for entry in flow.get("ends") or []:
        yield "a game end", entry.get("do")


def found(data, effect) -> list[str]:
    """The places where an effect of this kind appears, each once, in reading order."""
    return list(dict.fromkeys(where for where, effects in places(data) for e in walk(effects) if head(e)[0] == effect))


def steps_of(data) -> list[dict]:
    """The turn's steps, each as a map (a bare action name becomes {actions: [name]})."""
    out = []
    for step in flow_parts(data)[2].get("steps") or []:
        step = {"actions": [step]} if isinstance(step, str) else dict(step)
        if isinstance(step.get("actions"), str):
            step["actions"] = [step["actions"]]
        step.setdefault("name", "/".join(step["actions"]))
        out.append(step)
    return out


def header(rules, data) -> list[str]:
    """The title, the description, the sources and the number of players."""
    out = [f"# {rules.title}", ""]
    if rules.text:
        out += [flat(rules.text), ""]
    chain = [Path(p).name for p in getattr(rules, "chain", []) or []]
    out.append(f"Ruleset `{rules.name}`" + (f", built on {' ← '.join(f'`{c}`' for c in chain)}."
                                           if len(chain) > 1 else "."))
    out.append("")
    if rules.sources:
        out += ["Sources:", ""] + [f"- {flat(s)}" for s in rules.sources] + [""]
    lo, hi = rules.min_players, rules.max_players
    out += ["## Players", "", f"{lo} players." if lo == hi else f"{lo} to {hi} players.", ""]
    return out


def components(rules, data) -> list[str]:
    """Per card type: a table of its distinct cards with their counts, and the total."""
    out = ["## Components", ""]
    specs = data.get("components") or {}
    for ctype, spec in specs.items():
        ids = [i for i, c in enumerate(rules.cards) if c["type"] == ctype]
        attrs = [a for a in rules.card_attrs if a != "type" and any(a in rules.cards[i] for i in ids)]
        groups: dict = {}
        for i in ids:
            key = tuple(rules.cards[i].get(a) for a in attrs)
            groups.setdefault(key, [rules.card_labels[i], 0])[1] += 1
        show_label = any(label not in map(str, key) for key, (label, _) in groups.items())
        where = f", starting in `{spec['in']}`" if spec.get("in") else ""
        out += [f"### `{ctype}`: {len(ids)} cards{where}", ""]
        if spec.get("text"):
            out += [flat(spec["text"]), ""]
        rows = [([label] if show_label else []) + list(key) + [n] for key, (label, n) in groups.items()]
        out += table((["card"] if show_label else []) + attrs + ["count"], rows) + [""]
        total = spec.get("total")
        if total is None:
            out.append(f"Total: {len(ids)} cards ({len(groups)} distinct).")
        elif total == len(ids):
            out.append(f"Total: {len(ids)} cards ({len(groups)} distinct), as declared (total {total}).")
        else:
            out.append(f"Total: the rows make {len(ids)} cards ({len(groups)} distinct), "
                       f"but the ruleset declares a total of {total}.")
        out.append("")
    return out


def zones(rules, data) -> list[str]:
    """The zones: kind, who sees what, notes; then the variables."""
    rows = []
    for z in rules.zones.values():
        if z.keys is not None:
            family = f"family with one zone per key: {', '.join(map(str, z.keys))} (`{z.name}[...]`)"
        elif isinstance(z.count, int):
            family = f"numbered family of {z.count} (`{z.name}[0]` to `{z.name}[{z.count - 1}]`)"
        elif z.count is not None:
            size = "the number of players" if z.count == "player_count" else f"`{z.count}`"
            family = f"numbered family of {size} zones (`{z.name}[0]`, `{z.name}[1]`, ...)"
        else:
            family = None
        if z.per_player:
            kind = "one per player" + (f", each a {family}" if family else "")
        else:
            kind = family or "shared"
        if z.per_player and z.owner_sees != z.others_see:
            sees = f"its owner sees {LEVEL_WORDS[z.owner_sees]}; the others see {LEVEL_WORDS[z.others_see]}"
        else:
            sees = SEES[z.others_see]
        notes = [flat(z.text)] if z.text else []
        if z.refill_from:
            notes.append(f"when short, `{z.refill_from}` is shuffled into it")
        if not z.ordered:
            notes.append("its order does not matter")
        rows.append([f"`{z.name}`", kind, sees, "; ".join(notes)])
    out = ["## Zones", ""] + table(["zone", "kind", "who sees what", "notes"], rows) + [""]
    for key, title in (("variables", "Game variables"), ("player_variables", "Variables of each player"),
                       ("card_variables", "Variables of each card")):
        if data.get(key):
            out += [f"{title}: " + ", ".join(variable(rules, key, k, v) for k, v in data[key].items()) + ".", ""]
    return out


def variable(rules, section, name, value) -> str:
    """One variable in words: where it starts, who sees it, what resets it."""
    if section == "card_variables":
        spec = rules.card_vars[name]
        notes = [] if spec.keep else ["back to it when the card changes zone"]
        if spec.visible == "public":
            notes.append("seen by everyone even on a hidden card")
    else:
        spec = rules.var_specs[name]
        notes = {"owner": ["seen only by its player"], "nobody": ["seen by nobody"]}.get(spec.visible, [])
        if spec.counter:
            notes.append("a counter for statistics")
    extra = "; ".join(notes)
    return f"`{name}` (starts at {plain(spec.value)}{'; ' + extra if extra else ''})"


def parameters(rules, data) -> list[str]:
    """The parameters: value (or table by player count), choices and note."""
    if not rules.params:
        return []
    rows = [[f"`{name}`", plain(value),
             ", ".join(plain(c) for c in rules.param_choices[name]) if name in rules.param_choices else None,
             rules.param_texts.get(name) or None]
            for name, value in rules.params.items()]
    return ["## Parameters", ""] + table(["parameter", "value", "choices", "note"], rows) + [""]


def setup(rules, data) -> list[str]:
    """The parameters that depend on the player count, per count; then the setup effects."""
    out = ["## Setup", ""]
    by_count = [n for n, v in rules.params.items() if isinstance(v, dict)]
    counts = range(rules.min_players, rules.max_players + 1)
    if by_count:
        out += ["By player count:", ""] + table(["players"] + [f"`{n}`" for n in by_count],
                                                 [[p] + [rules.params[n].get(p) for n in by_count] for p in counts])
    else:
        out.append(f"No parameter depends on the player count ({rules.min_players} to {rules.max_players} players).")
    out.append("")
    for ctype, spec in (data.get("components") or {}).items():
        out.append(f"- All {sum(c['type'] == ctype for c in rules.cards)} `{ctype}` cards start in `{spec['in']}`.")
    out += bullets(data.get("setup")) + [""]
    return out


def flow(rules, data) -> list[str]:
    """Who starts; a round's start; the steps of a turn; the end of a turn and of a round."""
    fl, rnd, turn = flow_parts(data)
    out = ["## Flow of play", ""]
    first = fl.get("first_player", 0)
    out.append(f"The first player is {seat(first)}.")
    out += ["", "### A round", ""]
    if "first_player" in rnd:
        out.append(f"Each round starts with {seat(rnd['first_player'])}.")
    else:
        out.append("Each round starts with the current player (the one whose turn ended the previous round).")
    if rnd.get("start"):
        out += ["", "When a round starts:", ""] + bullets(rnd["start"])
    out += ["", "Then players take turns until the round ends.", "", "### A turn", ""]
    if turn.get("start"):
        out += ["When a turn starts:", ""] + bullets(turn["start"]) + [""]
    out += ["The steps of a turn, in order:", ""]
    for i, step in enumerate(steps_of(data), 1):
        text = f"{i}. **{step['name']}**: " + words([f"`{a}`" for a in step["actions"]], "or") + "."
        if "players" in step:
            text += f" Simultaneous: each of {code(step['players'])} chooses at the same time; " \
                    "the choices then take effect one by one."
        if "player" in step:
            text += f" Chosen by {code(step['player'])}."
        if "if" in step:
            text += f" Only if {code(step['if'])}."
        if step.get("again") is True:
            text += " Offered again after each option taken, until the player passes."
        elif step.get("again") not in (None, False):
            text += f" Offered again after each option taken, at most {code(step['again'])} times."
        if step.get("priority") == "random":
            text += " Of those who acted, one drawn at random is applied."
        text += " Optional: a player may pass." if step.get("optional", step.get("again") not in (None, False)) else ""
        out.append(text)
    anytime = turn.get("anytime")
    if anytime:
        names = anytime if isinstance(anytime, list) else [anytime]
        out += ["", "At any decision of their own turn, the current player may also "
                + words([f"`{a}`" for a in names], "or") + "; that does not use up the step."]
    out += ["", "A step with no legal option is skipped."]
    if turn.get("end"):
        out += ["", "When a turn ends:", ""] + bullets(turn["end"])
    nxt = turn.get("next_player")
    out += ["", f"Then {code(nxt)} plays next." if nxt else "Then the next seat plays."]
    out += ["", "### The end of a round", ""]
    ends = rnd.get("ends") or []
    for entry in ends:
        out.append(f"- The round ends when {code(entry['when'])}" + reason(entry) + ".")
    ending = found(data, "end_round")
    if ending:
        out.append(f"- The round {'also ' if ends else ''}ends when an `end_round` effect runs, in {words(ending)}.")
    if not ends and not ending:
        out.append("- Nothing ends a round: the game is one long round.")
    if rnd.get("end"):
        out += ["", "When a round ends:", ""] + bullets(rnd["end"])
    return out + [""]


def seat(expr) -> str:
    """A player: a seat number as P1, P2...; an expression in backticks."""
    return f"P{expr + 1}" if isinstance(expr, int) and not isinstance(expr, bool) else code(expr)


def reason(entry) -> str:
    """` (reason)` unless the reason is only the condition's text."""
    r = entry.get("reason")
    return f" ({flat(r)})" if r and flat(r) != flat(entry["when"]) else ""


def actions(rules, data) -> list[str]:
    """Each action: its text, where it is offered, when it is legal, what is chosen, its effects."""
    out = ["## Actions", ""]
    offered = {}
    for step in steps_of(data):
        for a in step["actions"]:
            offered.setdefault(a, []).append(f"the step *{step['name']}*")
    for where, effects in places(data):
        for e in walk(effects):
            name, value, _ = head(e)
            if name == "choose" and "actions" in value:
                for a in value["actions"] if isinstance(value["actions"], list) else [value["actions"]]:
                    offered.setdefault(a, []).append(f"a choice in {where}")
    for name, spec in (data.get("actions") or {}).items():
        spec = spec or {}
        out += [f"### `{name}`", ""]
        if spec.get("text"):
            out += [flat(spec["text"]), ""]
        if name in offered:
            out.append("- Offered in " + words(list(dict.fromkeys(offered[name]))) + ".")
        if "when" in spec:
            out.append(f"- Legal when {code(spec['when'])}.")
        for arg, domain in (spec.get("args") or {}).items():
            out.append(f"- Choose {arg_in_words(arg, domain)}.")
        if "if" in spec:
            out.append(f"- Each option must satisfy {code(spec['if'])}.")
        if "label" in spec:
            out.append(f"- Shown as {code(spec['label'])}.")
        out += (["- Effects:"] + bullets(spec["do"], 1) if spec.get("do") else []) + [""]
    return out


def procedures(rules, data) -> list[str]:
    """Each procedure with its arguments and effects."""
    procs = data.get("procedures") or {}
    if not procs:
        return []
    out = ["## Procedures", ""]
    for name, spec in procs.items():
        args = spec.get("args") if isinstance(spec, dict) else None
        out += [f"### *{name}*" + (f" (with {words([f'`{a}`' for a in args])})" if args else ""), ""]
        out += bullets(spec.get("do") if isinstance(spec, dict) else spec) + [""]
    return out


def end_of_game(rules, data) -> list[str]:
    """The game's end conditions, the `end_game` effects, and the turn limit."""
    out = ["## End of the game", "", "After every turn the game's end conditions are checked, in order "
           "(then the round's), and again after every round, once the round's end effects are done "
           "(so the end of a round can end the game before another round starts):", ""]
    for entry in flow_parts(data)[0].get("ends") or []:
        win = f"winners are {code(entry['winners'])}" if "winners" in entry else "the scoring decides the winners"
        out.append(f"- When {code(entry['when'])}, the game ends{reason(entry)}: {win}."
                   + (" First:" if entry.get("do") else ""))
        out += bullets(entry.get("do"), 1)
    ending = found(data, "end_game")
    if ending:
        out.append(f"- The game also ends when an `end_game` effect runs, in {words(ending)}.")
    out.append(f"- When a turn would start after {rules.turn_limit} turns (the turn limit), the game stops as "
               "a stalled draw: nobody wins (the scores are still computed).")
    return out + [""]


def scoring(rules, data) -> list[str]:
    """The score parts, the total, the tie-breakers and shared wins."""
    spec = data.get("scoring") or {}
    out = ["## Scoring", ""]
    parts = spec.get("parts") or {}
    if not parts:
        return out + ["No score: only the winners named by an end of the game win; otherwise nobody does.", ""]
    out += ["Each player scores these parts:", ""] + [f"- **{n}**: {code(e)}" for n, e in parts.items()]
    out += ["", "The total is the sum of the parts. When the winners are not named, the highest total wins."]
    tbs = spec.get("tie_breakers") or []
    if tbs:
        out += ["", "Ties on the total are broken by, in order (highest wins):", ""]
        out += [f"{i}. {code(t)}" for i, t in enumerate(tbs, 1)]
    out += ["", "Players still tied share the win.", ""]
    return out


def bots(rules, data) -> list[str]:
    """The default bot and what a greedy bot maximises (`evaluate`, else the score parts)."""
    spec = data.get("agents") or {}
    out = ["## Bots", "", f"Bots play `{rules.default_agent or 'random'}` unless told otherwise."]
    if spec.get("evaluate"):
        out.append(f"A `greedy` bot tries each option one step ahead and keeps the one that maximises "
                   f"{code(spec['evaluate'])}; an `mcts` bot whose rollouts stop early scores the position "
                   "with it too.")
    elif rules.scoring.parts:
        out.append("A `greedy` bot tries each option one step ahead and keeps the one that maximises its "
                   "score total minus the best total of the others (the ruleset declares no `evaluate`).")
    else:
        out.append("Nothing scores a position (no `evaluate`, no score parts): the `greedy` bot cannot play "
                   "this game; `mcts` plays for the result.")
    return out + [""]


def display(rules, data) -> list[str]:
    """What the play screen shows: the zones in order and how, the variables shown, the live score."""
    d = rules.display
    if d is None:
        return []
    out = ["## What players see", ""]
    out.append("From the ruleset's `display:` section." if d.written else
               "The ruleset has no `display:` section; these are the defaults.")
    out.append("")
    rows = []
    for z in d.zones:
        how = "how many cards" if z.show == "count" else "the cards"
        if z.group is not None and z.show != "count":
            how += f", counted by {f'`{z.group}`' if z.group else 'label'}"
        if z.notes is not None:
            sample = next((n for n in z.notes if n), None)
            how += f", with a note such as \"{sample}\"" if sample else ""
        if not z.narrate:
            how += "; a player's moves between it and their own zones are not told in the story"
        rows.append([f"`{z.name}`", z.label, how])
    out += table(["zone", "title", "shown"], rows) + [""]
    shown = ", ".join(f"`{v}`" for v in d.variables) or "none"
    hidden = [f"`{v}`" for v in rules.var_specs if v not in d.variables]
    out.append(f"Variables shown: {shown}" + (f"; not shown: {', '.join(hidden)}." if hidden else "."))
    live = ", ".join(f"`{p}`" for p in d.scores) or "none (the score is shown at the end)"
    out.append(f"Score parts shown during play: {live}.")
    names = {k: v for k, v in d.names.items()}
    if names:
        out.append("Words shown for ids: " + ", ".join(f"`{k}` as \"{v}\"" for k, v in names.items()) + ".")
    return out + [""]


SECTIONS = (components, zones, parameters, setup, flow, actions, procedures, end_of_game, scoring, bots, display)


def explain_markdown(rules) -> str:
    """The rules of a compiled ruleset as a Markdown document."""
    data = rules.data
    out = header(rules, data)
    for section in SECTIONS:
        out += section(rules, data)
    return "\n".join(out).rstrip() + "\n"
