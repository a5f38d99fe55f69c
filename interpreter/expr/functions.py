"""The whitelist of functions an expression may call: name -> arity, which arguments are per-item, kind, text;
their implementations are the runtime's (runtime/builtins.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..runtime.builtins import BUILTINS, MAX_RANGE  # noqa: F401  (MAX_RANGE: named here for the compiler)


@dataclass(frozen=True)
class Function:
    """A builtin: its arity, which argument positions are evaluated once per item (with `it` bound), and its code.

    Plain functions receive evaluated values. Functions with `per_item` positions receive the
    evaluated list plus a callable `f(it)` for each per-item argument.
    """

    name: str
    min_args: int
    max_args: int
    impl: Callable
    kind: str = "any"
    per_item: tuple = ()
    doc: str = ""
    needs_game: bool = False


FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("count", 1, 1, BUILTINS["count"], "int", doc="number of items in a list or cards in a zone: `count(me.hand)`"),
    Function("sum", 1, 1, BUILTINS["sum"], "int", doc="sum of a list of numbers: `sum(me.hand.value)`"),
    Function("min", 1, 1, BUILTINS["min"], "int", doc="smallest number of a list (0 if empty)"),
    Function("max", 1, 1, BUILTINS["max"], "int", doc="largest number of a list (0 if empty)"),
    Function("abs", 1, 1, BUILTINS["abs"], "int", doc="absolute value: `abs(x - 3)`"),
    Function("distinct", 1, 1, BUILTINS["distinct"], "list", doc="the different values of a list, in first-seen order"),
    Function("counts", 1, 1, BUILTINS["counts"], "list", doc="how often each distinct value occurs, in first-seen order"),
    Function("first", 1, 1, BUILTINS["first"], "item", doc="first item of a list or zone (none if empty)"),
    Function("last", 1, 1, BUILTINS["last"], "item", doc="last item of a list or zone (none if empty)"),
    Function("take", 2, 2, BUILTINS["take"], "same", doc="the first k items: `take(deck, 2)`"),
    Function("drop", 2, 2, BUILTINS["drop"], "same", doc="all but the first k items"),
    Function("reverse", 1, 1, BUILTINS["reverse"], "same", doc="the list from its other end"),
    Function("sort", 1, 1, BUILTINS["sort"], "same", doc="the list in ascending order"),
    Function("index_of", 2, 2, BUILTINS["index_of"], "int", doc="position of a value in a list, or -1"),
    Function("range", 1, 2, BUILTINS["range"], "list", doc="`range(n)` is 0..n-1, `range(a, b)` is a..b-1"),
    Function("take_while", 2, 2, BUILTINS["take_while"], "same", per_item=(1,),
             doc="items from the start while a condition on `it` holds: `take_while(row[0], suit != s)`"),
    Function("drop_while", 2, 2, BUILTINS["drop_while"], "same", per_item=(1,),
             doc="the rest after the items `take_while` would take"),
    Function("filter", 2, 2, BUILTINS["filter"], "same", per_item=(1,),
             doc="the items for which a condition holds, like `where`, with a name for the item: "
                 "`filter(me.hand, c -> count(me.hand where suit == c.suit) >= 2)`"),
    Function("sample", 2, 2, BUILTINS["sample"], "same", needs_game=True,
             doc="k items drawn at random by the game's generator (all if fewer; use in effects only)"),
    Function("any", 2, 2, BUILTINS["any"], "bool", per_item=(1,),
             doc="true if the condition on `it` holds for some item: `any(players, count(it.hand) == 0)`"),
    Function("all", 2, 2, BUILTINS["all"], "bool", per_item=(1,),
             doc="true if the condition on `it` holds for every item"),
    Function("map", 2, 2, BUILTINS["map"], "list", per_item=(1,),
             doc="the value of an expression of `it` for each item: `map(players, count(it.collection))`"),
    Function("groups", 2, 2, BUILTINS["groups"], "groups", per_item=(1,),
             doc="the items split into lists by the value of an expression of `it`, in first-seen order: "
                 "`groups(me.hand, suit)`"),
    Function("maxima", 2, 2, BUILTINS["maxima"], "same", per_item=(1,),
             doc="every item with the greatest value of an expression of `it` (ties kept)"),
    Function("minima", 2, 2, BUILTINS["minima"], "same", per_item=(1,),
             doc="every item with the smallest value of an expression of `it` (ties kept)"),
    Function("next", 1, 2, BUILTINS["next"], "player", needs_game=True,
             doc="the player after p in seat order (`next(p, 2)`: two seats on)"),
    Function("previous", 1, 2, BUILTINS["previous"], "player", needs_game=True, doc="the player before p in seat order"),
    Function("others", 1, 1, BUILTINS["others"], "players", needs_game=True,
             doc="every player but p, in seat order starting after p"),
    Function("keys", 1, 1, BUILTINS["keys"], "list",
             doc="the keys of a family of zones, in order: `keys(stall)` (0 to N-1 for a numbered family)"),
    Function("random", 1, 1, BUILTINS["random"], "item", needs_game=True,
             doc="one item drawn by the game's random generator (use in effects only)"),
    Function("combinations", 2, 2, BUILTINS["combinations"], "groups", needs_game=True,
             doc="every way to choose k items of a list, as lists in the list's order: "
                 "`combinations(me.hand, 2)`"),
    Function("flatten", 1, 1, BUILTINS["flatten"], "flat", needs_game=True,
             doc="the items of a list of lists, one level down: `flatten(combinations(me.hand, 2))`"),
    Function("sort_by", 2, 2, BUILTINS["sort_by"], "same", per_item=(1,),
             doc="the items in order of an expression of `it`, equal ones as they were: "
                 "`sort_by(me.hand, value)`, `sort_by(players, -it.points)`"),
    Function("text", 1, 1, BUILTINS["text"], "str",
             doc="a number, truth value or player as a text: `\"round \" + text(round)`"),
    Function("pow", 2, 2, BUILTINS["pow"], "int", doc="a number to a power: `pow(2, count(me.hand))`"),
]}
