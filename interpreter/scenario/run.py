"""Playing one scenario: its parsed file -> a game set up as written, its steps played, and the failures found."""
from __future__ import annotations

from pathlib import Path

from .. import load
from ..engine.game import Game
from ..present.log import entries, log_text
from ..engine.refusal import explain_refusal
from ..errors import GameError, IllegalChoice, RulesetError, did_you_mean
from .arrange import Table, situate
from .chance import Outcomes
from .expect import expect
from .forms import Forms
from .report import Failure
from .words import SEAT, ScenarioError, mapping, seat, show

TOP_KEYS = ("ruleset", "players", "seed", "params", "name", "setup", "steps")
STEP_KEYS = ("expect", "set", "random")


class _Run:
    """One scenario being played: its parsed file, the game, and the failures found so far."""

    def __init__(self, source, result):
        self.source, self.result = source, result
        self.game = self.rules = self.table = None
        self.step = 0
        self.log_start = 0        # the log lines that `log contains` reads start here
        self.log_read = False     # an expectation of this step read the log
        self.outcomes = None      # a `random:` step's outcomes, waiting for the next choice step

    def fail(self, message: str, path: tuple = ()) -> None:
        location = self.source.location(path) if path else None
        self.result.failures.append(Failure(f"step {self.step}: {message}", self.step, location))

    def where(self, exc: ScenarioError):
        """The Location of a ScenarioError, counting its offset into a key or a value."""
        if not exc.key:
            return self.source.location(exc.path, exc.offset)
        loc = self.source.location(exc.path, key=True)
        quoted = loc.source_line[loc.col - 1:loc.col] in ("'", '"')
        return type(loc)(loc.file, loc.line, loc.col + quoted + exc.offset, loc.source_line)

    @property
    def me(self) -> int:
        # the chooser only: the options' labels are not made for it (a label that fails is the step's
        # problem, told where options are read, not an expectation's)
        p = self.game.state.pending
        return 0 if p is None else int(p[1])

    def log_entries(self) -> list:
        """The log entries written since an expectation last read the log (text, or [readers, text])."""
        return entries(self.game)[self.log_start:]

    def log_lines(self) -> list:
        """Those entries as lines: a private line starts with who may read it, '(P1 only) ...'."""
        return [log_text(e) for e in self.log_entries()]

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
        self.table = Table(self.game)
        if data.get("setup") is not None:
            situate(self, data["setup"], ("setup",))
        self.log_start = len(self.game.state.log)

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
                raise ScenarioError("write 'P1: <option>', 'expect: ...', 'set: ...' or 'random: [...]'", path)
            kind = next((k for k in STEP_KEYS if k in step), None)
            if kind is not None and len(step) > 1:
                raise ScenarioError(f"'{kind}' is a step of its own", path)
            if self.outcomes is not None and kind is not None:
                raise ScenarioError(f"random: the outcomes are for the draws of the next step, which must be a "
                                    f"choice, not '{kind}'", self.outcomes.path)
            if kind == "expect":
                expect(self, step["expect"], path + ("expect",))
                if self.log_read:    # the next log expectation reads what comes after this one
                    self.log_start, self.log_read = len(self.game.state.log), False
            elif kind == "set":
                situate(self, step["set"], path + ("set",))
            elif kind == "random":
                self.outcomes = self.random(step["random"], path + ("random",))
            elif not self.choose(step, path):
                return
        if self.outcomes is not None:
            raise ScenarioError("random: the outcomes are for the draws of the next step, which must be a "
                                "choice, but there is none", self.outcomes.path)

    def random(self, entries, path: tuple) -> Outcomes:
        if not isinstance(entries, list) or not entries:
            raise ScenarioError("random: a list of outcomes, one per draw of the game's generator in the next "
                                "step (an item, or a list of items for a sample or a shuffle)", path)
        return Outcomes(self.game, entries, path)

    def choose(self, step: dict, path: tuple) -> bool:
        """Each player named chooses once, in the order the game asks them; false when the game cannot go on."""
        for k in step:
            if not SEAT.match(str(k)):
                hint = did_you_mean(str(k), STEP_KEYS)
                raise ScenarioError(f"unknown step '{k}'" + (f" ({hint})" if hint else "")
                                    + f": a step is P1: <option>, or one of {', '.join(STEP_KEYS)}", path + (k,),
                                    key=True)
        waiting = {seat(k, self.game.state.n, path + (k,)): k for k in step}
        if len(step) > 1 and any(isinstance(c, dict) and "illegal" in c for c in step.values()):
            raise ScenarioError("an illegal choice is a step of its own", path)
        outcomes, self.outcomes = self.outcomes, None
        if outcomes is not None:
            self.game.force_random(outcomes)
        try:
            while waiting:
                try:
                    d = self.game.decision
                except GameError as exc:   # a label of the ruleset that cannot be made
                    self.fail(f"the options of the decision cannot be shown: {exc}", path)
                    return False
                if d is None or d.player not in waiting:
                    who, asked = next(iter(waiting.values())), None if d is None else f"P{d.player + 1}"
                    self.fail(f"{who} chose, but the game is over" if d is None else
                              f"{who} chose, but the decision is {asked}'s" if len(step) == 1 else
                              f"the decision is {asked}'s, but this step has no choice for {asked}", path)
                    return False
                key = waiting.pop(d.player)
                if not self.apply(key, step[key], d, path + (key,)):
                    return False
        finally:
            if outcomes is not None:
                self.game.force_random(None)
        if outcomes is not None and outcomes.unused():
            draws = f"{outcomes.draws} time{'s' if outcomes.draws != 1 else ''}"
            self.fail(f"the random outcomes {show(outcomes.unused())} of step {self.step - 1} were not used: "
                      f"the game drew {draws} at random in this step", outcomes.path)
        return True

    def apply(self, who: str, choice, d, path: tuple) -> bool:
        """Apply one player's choice: a label, {option: n} (counting from 1) or {illegal: label}."""
        if isinstance(choice, dict):
            if len(mapping(choice, path, ("option", "illegal"), f"{who}'s choice")) != 1:
                raise ScenarioError("give one of option or illegal", path)
            if "illegal" in choice:
                return self.refuse(who, choice["illegal"], d, path + ("illegal",))
            k = choice["option"]
            if type(k) is not int or not 1 <= k <= len(d.options):
                raise ScenarioError(f"{who} has no option {show(k)}: there are {len(d.options)}", path + ("option",))
            label = d.options[k - 1]
        else:
            label = show(choice)
            if label not in d.options:
                hint = did_you_mean(label, d.options)
                why = explain_refusal(self.game, label)
                raise ScenarioError(f"{who} has no option '{label}'" + (f" ({hint})" if hint else "")
                                    + (f" - {why}" if why else "")
                                    + "; the options are: " + "; ".join(d.options), path)
        try:
            self.game.apply(label)
        except GameError as exc:
            self.fail(f"{who}'s choice '{label}' stopped the game: {exc}", path)
            return False
        return True

    def refuse(self, who: str, spec, d, path: tuple) -> bool:
        """An illegal choice must name an option form, be refused, change nothing, and give the reason expected."""
        because = None
        if isinstance(spec, dict):
            mapping(spec, path, ("option", "because"), "illegal")
            if "option" not in spec:
                raise ScenarioError("illegal: give the option, as {option: <label>, because: <text>}", path)
            because, spec, path = spec.get("because"), spec["option"], path + ("option",)
            if because is not None and not isinstance(because, str):
                raise ScenarioError("because: a text that the refusal's reason contains", path[:-1] + ("because",))
        label = show(spec)
        if label in d.options:
            self.fail(f"expected {who}'s choice '{label}' to be refused, but it is legal", path)
            return True
        problem = Forms(self.rules, self.game.state.n).problem(label, d.options)
        if problem:
            raise ScenarioError(problem, path)
        why = explain_refusal(self.game, label)
        before = self.game.to_json()
        try:
            self.game.apply(label)
        except IllegalChoice:
            pass
        if self.game.to_json() != before:
            self.fail(f"refusing {who}'s choice '{label}' changed the game", path)
        if because is not None and because not in why:
            self.fail(f"expected the refusal of {who}'s choice '{label}' to say '{because}', but "
                      + (f"it says: {why}" if why else "the game gives no reason"), path[:-1] + ("because",))
        return True
