"""The one table of what generated code may call: each global name a generated module reads that is not
a constant or function of its own -> the runtime value it names.

Generated code (expr/compiler.py for expressions, codegen/ for option lists, segments of effects, the
turn's transition and position values) runs in a namespace that holds this table, its own constants and
`emit.SAFE_BUILTINS`, and nothing else. The prefixes say what a name is (docs/compile.md): `R_` a
helper of expressions, `N_` an effect that changes the state (each public function of runtime/effects.py),
`F_` a builtin function of the language, `W_` a builtin that walks its first argument and pays for it.
"""
from __future__ import annotations

import itertools
import types

from . import effects as N
from .effects import MAX_STACK
from . import helpers as H
from . import operators as X
from .budget import MAX_NUMBER, MAX_OPTIONS, number, over_items
from .builtins import BUILTINS
from .listing import SMALL, lazy
from .values import Player, as_player, as_players

NOT_COMPUTED = object()   # a value computed once per option list, not yet (codegen/options.py)

GLOBALS = {
    # operators and expression helpers
    "R_times": X.times, "R_plus": X.plus, "R_minus": X.minus, "R_equal": X.equal, "R_contains": X.contains,
    "R_item": X.item, "R_located": X.located, "R_errors": X.ERRORS,
    "R_walk": H.walk, "R_walk_named": H.walk_named, "R_combos": H.combos, "R_product": H.product,
    "R_join": H.join, "R_join_groups": H.join_groups, "R_made": H.made, "R_sum": H.total, "R_MAX": MAX_NUMBER, "R_too_large": H.too_large_number,
    "R_number": number, "R_filter_eq": H.filter_eq, "R_filter_ne": H.filter_ne, "R_attr": H.attr_of,
    "R_attr1": H.attr1, "R_card_var": H.card_var, "R_player_zone": H.player_zone, "R_player_var": H.player_var,
    "R_family": H.family, "R_player_family": H.player_family, "R_numbered": H.numbered, "R_keyed": H.keyed,
    "R_any_in": H.any_in, "R_all_eq": H.all_eq, "R_any_ne": H.any_ne, "R_per_eq": H.per_eq, "R_per_ne": H.per_ne,
    "R_count_distinct": H.count_distinct, "R_groups_of": H.groups_of, "R_zone_groups": H.zone_groups, "R_BACK_WORDS": N.BACK_WORDS, "R_over_items": over_items, "R_take_while_eq": H.take_while_eq,
    "R_take_while_ne": H.take_while_ne, "R_drop_while_eq": H.drop_while_eq, "R_drop_while_ne": H.drop_while_ne,
    "R_cartesian": itertools.product, "R_distinct_of": H.distinct_of, "R_count_distinct_of": H.count_distinct_of, "R_distinct_reach": H.distinct_reach, "R_sum_of": H.sum_of, "R_tally": H.tally,
    "R_counts_of": H.counts_of, "R_MAX_OPTIONS": MAX_OPTIONS, "R_MAX_STACK": MAX_STACK, "R_NO": NOT_COMPUTED,
    "R_lazy": lazy, "R_SMALL": SMALL, "R_counted": H.counted, "R_zone_counted": H.zone_counted, "R_distinct_size": H.distinct_size,
    "R_count_values": H.count_values, "R_count_compared": H.count_compared,
    "R_counts_compared": H.counts_compared,
    # the values of players
    "N_as_player": as_player, "N_as_players": as_players, "R_Player": Player,
}
# the effects: every change to the state is a function of runtime/effects.py, and each is N_<its name>
GLOBALS.update({f"N_{name}": fn for name, fn in vars(N).items()
                if isinstance(fn, types.FunctionType) and fn.__module__ == N.__name__ and not name.startswith("_")})
GLOBALS.update({f"F_{name}": impl for name, impl in BUILTINS.items()})
GLOBALS.update({f"W_{name}": walker for name, walker in H.walkers().items()})
