"""The rulebook (`rulebook explain RULESET`): a compiled ruleset -> a Markdown document a person can learn the game
from, in the sections a published rulebook has: overview and goal, components with counts, setup by player
count, a turn, each action in plain sentences, the end and scoring, an example of play from a seeded game,
and the sources.

Sentences come from the ruleset's own texts (its description, each action's `text:`) and from its rules put
into words (tell.py, phrases.py); a rule with no sentence form keeps its expression. The reference with
every expression as written is detail.py's (`--detail`).
"""
from __future__ import annotations

from ..effects.text import flat
from .detail import cell, found, steps_of, table, flow_parts
from .phrases import P, Phrases, an, plural
from .tell import Teller

# what a zone's owner and the others see, in a rulebook's words
SEEN = {"cards": "face up", "top": "face down but its top card face up", "count": "face down",
        "none": "out of sight"}


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A phrase as a sentence: a capital first, a full stop last."""
    text = cap(text.strip())
    return text if text.endswith((".", ":", "!", "?")) else text + "."


class Book:
    """The sections of one ruleset's rulebook."""

    def __init__(self, rules, example_seed: int | None = None):
        self.rs = rules
        self.data = rules.data
        self.ph = Phrases(rules)
        self.tell = Teller(self.ph)
        self.words = rules.display.words
        self.example_seed = example_seed
        self.me = {}

    def name(self, action: str) -> str:
        """An action's name for people: 'take_from_display' -> 'Take from display'."""
        return cap(self.words(action.replace("_", " ")))

    # the whole book -------------------------------------------------------------------------------------
    def markdown(self) -> str:
        import re
        body = []
        for section in (self.overview, self.components, self.setup, self.playing, self.actions, self.ending):
            body += section()
        procedures = self.procedures()   # after the others: the ones they told by name
        example = self.example()
        out = self.title() + body + procedures + self.options() + example + self.sources()
        return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).rstrip() + "\n"

    def title(self) -> list[str]:
        rs = self.rs
        lo, hi = rs.min_players, rs.max_players
        players = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
        return [f"# {rs.title}", "", f"*A game for {players}.*", ""]

    # overview and goal -------------------------------------------------------------------------------------
    def overview(self) -> list[str]:
        out = ["## Overview and goal", ""]
        if self.rs.text:
            out += [flat(self.rs.text), ""]
        goals, scored = [], []
        for entry in flow_parts(self.data)[0].get("ends") or []:
            when = self.ph.say(entry["when"], self.me, "cond")
            if "winners" in entry:
                goals.append(f"when {when}, the game ends and {self.winners(entry['winners'])}")
            else:
                scored.append(f"when {when}")
        if scored:
            goals.append("the game ends " + self.ph.items(scored, "or") + ", and then the highest score wins")
        parts = self.rs.scoring.parts
        if goals:
            out.append("**How to win.** " + sentence("; ".join(goals)))
            if parts and any("winners" not in e for e in flow_parts(self.data)[0].get("ends") or []):
                out[-1] += " How scores are counted: see *The end and scoring*."
        elif parts:
            out.append("**How to win.** Have the highest score when the game ends: see *The end and scoring*.")
        out.append("")
        return out

    def winners(self, expr) -> str:
        """'the current player wins', 'the players with the most cards in their collection win'."""
        try:
            p = self.ph.node_of(expr, self.me)
        except Exception:   # noqa: BLE001 - no words: the expression as written
            return f"{self.ph.say(expr, self.me)} win"
        return f"{p.text} {'wins' if p.kind == 'player' else 'win'}"

    # components ---------------------------------------------------------------------------------------------
    def components(self) -> list[str]:
        rs = self.rs
        out = ["## Components", ""]
        for ctype, spec in (self.data.get("components") or {}).items():
            ids = [i for i, c in enumerate(rs.cards) if c["type"] == ctype]
            attrs = [a for a in rs.card_attrs if a != "type" and any(a in rs.cards[i] for i in ids)]
            groups: dict = {}
            for i in ids:
                key = tuple(rs.cards[i].get(a) for a in attrs)
                groups.setdefault(key, [rs.card_labels[i], 0])[1] += 1
            noun = self.words(ctype.replace("_", " "))
            out += [f"**{len(ids)} {plural(noun, len(ids))}**" + (f": {flat(spec['text'])}" if spec.get("text") else ""),
                    ""]
            every = self.combinations(attrs, groups, spec.get("computed") or {})
            if every is not None:
                out += [every, ""]
                continue
            show_label = any(str(label) not in map(str, key) for key, (label, _) in groups.items())
            rows = [([self.words(label)] if show_label else []) + [self.words(str(v)) if v is not None and not
                                                                   isinstance(v, bool) else v for v in key] + [n]
                    for key, (label, n) in groups.items()]
            out += table(([noun] if show_label else []) + [self.words(a.replace("_", " ")) for a in attrs] + ["count"],
                         rows) + [""]
        shared = [z for z in rs.zones.values() if not z.per_player]
        own = [z for z in rs.zones.values() if z.per_player]
        if shared:
            out += ["**On the table:**", ""] + [f"- {self.zone_line(z)}" for z in shared] + [""]
        if own:
            out += ["**Each player has:**", ""] + [f"- {self.zone_line(z)}" for z in own] + [""]
        kept = self.variables()
        if kept:
            out += ["**Also kept during the game:**", ""] + [f"- {line}" for line in kept] + [""]
        return out

    def combinations(self, attrs: list, groups: dict, computed: dict) -> str | None:
        """'One card of every species (…), value (1 to 6) and sex (…)': the cards of a type when they are one of
        each combination of their attributes' values and a table would list them all (an attribute computed
        from the others is told by its rule); else None."""
        if len(groups) <= 12 or any(n != 1 for _, n in groups.values()):
            return None
        own = [i for i, a in enumerate(attrs) if a not in computed]
        values = [list(dict.fromkeys(key[i] for key in groups)) for i in own]
        size = 1
        for v in values:
            size *= len(v)
        if size != len(groups):
            return None

        def told(vs):
            if all(isinstance(v, int) and not isinstance(v, bool) for v in vs) and vs == list(range(vs[0], vs[0] + len(vs))):
                return f"{vs[0]} to {vs[-1]}"
            return ", ".join(self.words(str(v)) for v in vs)
        parts = [f"{self.words(attrs[i].replace('_', ' '))} ({told(v)})" for i, v in zip(own, values)]
        out = "One card of every " + self.ph.items(parts, "and") + "."
        for name, rule in computed.items():
            out += f" A card is *{self.words(name).replace('_', ' ')}* when " \
                   f"{self.ph.say(rule, {'it': P('it', 'card', poss='its')}, 'cond').replace('its ', 'its ', 1)}."
        return out

    def zone_line(self, z) -> str:
        """A zone in a sentence: what it is called, what it is for, and who sees what of it."""
        called = self.ph.display.called(z)
        if z.is_family:
            keys = self.ph.key_word(z)
            if keys:
                called = f"{an(called)} for each {keys}"
            elif isinstance(z.count, int):
                called = f"{called} 1 to {z.count}"
            else:
                size = "the number of players" if z.count == "player_count" else f"*{str(z.count).replace('_', ' ')}*"
                called = f"{called} 1, 2, … (as many as {size})"

        what = f" — {flat(z.text)}" if z.text else ""
        if z.per_player and z.owner_sees != z.others_see:
            sees = f"you see it {SEEN[z.owner_sees]}, the others see it {SEEN[z.others_see]}"
            if z.owner_sees == "cards" and z.others_see in ("count", "none"):
                sees = "only you see its cards" + ("; the others see how many" if z.others_see == "count" else "")
            elif z.owner_sees in ("count", "none") and z.others_see == "cards":
                sees = "everyone but you sees its cards"
        else:
            sees = {"cards": "face up", "top": "face down, its top card face up", "count": "face down",
                    "none": "out of sight, even how many"}[z.others_see]
        return f"**{called}**{what} ({sees})"

    def variables(self) -> list[str]:
        out = []
        for name, spec in self.rs.var_specs.items():
            who = "each player's " if spec.per_player else ""
            notes = []
            if spec.value not in (None, []):
                notes.append(f"starts at {self.ph.value(spec.value).text}")
            if spec.visible == "owner":
                notes.append("secret: only that player knows it")
            elif spec.visible == "nobody":
                notes.append("bookkeeping nobody sees")
            text = f" — {flat(spec.text)}" if spec.text else ""
            out.append(f"{who}*{self.words(name).replace('_', ' ')}*{text} ({'; '.join(notes)})" if notes
                       else f"{who}*{self.words(name).replace('_', ' ')}*{text}")
        return out

    # setup -----------------------------------------------------------------------------------------------------
    def setup(self) -> list[str]:
        rs = self.rs
        out = ["## Setup", ""]
        by_count = [n for n, v in rs.params.items() if isinstance(v, dict)]
        if by_count:
            counts = range(rs.min_players, rs.max_players + 1)
            out += ["By the number of players:", ""]
            out += table(["players"] + [n.replace("_", " ") for n in by_count],
                         [[p] + [self.ph.value(rs.params[n].get(p)).text if p in rs.params[n] else "—"
                                 for n in by_count] for p in counts]) + [""]
        for ctype, spec in (self.data.get("components") or {}).items():
            n = sum(c["type"] == ctype for c in rs.cards)
            z = rs.zones.get(spec.get("in"))
            where = self.ph.display.called(z) if z is not None else spec.get("in")
            noun = self.words(ctype.replace("_", " "))
            out.append(f"- All {n} {plural(noun, n)} start in {where}.")
        out += self.tell.lines(self.data.get("setup"), self.me)
        first = flow_parts(self.data)[0].get("first_player", 0)
        out += ["", sentence(f"{self.seat(first)} starts"), ""]
        return out

    def seat(self, expr) -> str:
        if isinstance(expr, int) and not isinstance(expr, bool):
            return "the first player" if expr == 0 else f"the player in seat {expr + 1}"
        return self.ph.say(expr, self.me)

    # playing -------------------------------------------------------------------------------------------------
    def playing(self) -> list[str]:
        fl, rnd, turn = flow_parts(self.data)
        out = ["## Playing", ""]
        rounds = bool(rnd.get("ends") or found(self.data, "end_round"))
        if not rounds and rnd.get("start"):
            out += ["Before the first turn:", ""] + self.tell.lines(rnd["start"], self.me) + [""]
        if rounds:
            out += ["The game is played in rounds.", ""]
            if "first_player" in rnd:
                out.append(sentence(f"each round starts with {self.seat(rnd['first_player'])}"))
            else:
                out.append("Each round starts with the player whose turn ended the round before.")
            out.append("")
            if rnd.get("start"):
                out += ["At the start of each round:", ""] + self.tell.lines(rnd["start"], self.me) + [""]
            out += ["Then the players take turns until the round ends (see *The end of a round*).", ""]
        out += ["### A turn", ""]
        if turn.get("start"):
            out += ["At the start of your turn:", ""] + self.tell.lines(turn["start"], self.me) + [""]
        steps = steps_of(self.data)
        out += ["On your turn, take these steps in order:" if len(steps) > 1 else "On your turn:", ""]
        for i, step in enumerate(steps, 1):
            out.append(f"{i}. " + self.step_line(step))
        anytime = turn.get("anytime")
        if anytime:
            names = anytime if isinstance(anytime, list) else [anytime]
            out += ["", "At any moment of your turn you may also " + self.ph.items([f"*{self.name(a)}*" for a in names], "or")
                    + "; that does not use up a step."]
        out += ["", "A step you cannot take is skipped."]
        if turn.get("end"):
            out += ["", "At the end of your turn:", ""] + self.tell.lines(turn["end"], self.me)
        nxt = turn.get("next_player")
        out += ["", sentence(f"then {self.ph.say(nxt, self.me)} plays next") if nxt
                else "Then the next player in seat order takes a turn.", ""]
        if rounds:
            out += ["### The end of a round", ""]
            for entry in rnd.get("ends") or []:
                reason = f" ({flat(entry['reason'])})" if entry.get("reason") else ""
                out.append(f"- The round ends when {self.ph.say(entry['when'], self.me, 'cond')}{reason}.")
            ending = self.callers(found(self.data, "end_round"))
            if ending:
                out.append(f"- The round {'also ' if rnd.get('ends') else ''}ends as told in "
                           + self.ph.items([self.place(w) for w in ending], "and") + ".")
            if rnd.get("end"):
                out += ["", "At the end of each round:", ""] + self.tell.lines(rnd["end"], self.me)
            out.append("")
        return out

    def callers(self, wheres: list[str]) -> list[str]:
        """Places, with a procedure the rulebook tells where it is called replaced by those places."""
        from .detail import head, places, walk
        out = []
        for where in wheres:
            name = where[len("procedure *"):-1] if where.startswith("procedure *") else None
            if name is None or name in self.tell.called:
                out.append(where)
                continue
            out += self.callers([w for w, effects in places(self.data) for e in walk(effects)
                                 if head(e)[0] == "call" and head(e)[1] == name and w != where])
        return list(dict.fromkeys(out))

    def place(self, where: str) -> str:
        """detail.py's name of a place ('action `corner`') as the rulebook calls it."""
        if where.startswith("action `"):
            return f"*{self.name(where[len('action `'):-1])}*"
        if where.startswith("procedure *"):
            return f"*{self.words(where[len('procedure *'):-1].replace('_', ' '))}*"
        return where

    def step_line(self, step: dict) -> str:
        names = step["actions"]
        notes = []
        if "players" in step:
            who = "everyone" if str(step["players"]).strip() == "players" else self.ph.say(step["players"], self.me)
            notes.append(f"{who}, all at once and in secret; the choices then take effect one after the other")
        if "player" in step:
            notes.append(f"chosen by {self.ph.say(step['player'], self.me)}")
        if "if" in step:
            notes.append(f"only if {self.ph.say(step['if'], self.me, 'cond')}")
        again = step.get("again")
        if again is True:
            notes.append("as many times as you like, until you pass")
        elif again not in (None, False):
            notes.append(f"up to {self.ph.say(again, self.me)} times")
        if step.get("priority") == "random":
            notes.append("of those who act, one drawn at random goes ahead")
        if step.get("optional", again not in (None, False)) and again in (None, False):
            notes.append("you may skip it")
        head = f"**{cap(self.words(str(step['name']).replace('_', ' ')))}**" + (f" ({'; '.join(notes)})" if notes else "")
        acts = self.data.get("actions") or {}
        if len(names) == 1 and (acts.get(names[0]) or {}).get("text"):
            return f"{head}: {flat(acts[names[0]]['text'])}"
        return f"{head}: " + self.ph.items([f"*{self.name(a)}*" for a in names], "or") + " (see *Actions*)."

    # actions -------------------------------------------------------------------------------------------------
    def actions(self) -> list[str]:
        out = ["## Actions", ""]
        offered: dict = {}
        for step in steps_of(self.data):
            for a in step["actions"]:
                offered.setdefault(a, []).append(f"in the step *{cap(self.words(str(step['name'])))}*")
        from .detail import head, places, walk
        for where, effects in places(self.data):
            for e in walk(effects):
                name, value, _ = head(e)
                if name in ("choose", "react") and isinstance(value, dict) and "actions" in value:
                    acts = value["actions"] if isinstance(value["actions"], list) else [value["actions"]]
                    for a in acts:
                        how = "out of turn" if name == "react" else "when a rule asks for it"
                        for place in self.callers([where]):
                            offered.setdefault(a, []).append(f"{how} (in {self.place(place)})")
        for name, spec in (self.data.get("actions") or {}).items():
            spec = spec or {}
            out += [f"### {self.name(name)}", ""]
            if spec.get("text"):
                out += [flat(spec["text"]), ""]
            if name in offered:
                out.append("- **Taken** " + self.ph.items(list(dict.fromkeys(offered[name])), "or") + ".")
            if "when" in spec:
                out.append(f"- **Only when** {self.ph.say(spec['when'], self.me, 'cond')}.")
            what, scope = self.tell.choices(spec.get("args"), self.me, spec.get("label", ""), spec.get("if"))
            if spec.get("args") and what:
                out.append(f"- **Choose** {what}.")
            if "if" in spec and "__pair__" not in scope:
                out.append(f"- **Allowed only if** {self.ph.say(spec['if'], scope, 'cond')}.")
            told = self.tell.lines(spec.get("do"), scope, 1)
            if told:
                out += ["- **Then:**"] + told
            out.append("")
        return out

    def procedures(self) -> list[str]:
        procs = self.data.get("procedures") or {}
        out, done = [], set()
        # telling one may name another: until none is left
        while any(n not in done for n in self.tell.called):
            for name in list(self.tell.called):
                if name in done:
                    continue
                done.add(name)
                spec = procs.get(name)
                body = spec.get("do") if isinstance(spec, dict) else spec
                scope = dict(self.me, **self.tell.proc_scope(name))
                out += [f"### {cap(self.words(name).replace('_', ' '))}", ""] + self.tell.lines(body, scope) + [""]
        return (["## Recurring steps", ""] + out) if out else []

    # the end and scoring ----------------------------------------------------------------------------------------
    def ending(self) -> list[str]:
        rs = self.rs
        out = ["## The end and scoring", ""]
        ends = flow_parts(self.data)[0].get("ends") or []
        if ends:
            out += ["The game ends:", ""]
            for entry in ends:
                reason = f" ({flat(entry['reason'])})" if entry.get("reason") else ""
                win = self.winners(entry["winners"]) if "winners" in entry else "the scores decide who wins"
                first = " First:" if entry.get("do") else ""
                out.append(f"- when {self.ph.say(entry['when'], self.me, 'cond')}{reason}: {win}.{first}")
                out += self.tell.lines(entry.get("do"), self.me, 1)
        ending = self.callers(found(self.data, "end_game"))
        if ending:
            out += ["", ("It also ends" if ends else "The game ends") + " as told in "
                    + self.ph.items([self.place(w) for w in ending], "and") + "."]
        if ends:
            out += ["", "These are checked after every turn and at the end of every round."]
        parts = rs.scoring.parts
        spec = self.data.get("scoring") or {}
        if parts:
            scored = [(name, self.part(text)) for name, text in (spec.get("parts") or {}).items()]
            if len(scored) == 1:
                name, told = scored[0]
                name = self.words(name).replace("_", " ")
                named = "" if f"*{name}*" in told else f" (*{name}*)"
                out += ["", f"**Scoring.** You score {told}{named}."]
            else:
                out += ["", "**Scoring.** You score:", ""] + [f"- *{self.words(n).replace('_', ' ')}*: {t}" for n, t in scored]
                out += ["", "Your score is the sum of these."]
            out.append("")
            out.append("When the end does not name the winners, the highest score wins.")
            tbs = spec.get("tie_breakers") or []
            if tbs:
                out += ["", "A tie is broken by, in order (the highest wins):", ""]
                out += [f"{i}. {cap(self.ph.say(t, self.me))}" for i, t in enumerate(tbs, 1)]
            out += ["", "Players still tied share the victory."]
        else:
            out += ["", "Nothing is scored: only the winners the end names win; otherwise nobody does."]
        out += self.glossary()
        out += ["", f"A game that reaches {rs.turn_limit} turns stops there, and nobody wins.", ""]
        return out

    def part(self, text) -> str:
        """A score part in words; a part that only calls a function of the ruleset is told as that function."""
        import re
        call = re.fullmatch(r"\s*([A-Za-z_]\w*)\(\s*\)\s*", str(text))
        if call and call.group(1) in self.ph.functions:
            spec = self.ph.functions[call.group(1)]
            body = spec.get("value") if isinstance(spec, dict) else spec
            return self.ph.say(body, self.me)
        return self.ph.say(text, self.me)

    def glossary(self) -> list[str]:
        """The ruleset's functions the sentences named, each in words where it has them."""
        out, done = [], set()
        while any(n not in done for n in self.ph.used_functions):
            for name in list(self.ph.used_functions):
                if name in done:
                    continue
                done.add(name)
                spec = self.ph.functions[name]
                body = spec.get("value") if isinstance(spec, dict) else spec
                args = (spec.get("args") if isinstance(spec, dict) else None) or []
                scope = dict(self.me, **{a: P(f"*{a}*", "value") for a in args})
                with_args = f" (of {self.ph.items([f'*{a}*' for a in args], 'and')})" if args else ""
                out.append(f"- *{name.replace('_', ' ')}*{with_args}: {self.ph.say(body, scope)}")
        return (["", "Where:", ""] + out) if out else []

    # options, example, sources -----------------------------------------------------------------------------------
    def options(self) -> list[str]:
        rs = self.rs
        rows = [(n, v) for n, v in rs.params.items() if n in rs.param_choices]
        if not rows:
            return []
        out = ["## Options", "", "These rules are played as below; a variant or `--param` may choose otherwise.", ""]
        for name, value in rows:
            others = [self.ph.value(c).text for c in rs.param_choices[name] if c != value]
            note = rs.param_texts.get(name)
            out.append(f"- **{name.replace('_', ' ')}**: {self.ph.value(value).text}"
                       + (f" (or {self.ph.items(others, 'or')})" if others else "")
                       + (f". {flat(note)}" if note else "."))
        return out + [""]

    def example(self) -> list[str]:
        from .example import example_of_play
        return example_of_play(self.rs, self.example_seed)

    def sources(self) -> list[str]:
        out = []
        if self.rs.sources:
            out = ["## Sources", ""] + [f"- {flat(s)}" for s in self.rs.sources] + [""]
        out += ["---", "", f"Written from the ruleset `{self.rs.name}` by rulebook. `rulebook explain {self.rs.name} "
                "--detail` gives the reference: every zone, parameter, step and effect with its expressions as "
                "written.", ""]
        return out


def rulebook_markdown(rules, example_seed: int | None = None) -> str:
    """The rulebook of a compiled ruleset, in Markdown."""
    return Book(rules, example_seed).markdown()


__all__ = ["Book", "rulebook_markdown", "cell"]
