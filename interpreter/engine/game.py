"""Run a ruleset: Ruleset + seed + player count -> a Game that stops at each decision and applies choices."""
from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import GameError, IllegalChoice, placed
from ..runtime.budget import MAX_OPTIONS, MAX_STEP_ITEMS, MAX_STEP_NODES, spend
from ..runtime.effects import MAX_STACK
from ..runtime.operators import in_function, translate
from ..runtime.values import ELEMENT, PLAYERS, Card, Player, as_players
from .limits import in_loop, over_nodes
from .records import cards_in, places, readers
from .state import State
from .view import told_format


@dataclass(frozen=True)
class Decision:
    """A pending decision: which player, what prompt, and the legal options with readable labels."""

    player: int
    prompt: str
    options: tuple  # labels, in the order the option indexes use
    # how many choices had been made when it was asked: names this decision, so that an answer meant
    # for an earlier one (late, or sent twice) can be told apart; a simultaneous decision keeps its number
    asked_at: int = 0

    def __len__(self):
        return len(self.options)


class Game:
    """A game in progress. Drive it with `decision`, `apply(index)`, `is_over` and `result`."""

    probing = False   # a lookahead copy: stop at the next decision without listing its options
    steps = MAX_STEP_NODES   # the nodes the step running now may still run (see `_run` and budget.py)

    def __init__(self, ruleset, state: State, record: bool = True):
        self.rs = ruleset
        self.state = state
        self.record = record
        self.probing = False
        self._choice_logs = []   # choices whose log line is finished once they have taken effect

    # creation -------------------------------------------------------------
    @classmethod
    def new(cls, ruleset, players: int, seed: int = 0, params: dict | None = None, record: bool = True) -> "Game":
        """Set up a new game and run it to its first decision."""
        rs = ruleset
        _check_ruleset(rs, "Game.new")
        if type(players) is not int:
            raise GameError(f"the number of players must be a whole number, not {players!r:.40}", "player-count")
        if type(seed) is not int:
            raise GameError(f"the seed must be a whole number, not {seed!r:.40}", "seed")
        if params is not None and not isinstance(params, dict):
            raise GameError(f"params must be a map of parameter names to values, not {params!r:.40}", "parameter")
        if not rs.min_players <= players <= rs.max_players:
            raise GameError(f"{rs.name} is for {rs.min_players} to {rs.max_players} players, not {players}",
                            "player-count")
        return cls._start(rs, players, seed, rs.resolve_params(players, params or {}), record)

    @classmethod
    def _start(cls, rs, players: int, seed: int, resolved_params: dict, record: bool) -> "Game":
        g = State()
        g.n, g.seed = players, seed
        g.players = list(PLAYERS[:players])
        g.params = resolved_params
        g.rng = random.Random(seed)
        g.layout = rs.layout(players, resolved_params)
        g.zbase = g.layout.base
        g.zones = [[] for _ in range(g.layout.total)]
        for slot, cards in rs.initial_cards.items():
            g.zones[slot].extend(cards)
        g.vars = {k: _fresh(v) for k, v in rs.global_vars.items()}
        g.pvars = {k: [_fresh(v) for _ in range(players)] for k, v in rs.player_vars.items()}
        g.cvars = {k: [_fresh(spec.value) for _ in rs.card_values] for k, spec in rs.card_vars.items()}
        g.current = PLAYERS[0]
        game = cls(rs, g, record)
        game.push(rs.game_block, {"me": PLAYERS[0]})
        game._run()
        return game

    @classmethod
    def rebuild(cls, rules, players: int, seed: int, choices, params: dict, redeals=(), record: bool = True) -> "Game":
        """A game rebuilt from its seed, its choices and the redeals its undos made (engine/redeal.py;
        `params`: the game's resolved values)."""
        from .redeal import made
        game = cls._start(rules, players, seed, params, record)
        for k, index in enumerate(choices):
            made(game, redeals, k)
            game.apply(index)
        made(game, redeals, len(choices))
        return game

    @classmethod
    def replay(cls, ruleset, players: int, seed: int, choices, params=None, record=True) -> "Game":
        """Rebuild a game exactly from its seed and the list of option indexes chosen."""
        game = cls.new(ruleset, players, seed, params, record)
        if isinstance(choices, (str, bytes, dict)) or not hasattr(choices, "__iter__"):
            raise GameError(f"the choices to replay must be a list of option numbers or labels, not "
                            f"{choices!r:.40}", "replay")
        for i, c in enumerate(choices):
            try:
                game.apply(c)
            except IllegalChoice as exc:
                raise IllegalChoice(f"choice {i + 1} of the replay: {exc}") from None
        return game

    # the public API ---------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> dict | None:
        return self.state.result

    @property
    def current_player(self) -> int | None:
        p = self.state.pending
        return None if p is None else p[1]

    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for, with its labels, or None when the game is over."""
        p = self.state.pending
        if p is None:
            return None
        self.state.work = MAX_STEP_ITEMS   # labels and prompt have a budget of their own
        node = self.rs.nodes[p[0]]
        with self.told(p[1]):
            labels = tuple(node.label(self, self.state, p[1], o) for o in p[2])
            return Decision(p[1], node.prompt_text(self, self.state, p), labels, self._asked_at())

    @contextmanager
    def told(self, player, unseen_as: str | None = None):
        """While inside, the game's texts are made as `player` is told its options and prompts: the cards it
        cannot identify where they lie are written as their places (engine/view.py, told_format), or as
        `unseen_as`."""
        before = self.__dict__.get("format")
        self.format = told_format(self, player, unseen_as)
        try:
            yield
        finally:
            if before is None:
                del self.format
            else:
                self.format = before

    def option_count(self) -> int:
        p = self.state.pending
        return 0 if p is None else len(p[2])

    def apply(self, choice, then=None):
        """Apply a choice: an option index or an option label. An illegal choice changes nothing.

        `then` (agents.play): per seat, the `pick(count)` of an agent whose choice reads only the number of
        options, or None. The game goes on in this one loop, each decision picked by its chooser's `pick`,
        until it ends or a chooser has none (-> None), or a pick is not an option index (-> (player, pick),
        applied by nobody, for the caller to refuse in the agent's name)."""
        g = self.state
        p = g.pending
        if p is None:
            raise IllegalChoice("the game is over: there is nothing to choose")
        options = p[2]
        g.work = MAX_STEP_ITEMS   # the label logged below has a budget of its own, as labels do
        if type(choice) is int and 0 <= choice < len(options):
            index = choice
        elif isinstance(choice, str):
            labels = self.decision.options
            if choice not in labels:
                from .refusal import explain_refusal
                with self.told(p[1]):
                    why = explain_refusal(self, choice)
                raise IllegalChoice(f"'{choice}' is not a legal option" + (f" - {why}" if why else "")
                                    + "; the options are: " + "; ".join(labels))
            index = labels.index(choice)
        elif isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(options):
            index = choice
        else:
            raise IllegalChoice(f"option {choice!r} does not exist: choose 0 to {len(options) - 1}")
        nodes = self.rs.nodes
        while True:
            node = nodes[p[0]]
            if self.record and node.loggable(options[index]):
                self.log_choice(node, p[1], options[index])
                g.work = MAX_STEP_ITEMS
            # the step starts here: the effects `resume` runs at once (see run_segment) and the VM's run after
            # them share its budget
            self.steps = MAX_STEP_NODES
            g.pending = None
            g.history.append(index)
            try:
                after = node.after
                if after is None:
                    node.resume(self, g, g.stack[-1], options[index], p[1])
                    self._run(False)
                else:
                    try:
                        done = after(self, g, g.stack[-1], options[index], p[1])
                    except (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError,
                            AttributeError, OverflowError, RecursionError) as exc:
                        # told at the node of the generated line that raised it, as the VM tells it
                        raise self._located(exc, nodes[self.rs.steps_node]) from None
                    if done is None:
                        node.resume(self, g, g.stack[-1], options[index], p[1])
                        self._run(False)
                    elif not done:
                        self._run(False)
                if self._choice_logs:
                    self._finish_choice_logs()
            except GameError:
                self._restore(g.history[:-1])
                raise
            except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError, OverflowError,
                    RecursionError) as exc:
                self._restore(g.history[:-1])
                raise GameError(f"ruleset error while applying a choice: {translate(exc)}", "runtime") from None
            # agents.play's count-only agents go on here, a decision a pass, without a call of apply each
            p = g.pending
            if then is None or p is None:
                return None
            pick = then[p[1]]
            if pick is None:
                return None
            options = p[2]
            index = pick(len(options))
            if type(index) is not int or not 0 <= index < len(options):
                return p[1], index
            g.work = MAX_STEP_ITEMS

    def reconsider(self) -> None:
        """Ask the pending decision again from the current state (after a tool or test changed the state).

        A tool should give a zone a new list (`g.zones[slot] = cards`) rather than change its list in place:
        the engine never changes one in place, so clones share them, and so do the groups and counts kept of
        them (runtime/helpers.py, zone_groups). After a change in place, this gives every zone a list of its
        own again, so that nothing kept of the old ones is read; clones made before the change saw it too."""
        g = self.state
        g.zones = [zone[:] for zone in g.zones]
        if g.pending is None:
            return
        node_id = g.pending[0]
        g.pending = None
        top = g.stack[-1]
        if top[0] == () and top[3] == node_id:
            g.stack.pop()   # a simultaneous decision's hold frame: ask everyone again
            top = g.stack[-1]
        top[1] -= 1
        self._run()

    def decisions(self) -> list:
        """Every decision waiting now: the pending one first, then, in a simultaneous decision, those of
        the players who have not chosen yet, with the options they will be offered (tools and tests)."""
        d = self.decision
        if d is None:
            return []
        g = self.state
        node_id = g.pending[0]
        top = g.stack[-1] if g.stack else None
        if top is None or top[0] != () or top[3] != node_id or "queue" not in top[4]:
            return [d]
        node, data = self.rs.nodes[node_id], top[4]
        later = data["queue"][len(data["chosen"]) + 1:]
        out = [d]
        for p, options in later:
            with self.told(p):
                out.append(Decision(p, node.prompt_text(self, g, (node_id, p, options)),
                                    tuple(node.label(self, g, p, o) for o in options), d.asked_at))
        return out

    def choosers(self) -> list[int]:
        """Who chooses in the pending decision: its player alone, or, in a simultaneous decision, every
        player it asks (those who have chosen already too), in the order they are asked; [] at the end."""
        g = self.state
        if g.pending is None:
            return []
        top = g.stack[-1] if g.stack else None
        if top is None or top[0] != () or top[3] != g.pending[0] or "queue" not in top[4]:
            return [g.pending[1]]
        return [p for p, _ in top[4]["queue"]]

    def _asked_at(self) -> int:
        """The number of choices made when the pending decision was asked (a simultaneous one: when it opened)."""
        g = self.state
        top = g.stack[-1] if g.stack else None
        if top is not None and top[0] == () and top[3] == g.pending[0] and "at" in top[4]:
            return top[4]["at"]
        return len(g.history)

    def force_random(self, decide) -> None:
        """Let `decide(op, items, k)` fix the outcomes of the next random draws (see engine/chance.py);
        `None` gives the game back a plain generator in the same state."""
        from .chance import ForcedRandom, plain
        self.state.rng = plain(self.state.rng) if decide is None else ForcedRandom(self.state.rng, decide)

    def legal_options(self) -> tuple:
        d = self.decision
        return () if d is None else d.options

    def clone(self, share_rng: bool = False, bare: bool = False) -> "Game":
        """An independent copy of this game (`share_rng`: a throw-away copy that may share the generator;
        `bare`: without the history, log and events, for a world that is never replayed nor shown)."""
        copy = Game(self.rs, self.state.clone(share_rng, bare), self.record)
        copy.probing = self.probing
        return copy

    def to_json(self) -> dict:
        index = self.rs.block_index
        return {"ruleset": self.rs.name, "fingerprint": self.rs.fingerprint,
                "state": self.state.to_json(lambda block: index[id(block)])}

    @classmethod
    def from_json(cls, ruleset, data: dict, record: bool = True) -> "Game":
        """Restore a game saved with `to_json`; the ruleset must be the one it was saved with."""
        from .saves import check_save
        _check_ruleset(ruleset, "Game.from_json")
        try:
            if not isinstance(data, dict) or data.get("fingerprint") != ruleset.fingerprint:
                raise GameError("this saved game was made with a different ruleset", "saved-game")
            check_save(ruleset, data)
            state = State.from_json(data["state"], ruleset.blocks.__getitem__, ruleset.card_values)
            state.layout = ruleset.layout(state.n, state.params)
            state.zbase = state.layout.base
            return cls(ruleset, state, record)
        except GameError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError, OverflowError) as exc:
            raise GameError(f"the saved game is damaged: {exc}", "saved-game") from None

    def view(self, player: int | None, ids: bool = False) -> dict:
        """What `player` (a seat from 0, or a Player) may see of the game now; None: an onlooker, who
        sees what every player may see."""
        from .view import view
        if player is None:
            return view(self, None, ids)
        if type(player) not in (int, Player) or not 0 <= player < self.state.n:
            raise GameError(f"view takes a seat from 0 to {self.state.n - 1} (or None for an onlooker), "
                            f"not {player!r:.40}", "not-a-player")
        return view(self, PLAYERS[player], ids)

    # the VM ---------------------------------------------------------------
    def push(self, block: int, env: dict, owner: int = -1, data=None) -> None:
        stack = self.state.stack
        if len(stack) >= MAX_STACK:
            raise GameError(f"effects nest deeper than {MAX_STACK} levels (a procedure that calls itself?)",
                            "stack")
        stack.append([self.rs.blocks[block], 0, env, owner, data])

    def push_hold(self, env: dict, owner: int, data) -> None:
        """A frame with no effects that keeps a node's data while it waits (a simultaneous decision)."""
        self.state.stack.append([(), 0, env, owner, data])

    def ask(self, node_id: int, player: int, options: list) -> bool:
        """Make a decision pending; nodes return this (true) so that the VM stops."""
        if len(options) > MAX_OPTIONS:
            raise GameError(f"a decision with {len(options):,} options: at most {MAX_OPTIONS:,} may be offered "
                            "(see Limits in the language reference)", "budget")
        self.state.pending = (node_id, player, options)
        return True

    def over_nodes(self, loop=None) -> GameError:
        """The error for a step that ran more effects than its budget allows (`loop`: the loop of generated
        code it ran in, which is not on the stack; see engine/limits.py)."""
        return over_nodes(self, self.state.stack, loop)

    def stall(self, reason: str) -> None:
        self.finish(reason, [], stalled=True)

    def finish(self, reason: str, winners, stalled: bool = False) -> None:
        """End the game: score every player, choose the winners, and stop the VM."""
        g = self.state
        scores = self.rs.scoring.score(self, g)
        tie_break_used = False
        if winners is None and not stalled:
            winners, tie_break_used = self.rs.scoring.rank(self, g, scores)
        else:
            winners = as_players(g, winners, "winners")
        g.result = {
            "reason": reason, "stalled": stalled, "winners": sorted({int(w) for w in winners}),
            "scores": scores, "tie_break_used": tie_break_used,
            "turns": g.turn, "rounds": g.round,
        }
        g.stack.clear()
        g.pending = None
        if self.record:
            g.log.append(("over", reason, tuple(g.result["winners"])))

    def run_segment(self, segment, env: dict, size: int) -> None:
        """Run a block of `size` effects that one segment runs entirely (an action's effects that ask no
        decision) at once, without a frame: what the VM would do with the block pushed on top."""
        try:
            if segment.fn(self, self.state, env):
                return   # the game stopped inside (it ended, or a turn or round was left)
            steps = self.steps - size - 1
            self.steps = steps
            if steps < 0:
                raise over_nodes(self, self.state.stack)
        except (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError,
                OverflowError, RecursionError) as exc:
            raise self._located(exc, segment) from None

    def _run(self, fresh: bool = True) -> None:
        """Execute nodes until a decision is pending or the game is over.

        A node's `run` returns true when it asked a decision; a node that pushes a frame makes the
        outer loop switch to it. `fresh`: a new step starts here (not after `apply`, which starts it)."""
        g = self.state
        if g.pending is not None:   # a resumed node asked again (the next of several choosers)
            return
        stack = g.stack
        nodes = self.rs.nodes
        node = None
        if fresh:
            g.work = MAX_STEP_ITEMS
            self.steps = MAX_STEP_NODES   # the nodes this step may still run (see budget.py); fused loops count too
        try:
            while stack:
                frame = stack[-1]
                block = frame[0]
                end = len(block)
                pc = frame[1]
                while pc < end:
                    node = block[pc]
                    frame[1] = pc + 1
                    if node.run(self, g, frame):
                        return
                    if not stack or stack[-1] is not frame:
                        break
                    pc = frame[1]   # a fused segment moves on past the effects it ran
                else:
                    # a block that ran to its end pays for its nodes (once per pass, not once per node):
                    # every loop passes here once per round, so no loop outruns the budget
                    steps = self.steps - end - 1
                    self.steps = steps
                    if steps < 0:
                        raise over_nodes(self, stack)
                    owner = frame[3]
                    if owner < 0:
                        stack.pop()
                    else:
                        node = nodes[owner]
                        if node.block_end(self, g, frame):
                            return   # generated code ran on to the next decision (or the game's end)
        except GameError as exc:
            located = self._located(exc, node)
            if located is exc:
                raise
            raise located from None
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError, OverflowError,
                RecursionError) as exc:
            raise self._located(exc, node) from None
        if not stack and g.pending is None and g.result is None:
            self.finish("the flow ended", None)

    def _located(self, exc, node):
        """The error to report for `exc`, raised while `node` ran: told at the effect (and loop) it comes
        from, with the ruleset's file, line and column."""
        if isinstance(exc, GameError):
            loop = node.enclosing(exc) if node is not None else None
            node = node.origin(exc) if node is not None else None
            if exc.code == "budget" and node is not None and node.loc is not None and not exc.located:
                return in_loop(self, self.state.stack, exc, node.loc, loop)
            if node is not None and node.loc is not None and not exc.located:
                return placed(node.loc, f"{in_function(exc)}{exc}", exc.code)
            return exc
        node = node.origin(exc) if node is not None else None
        where = node.loc if node is not None and node.loc is not None else "?"
        return placed(where, f"ruleset error in '{getattr(node, 'text', '')}': {in_function(exc)}{translate(exc)}",
                      "runtime")

    def _restore(self, history) -> None:
        g = self.state
        if g.redeals:   # cards dealt again by an undo: the replay deals them again where they were
            self.state = Game.rebuild(self.rs, g.n, g.seed, history, g.params, g.redeals, self.record).state
            return
        fresh = Game._start(self.rs, g.n, g.seed, g.params, self.record)
        for index in history:
            fresh.apply(index)
        self.state = fresh.state

    # presenting values ------------------------------------------------------
    def format(self, value, kind: str = "any") -> str:
        """Format a value for people: cards by their label, players as P1, P2 ..., a zone by its cards.

        Cards and players know what they are; `kind` (the static kind) only helps with plain numbers
        that stand for a player or a card."""
        t = type(value)
        if t is Player or (t is int and kind == "player"):
            return f"P{value + 1}"
        if t is Card or (t is int and kind == "card"):
            return self.rs.card_labels[value]
        if t is list:
            inner = ELEMENT.get(kind, "any")
            return ", ".join(self.format(v, inner) for v in value)
        if value is True:
            return "yes"
        if value is False:
            return "no"
        if value is None:
            return "none"
        return str(value)

    # recording what happened (engine/records.py; the words are present/log.py's) -----------------------
    def log_choice(self, node, player, option, reacts: bool = False) -> None:
        """Record a choice: its label's pieces, and where the cards it names lie before it takes effect (and,
        once it has, after: `_finish_choice_logs`); a secret choice (simultaneous, or marked secret) is for
        its chooser only. `reacts`: the first to act in a reaction window, told as such to everyone."""
        g = self.state
        pieces = node.pieces(self, g, player, option)
        if pieces == ("pass",):
            pieces = self._passed(node, player) or pieces
        secret = False if reacts else node.secret
        cards = () if secret else cards_in(pieces)
        record = ["choice", int(player), "reacts" if reacts else g.turn, pieces, secret, places(g, cards), None]
        self._choice_logs.append((len(g.log), record, cards, {}))
        g.log.append(None)    # its place, filled in by _finish_choice_logs

    def _passed(self, node, player) -> tuple | None:
        """A pass as the log tells it: what was passed, the step or the question ('pass (draw)'); the
        question's values are pieces like a label's, so a card in it is told only to those who may see it."""
        prompt = getattr(node, "prompt", None)
        if isinstance(prompt, str):
            return (f"pass ({prompt})",) if prompt else None
        if prompt is None or not hasattr(prompt, "pieces"):
            return None
        g = self.state
        env = dict(g.stack[-1][2]) if g.stack else {}
        env["me"] = player
        return ("pass (",) + tuple(prompt.pieces(self, g, env)) + (")",)

    def passing(self, slot: int, cards, first: int) -> None:
        """Cards were moved to `slot` (the first of them now at position `first`) while a choice's line waits
        for the choice to take effect: a card it names that a seat sees where it now lies was shown to that
        seat, even if it moves out of sight later in the same step (a card played face up, then gathered
        face down with its trick). Called by the runtime's moves when the game records."""
        g = self.state
        z, owner, _ = g.layout.owner_of(slot)
        if z is None:
            return
        levels = [z.level(q, owner) for q in range(g.n)]
        for _, _, named, seen in self._choice_logs:
            for i, c in enumerate(cards):
                if c in named:
                    for q, level in enumerate(levels):
                        if level == "cards" or (level == "top" and first + i == 0):
                            seen.setdefault(int(c), set()).add(q)

    def _finish_choice_logs(self) -> None:
        g = self.state
        for at, record, cards, seen in self._choice_logs:
            after = places(g, cards)
            if seen:
                # the seats a card was shown to in passing count as seats it was shown to (present/log.py)
                after = tuple((c, slot, i, tuple(sorted(set(shown) | seen.get(c, set()))))
                              for c, slot, i, shown in after)
            record[6] = after
            g.log[at] = tuple(record)
        self._choice_logs.clear()

    def log_line(self, pieces, audience=None) -> None:
        """Record a line of the log (its pieces, engine/choices.py): for everyone, or for the listed players.
        A line for everyone keeps where the cards it names lie, so that each reader is told only those
        they may see (present/log.py); a line whose readers the ruleset names (`to`, a reveal's) tells
        them what it says."""
        g = self.state
        g.log.append(("line", readers(g, audience), pieces, places(g, cards_in(pieces)) if audience is None else ()))

    def log_shown(self, cards, who) -> None:
        """Record that some players were shown cards (a `reveal` without a text of its own): which cards, in
        which slots they lie."""
        g = self.state
        spend(g, len(self.rs.card_values))
        slots = {c: i for i, z in enumerate(g.zones) for c in z}
        where = {}
        for c in cards:
            where.setdefault(slots.get(c), []).append(c)
        g.log.append(("shown", readers(g, who), tuple(who), tuple((slot, tuple(cs)) for slot, cs in where.items())))


def _check_ruleset(rs, where: str) -> None:
    from ..ruleset import Ruleset
    if not isinstance(rs, Ruleset):
        raise GameError(f"{where} takes a ruleset (from load or load_text), not {type(rs).__name__}", "usage")


def _fresh(value):
    if type(value) is list:
        return [_fresh(v) for v in value]
    return value
