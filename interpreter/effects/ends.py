"""The effects that end something: `end_turn`, `end_round` and `end_game`."""
from __future__ import annotations

from .base import Effect, ref
from .text import code, flat


class EndTurn(Effect):
    """`end_turn`: the rest of the turn's steps skipped; the turn's `end` effects and end checks still run."""

    key = "end_turn"
    text = "End the current turn now. Usually written as the bare word '- end_turn'."
    value = {"description": "Nothing: write '- end_turn' or 'end_turn:' with no value.", "type": "null"}
    bare = True
    runtime = "N_end_turn"

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        return cls()

    def emit(self, w, py):
        w.add(f"{self.runtime}(vm, g)")
        w.add(w.stop)

    @classmethod
    def explain(cls, value, item):
        return "End the turn (skip its remaining steps).", []


class EndRound(EndTurn):
    """`end_round`: the round ends now; its `end` effects run, then the next round starts."""

    key = "end_round"
    text = "End the current round now. Usually written as the bare word '- end_round'."
    value = {"description": "Nothing: write '- end_round' or 'end_round:' with no value.", "type": "null"}
    runtime = "N_end_round"

    @classmethod
    def explain(cls, value, item):
        return "End the round.", []


class EndGame(Effect):
    """`end_game`: the game ends now, with winners given by an expression or else by the scoring rules."""

    key = "end_game"
    text = "End the game now; without winners, the scores decide."
    about = "Nothing, or who wins and why."
    fields_text = "Who wins and why. Leave it empty to let the scores decide."
    fields = {"winners": ref("expression", "The winning players, as in '[current]' or 'maxima(players, score)'."),
              "reason": ref("text", "Why the game ended, shown to the players.")}
    null_ok = True
    bare = True

    def __init__(self, winners, reason):
        self.winners, self.reason = winners, reason

    @classmethod
    def compile(cls, c, path, fields, value, scope):
        p = path + ("end_game",)
        if value is None:
            return cls(None, "the game ended")
        f = c.fields(p, value, cls.fields)
        winners = c.ctx.winners(p + ("winners",), scope) if "winners" in f else None
        return cls(winners, str(f.get("reason", "the game ended")))

    def emit(self, w, py):
        winners = "None" if self.winners is None else w.expr(self.winners, py)
        w.add(f"vm.finish({w.const(self.reason, 'S_reason')}, {winners})")
        w.add(w.stop)

    @classmethod
    def explain(cls, f, _):
        f = f or {}
        why = f" ({flat(f['reason'])})" if "reason" in f else ""
        if "winners" in f:
            return f"The game ends{why}: winners are {code(f['winners'])}.", []
        return f"The game ends{why}; the scoring decides the winners.", []
