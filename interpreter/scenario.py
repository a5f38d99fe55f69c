"""Scenario files: a ruleset, a starting position and steps (choices, expectations), checked by playing them."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import load
from .engine.game import Game
from .engine.refusal import explain_refusal
from .engine.values import PLAYERS, Card, Player
from .errors import GameError, IllegalChoice, RulesetError, did_you_mean
from .expr.compiler import ExprError, compile_zone
from .source import read_file

TOP_KEYS = ("ruleset", "players", "seed", "params", "name", "setup", "steps")
SETUP_KEYS = ("current", "reservoir", "zones", "vars", "player_vars")
MATCHERS = ("sorted", "count", "includes", "excludes")
SEAT = re.compile(r"P(\d+)$")
SEAT_PREFIX = re.compile(r"P(\d+)\.")
REPEAT = re.compile(r"(.+?)\s*[*×]\s*(\d+)$")


@dataclass
class ScenarioResult:
    """How one scenario file went: its name, its path and its failures (none when it passed)."""

    name: str
    path: str
    failures: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class ScenarioError(Exception):
    """A mistake in a scenario file: the message, its data path, an offset into it, and whether the key is meant."""

    def __init__(self, message: str, path: tuple = (), offset: int = 0, key: bool = False):
        super().__init__(message)
        self.message, self.path, self.offset, self.key = message, tuple(path), offset, key


# the author's words ---------------------------------------------------------------------------

def seat(text, players: int, path: tuple = (), key: bool = True) -> int:
    """'P2' -> seat 1 (a mistake is located at the key of `path`, or at its value)."""
    m = SEAT.match(str(text))
    if not m or not 1 <= int(m.group(1)) <= players:
        raise ScenarioError(f"'{text}' is not a player: write P1 to P{players}", path, key=key)
    return PLAYERS[int(m.group(1)) - 1]


def players_prefix(text: str, players: int, path: tuple = ()) -> tuple[str, int]:
    """'P2.hand' -> ('players[1].hand', how many characters longer that is)."""
    m = SEAT_PREFIX.match(text)
    if not m:
        return text, 0
    spelled = f"players[{seat(text[:m.end() - 1], players, path)}]."
    return spelled + text[m.end():], len(spelled) - m.end()


def zone_slot(game: Game, key, me: int = 0, path: tuple = ()) -> int:
    """The state slot a zone key names: 'deck', 'row[1]', 'P1.hand', 'me.hand' ..."""
    text, shift = players_prefix(str(key), game.state.n, path)
    try:
        return compile_zone(text, game.rs.names)(game.state, {"me": me}, None)
    except ExprError as exc:
        try:
            if "not a zone" in exc.message:
                game.rs.expression(text)    # the expression compiler says which name is unknown
        except ExprError as better:
            exc = better
        raise ScenarioError(f"'{key}' is not a zone: {exc.message}", path, max(exc.offset - shift, 0), True) from None
    except (GameError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(str(exc), path, key=True) from None


def expand(items, path: tuple = ()) -> list:
    """A list of cards as written, where 'owl*3' (or 'owl × 3') stands for three owls."""
    if not isinstance(items, list):
        raise ScenarioError(f"expected a list of cards, not {show(items)}", path)
    out = []
    for item in items:
        m = REPEAT.match(item) if isinstance(item, str) else None
        if m and int(m.group(2)) > 10_000:
            raise ScenarioError(f"'{item}': that is more cards than a game has", path)
        out += [m.group(1)] * int(m.group(2)) if m else [item]
    return out


def card_ids(rules, spec, path: tuple = ()) -> list:
    """The ids of the cards a spec names: a label ('owl') or attributes they all have ({species: owl})."""
    if isinstance(spec, dict):
        found = [c for c, attrs in enumerate(rules.cards) if all(attrs.get(k) == v for k, v in spec.items())]
        hint = None
    else:
        found = [c for c, label in enumerate(rules.card_labels) if label == str(spec)]
        hint = did_you_mean(str(spec), rules.card_labels)
    if not found:
        what = f"has {show(spec)}" if isinstance(spec, dict) else f"is labelled '{spec}'"
        raise ScenarioError(f"no card {what}" + (f"; {hint}" if hint else ""), path)
    return found


def show(value) -> str:
    """A value as an author writes it: [a, b], true, none, {k: v}."""
    if isinstance(value, list):
        return "[" + ", ".join(map(show, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def spoken(game: Game, value, kind: str):
    """An engine value in the author's words: cards by label, players as P1, P2, and lists of them."""
    t = type(value)
    if t is Player or (kind == "player" and t is int):
        return f"P{value + 1}"
    if t is Card or (kind == "card" and t is int):
        return game.rs.card_labels[value]
    inner = {"players": "player", "cards": "card", "groups": "cards"}.get(kind)
    return [spoken(game, v, inner) for v in value] if isinstance(value, list) else value


def same(found, want) -> bool:
    """Equal as the author means it: true is not 1, and 'P2' is 1 where a variable holds a seat number."""
    if isinstance(found, list) and isinstance(want, list):
        return len(found) == len(want) and all(map(same, found, want))
    if isinstance(found, bool) or isinstance(want, bool):
        return type(found) is type(want) and found == want
    if type(found) is int and isinstance(want, str) and SEAT.match(want):
        return found == int(want[1:]) - 1
    return found == want


def mapping(value, path: tuple, keys, what: str) -> dict:
    """Check that a part of the file is a mapping (of these keys, unless keys is None)."""
    if not isinstance(value, dict):
        listed = "" if keys is None else f" of {', '.join(keys) or 'nothing'}"
        raise ScenarioError(f"{what} is a mapping{listed}", path)
    for key in value:
        if keys is not None and key not in keys:
            hint = did_you_mean(str(key), keys)
            raise ScenarioError(f"unknown key '{key}' in {what}" + (f" ({hint})" if hint else "")
                                + f"; the keys are: {', '.join(keys) or 'none'}", path + (key,), key=True)
    return value


# running one scenario -------------------------------------------------------------------------

class _Run:
    """One scenario being played: its parsed file, the game, and the failures found so far."""

    def __init__(self, source, result: ScenarioResult):
        self.source, self.result = source, result
        self.game = self.rules = None
        self.step = 0

    def fail(self, message: str) -> None:
        self.result.failures.append(f"step {self.step}: {message}")

    def where(self, exc: ScenarioError) -> str:
        """'file:line:col' of a ScenarioError, counting its offset into a key or a value."""
        if not exc.key:
            return str(self.source.location(exc.path, exc.offset))
        loc = self.source.location(exc.path, key=True)
        quoted = loc.source_line[loc.col - 1:loc.col] in ("'", '"')
        return f"{loc.file}:{loc.line}:{loc.col + quoted + exc.offset}"

    @property
    def me(self) -> int:
        d = self.game.decision
        return 0 if d is None else d.player

    # the game and its starting position --------------------------------------------------------
    def start(self, data) -> None:
        """Load the ruleset, start the game and arrange the starting position."""
        data = mapping(data, (), TOP_KEYS, "a scenario")
        self.result.name = str(data.get("name", self.result.name))
        name = data.get("ruleset")
        if not isinstance(name, str):
            raise ScenarioError("ruleset: give a bundled ruleset's name or a .yaml file", ("ruleset",))
        is_path = name.endswith((".yaml", ".yml")) or "/" in name
        try:
            self.rules = load(str(Path(self.source.file).parent / name) if is_path else name)
        except RulesetError as exc:
            d = exc.diagnostics[0]
            raise ScenarioError(f"the ruleset '{name}' does not load: " + (f"{d.location}: " if d.location else "")
                                + d.message + (f"; {d.hint}" if d.hint else ""), ("ruleset",)) from None
        players, seed, params = data.get("players", self.rules.min_players), data.get("seed", 0), data.get("params", {})
        for key, value, kind in (("players", players, int), ("seed", seed, int), ("params", params, dict)):
            if type(value) is not kind:
                raise ScenarioError(f"{key}: expected {'a whole number' if kind is int else 'a mapping'}", (key,))
        try:
            self.game = Game.new(self.rules, players, seed=seed, params=params)
        except GameError as exc:
            raise ScenarioError(str(exc), ("params",) if exc.code == "parameter" else ("players",)) from None
        if data.get("setup") is not None:
            self.setup(mapping(data["setup"], ("setup",), SETUP_KEYS, "setup"), ("setup",))

    def setup(self, spec: dict, path: tuple) -> None:
        """Arrange the starting position in the order written, then ask the pending decision again."""
        g = self.game.state
        if "current" in spec:
            self.make_current(seat(spec["current"], g.n, path + ("current",), key=False))
        for name, value in mapping(spec.get("vars", {}), path + ("vars",), tuple(g.vars), "vars").items():
            g.vars[name] = self.seat_value(g.vars[name], value, path + ("vars", name))
        pvars = mapping(spec.get("player_vars", {}), path + ("player_vars",), [f"P{i + 1}" for i in g.players],
                        "player_vars")
        for who, values in pvars.items():
            where = path + ("player_vars", who)
            for name, value in mapping(values, where, tuple(g.pvars), f"player_vars of {who}").items():
                p = seat(who, g.n, where)
                g.pvars[name][p] = self.seat_value(g.pvars[name][p], value, where + (name,))
        reservoir = None
        if "reservoir" in spec:
            reservoir = zone_slot(self.game, spec["reservoir"], self.me, path + ("reservoir",))
        placed = set()
        for key, want in mapping(spec.get("zones", {}), path + ("zones",), None, "zones").items():
            where = path + ("zones", key)
            slot = zone_slot(self.game, key, self.me, where)
            top = isinstance(want, dict)
            if top:
                mapping(want, where, ("top",), f"zone {key}")
                where, want = where + ("top",), want.get("top", [])
            wanted = [(s, card_ids(self.rules, s, where + (i,))) for i, s in enumerate(expand(want, where))]
            self.arrange(slot, wanted, top, reservoir, placed, where)
            placed.add(slot)
        try:
            self.game.reconsider()
        except GameError as exc:
            raise ScenarioError(f"the game stopped after this setup: {exc}", path) from None

    def seat_value(self, old, new, path: tuple):
        """A variable's new value; a player is written P1, P2 ... where the variable holds a seat number."""
        return seat(new, self.game.state.n, path, key=False) if type(old) in (int, Player) and isinstance(new, str) \
            else new

    def make_current(self, player: int) -> None:
        """Make `player` the current one: the frames of the turn that named the old one now name them."""
        g = self.game.state
        old, g.current = g.current, player
        for frame in g.stack:
            if frame[2].get("me") == old:
                frame[2]["me"] = player

    def arrange(self, slot: int, wanted: list, top: bool, reservoir, placed: set, path: tuple) -> None:
        """Give a zone these cards (or put them on its top), taken from their reservoir or a zone not arranged yet."""
        zones = self.game.state.zones
        home = {c: s for s, cards in self.rules.initial_cards.items() for c in cards}
        back = home.__getitem__ if reservoir is None else (lambda c: reservoir)
        if not top:
            if any(back(c) == slot for c in zones[slot]):
                raise ScenarioError("this zone is where its cards are kept: give only its top, as {top: [...]}", path)
            old, zones[slot] = zones[slot], []
            for c in old:
                zones[back(c)].append(c)
        chosen = []
        for text, ids in wanted:
            ids = set(ids)
            first = back(min(ids))
            order = [first] + [s for s in range(len(zones)) if s not in placed and s not in (slot, first)]
            for s in order + ([slot] if top else []):
                card = next((c for c in zones[s] if c in ids), None)
                if card is not None:
                    zones[s].remove(card)
                    chosen.append(card)
                    break
            else:
                raise ScenarioError(f"no free card {show(text)} is left: all {len(ids)} are placed already", path)
        zones[slot] = chosen + (zones[slot] if top else [])

    # the steps --------------------------------------------------------------------------------
    def run(self, steps) -> None:
        """Play the steps in order; stop at a choice that cannot be made."""
        if steps is None:
            return
        if not isinstance(steps, list):
            raise ScenarioError("steps: a list of choices (P1: label) and checks (expect: ...)", ("steps",))
        for i, step in enumerate(steps):
            self.step, path = i + 1, ("steps", i)
            if not isinstance(step, dict) or not step:
                raise ScenarioError("write 'P1: <option>' or 'expect: ...'", path)
            if "expect" in step:
                if len(step) > 1:
                    raise ScenarioError("'expect' is a step of its own", path)
                self.expect(step["expect"], path + ("expect",))
            elif not self.choose(step, path):
                return

    def choose(self, step: dict, path: tuple) -> bool:
        """Each player named chooses once, in the order the game asks them; false when the game cannot go on."""
        waiting = {seat(k, self.game.state.n, path + (k,)): k for k in step}
        if len(step) > 1 and any(isinstance(c, dict) and "illegal" in c for c in step.values()):
            raise ScenarioError("an illegal choice is a step of its own", path)
        while waiting:
            d = self.game.decision
            if d is None or d.player not in waiting:
                who, asked = next(iter(waiting.values())), None if d is None else f"P{d.player + 1}"
                self.fail(f"{who} chose, but the game is over" if d is None else
                          f"{who} chose, but the decision is {asked}'s" if len(step) == 1 else
                          f"the decision is {asked}'s, but this step has no choice for {asked}")
                return False
            key = waiting.pop(d.player)
            if not self.apply(key, step[key], d, path + (key,)):
                return False
        return True

    def apply(self, who: str, choice, d, path: tuple) -> bool:
        """Apply one player's choice: a label, {option: n} (counting from 1) or {illegal: label}."""
        if isinstance(choice, dict):
            if len(mapping(choice, path, ("option", "illegal"), f"{who}'s choice")) != 1:
                raise ScenarioError("give one of option or illegal", path)
            if "illegal" in choice:
                return self.refuse(who, str(choice["illegal"]), d)
            k = choice["option"]
            if type(k) is not int or not 1 <= k <= len(d.options):
                raise ScenarioError(f"{who} has no option {show(k)}: there are {len(d.options)}", path + ("option",))
            label = d.options[k - 1]
        else:
            label = str(choice)
            if label not in d.options:
                hint = did_you_mean(label, d.options)
                why = explain_refusal(self.game, label)
                raise ScenarioError(f"{who} has no option '{label}'" + (f" ({hint})" if hint else "")
                                    + (f" - {why}" if why else "")
                                    + "; the options are: " + "; ".join(d.options), path)
        try:
            self.game.apply(label)
        except GameError as exc:
            self.fail(f"{who}'s choice '{label}' stopped the game: {exc}")
            return False
        return True

    def refuse(self, who: str, label: str, d) -> bool:
        """An illegal choice must be refused and change nothing."""
        if label in d.options:
            self.fail(f"expected {who}'s choice '{label}' to be refused, but it is legal")
            return True
        before = self.game.to_json()
        try:
            self.game.apply(label)
        except IllegalChoice:
            pass
        if self.game.to_json() != before:
            self.fail(f"refusing {who}'s choice '{label}' changed the game")
        return True

    def expect(self, spec, path: tuple) -> None:
        """Check each expectation; a mismatch is a failure, and the steps go on."""
        game, result = self.game, self.game.result or {}
        for key, want in mapping(spec, path, None, "expect").items():
            where = path + (key,)
            if key == "decision":
                d = game.decision
                found = {"player": None, "prompt": None} if d is None else {"player": f"P{d.player + 1}",
                                                                              "prompt": d.prompt}
                for part, value in mapping(want, where, ("player", "prompt"), "decision").items():
                    self.compare(f"decision.{part}", value, found[part], where + (part,))
            elif key in ("options", "over"):
                self.compare(key, want, list(game.legal_options()) if key == "options" else game.is_over, where)
            elif key in ("winners", "reason", "scores") and not game.is_over:
                self.fail(f"expected {key} = {show(want)}, but the game is not over")
            elif key in ("winners", "reason"):
                found = result["reason"] if key == "reason" else [f"P{w + 1}" for w in result["winners"]]
                self.compare(key, want, found, where)
            elif key == "scores":
                for who, parts in mapping(want, where, [f"P{i + 1}" for i in game.state.players], "scores").items():
                    row = result["scores"][seat(who, game.state.n)]
                    for part, value in (parts if isinstance(parts, dict) else {"total": parts}).items():
                        if part not in row:
                            raise ScenarioError(f"no score part '{part}': the parts are {', '.join(row)}",
                                                where + (who, part), key=True)
                        self.compare(f"scores.{who}.{part}", value, row[part], where + (who,))
            else:
                self.compare(key, want, self.evaluate(str(key), where), where)

    def evaluate(self, key: str, path: tuple):
        """An expression of the ruleset language ('P1.' may start it) in the author's words; `me` is the chooser."""
        text, shift = players_prefix(key, self.game.state.n, path)
        try:
            fn = self.rules.expression(text)
        except ExprError as exc:
            raise ScenarioError(f"bad expression '{key}': {exc.message}" + (f"; {exc.hint}" if exc.hint else ""),
                                path, max(exc.offset - shift, 0), key=True) from None
        try:
            return spoken(self.game, fn(self.game.state, {"me": self.me}, None), fn.kind)
        except (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            raise ScenarioError(f"'{key}' cannot be evaluated: {exc}", path, key=True) from None

    def compare(self, what: str, want, found, path: tuple) -> None:
        """One expectation: a value, or any of {sorted: [...], count: n, includes: [...], excludes: [...]}."""
        if not isinstance(want, dict):
            want = expand(want) if isinstance(want, list) else want
            if not same(found, want):
                self.fail(f"expected {what} = {show(want)}, found {show(found)}")
            return
        if not isinstance(found, list):
            raise ScenarioError(f"{what} is {show(found)}, not a list: {', '.join(MATCHERS)} do not apply", path)
        for how, value in mapping(want, path, MATCHERS, what).items():
            if how == "count":
                if len(found) != value:
                    self.fail(f"expected {what} to hold {show(value)}, found {len(found)}: {show(found)}")
                continue
            value, words = expand(value, path + (how,)), Counter(map(str, found))
            missing = list((Counter(map(str, value)) - words).elements())
            present = [v for v in value if str(v) in words]
            if how == "sorted" and not same(sorted(found, key=str), sorted(value, key=str)):
                self.fail(f"expected {what} in any order = {show(sorted(value, key=str))}, "
                          f"found {show(sorted(found, key=str))}")
            elif how == "includes" and missing:
                self.fail(f"expected {what} to include {show(missing)}, found {show(found)}")
            elif how == "excludes" and present:
                self.fail(f"expected {what} not to include {show(present)}, found {show(found)}")


# the public API -------------------------------------------------------------------------------

def run_scenario(path) -> ScenarioResult:
    """Play one scenario file; every problem, in the file or in the game, becomes a failure line."""
    result = ScenarioResult(Path(path).stem, str(path))
    try:
        source = read_file(path)
    except RulesetError as exc:
        result.failures += [f"{d.location}: {d.message}" if d.location else d.message for d in exc.diagnostics]
        return result
    run = _Run(source, result)
    try:
        run.start(source.data)
        run.run(source.data.get("steps", []))
    except ScenarioError as exc:
        result.failures.append(f"{run.where(exc)}: " + (f"step {run.step}: " if run.step else "") + exc.message)
    return result


def scenario_files(paths) -> list:
    """The files to run: each file given, and the .yaml files directly inside each folder given."""
    return [f for p in map(Path, paths) for f in (sorted(p.glob("*.yaml")) if p.is_dir() else [p])]


def run_scenarios(paths) -> tuple[list, int]:
    """Run scenario files and folders; the exit code is 0 when there were some and all passed, else 1."""
    results = [run_scenario(p) for p in scenario_files(paths)]
    if not results:
        results = [ScenarioResult("no scenarios", ", ".join(map(str, paths)), ["no scenario files were found"])]
    return results, 0 if all(r.passed for r in results) else 1


def format_results(results) -> str:
    """'PASS name' or 'FAIL name' with the failures indented below it, then 'N passed, M failed'."""
    lines = []
    for r in results:
        lines += [f"{'PASS' if r.passed else 'FAIL'} {r.name}"] + [f"    {f}" for f in r.failures]
    passed = sum(r.passed for r in results)
    return "\n".join(lines + [f"{passed} passed, {len(results) - passed} failed"])

