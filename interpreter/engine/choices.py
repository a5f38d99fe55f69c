"""Choices: named arguments drawn from domains, a legality condition, and a label; actions add effects."""
from __future__ import annotations

from itertools import combinations
from math import comb

from ..errors import GameError, placed
from ..runtime.budget import MAX_NUMBER, MAX_TEXT, spend
from ..runtime.operators import in_function, translate
from ..runtime.values import Card

MAX_COMPLETION_CHECKS = 20_000   # conditions tried to see whether a partial pick can still be completed
EMPTY: dict = {}   # the environment of an action offered by a step (generated option lists only read it)
_ONLY_CARDS = frozenset((Card,))
_ONLY_INTS = frozenset((int,))


def _cards_only(*lists) -> bool:
    """Whether the lists hold nothing but cards (checked at C speed)."""
    return all(_ONLY_CARDS.issuperset(map(type, xs)) for xs in lists)


class Subset:
    """An argument that is several items of a domain (`{pick: me.hand, count: 3}`), chosen one at a time."""

    label = None   # a Template with `it` = the item: how each item shows in a pick (default: the item itself)
    alike = None   # an expression of `it`: items it gives equal values for are offered once in a pick

    def __init__(self, name, domain, low, high, noun):
        self.name, self.domain, self.low, self.high, self.noun = name, domain, low, high, noun

    def bounds(self, g, env):
        lo, hi = self.low(g, env, None), self.high(g, env, None)
        return max(lo, 0), hi

    def size_text(self, g, env) -> str:
        """'3 cards', '1 to 3 cards': how the argument shows in an option before it is picked."""
        many = self.count_text(g, env)
        return self.noun if many is None else f"{many} {self.noun}"

    def count_text(self, g, env) -> str | None:
        """'3', '1 to 3': how many items it will hold (how `count(...)` of it shows before it is picked)."""
        try:
            lo, hi = self.bounds(g, env)
        except (TypeError, ValueError, KeyError):
            return None
        return f"{lo}" if lo == hi else f"{lo} to {hi}"


class Choice:
    """What a player picks: argument names, a domain expression for each, an `if` condition, a label.

    Subset arguments (last in `args`) are not part of the options: an option fixes the other
    arguments, and the player then picks each subset item by item (see engine/picks.py); `final` is
    the part of the condition that needs them, checked on complete picks."""

    def __init__(self, name, arg_names, domains, cond, label, subsets=(), final=None):
        self.name = name
        self.arg_names = tuple(arg_names)
        self.domains = tuple(domains)
        self.cond = cond
        self.label_template = label  # a Template, or None for "name arg arg"
        self.kinds = ()  # static kinds of the arguments, for labels
        self.subsets = tuple(subsets)
        self.final = final
        self.all_names = self.arg_names + tuple(s.name for s in self.subsets)
        # When no domain reads an earlier argument, options are a plain cartesian product.
        self.independent = not any(getattr(d, "locals_used", set()) & set(self.arg_names) for d in self.domains)
        self.subsets_read_args = self._subsets_read_args()   # worked out once: a ruleset never changes

    listed = None   # generated code (codegen/options.py): (g, env, player) -> the bindings of the arguments
    # the tables of the card attributes the final condition reads of the items of the one subset, when it reads
    # nothing else of them and never their order (compiler/effects.py, values_read): items of the same values
    # are alike to it, and whether picking one still leaves a legal completion is asked once for them all
    by_values = None
    # (the table of a card attribute, whether an empty pick is fine) when the final condition of the one subset
    # is that its cards all show one value of it (compiler/effects.py, one_value)
    one_value = None
    # (the table of a card attribute, the target: ("int", n) or ("param", name)) when the final condition of the
    # one subset is `sum(cards.a) == target` (compiler/effects.py, summed)
    summed = None

    def options(self, g, env, player):
        """Every legal binding of the arguments, as tuples, in domain order (without the subsets, and
        only where the subsets can be picked legally)."""
        found = self.listed(g, env, player)
        if not self.subsets:
            return found
        base = dict(env)
        base["me"] = player
        if self.final is None and found and not self.subsets_read_args:
            # whether the subsets can be picked does not depend on the other arguments: asked once
            base.update(zip(self.arg_names, found[0]))
            return found if self.completable(g, base, 0, []) else []
        out = []
        for args in found:
            base.update(zip(self.arg_names, args))
            if self.completable(g, base, 0, []):
                out.append(args)
        return out

    def _subsets_read_args(self) -> bool:
        """Whether a subset's domain or bounds may read one of the other arguments (unknown: yes)."""
        names = set(self.arg_names)
        for sub in self.subsets:
            for fn in (sub.domain, sub.low, sub.high):
                used = getattr(fn, "locals_used", None)
                if used is None or used & names:
                    return True
        return False

    # subsets ------------------------------------------------------------------------------------
    def completable(self, g, env, j, partial, budget=None, known=None) -> bool:
        """Whether subset j, holding `partial` so far, and the subsets after it can be picked so that the
        final condition holds (after MAX_COMPLETION_CHECKS tries the answer is yes). `known`: subset j's
        (least, most, domain) in this environment, where the caller has them already."""
        sub = self.subsets[j]
        if known is None:
            lo, hi = sub.bounds(g, env)
            domain = list(sub.domain(g, env, None))
        else:
            lo, hi, domain = known
        rest = [x for x in domain if x not in partial] if partial else domain
        return self._completes(g, env, j, partial, rest, lo, hi, domain,
                               budget if budget is not None else [MAX_COMPLETION_CHECKS])

    def _completes(self, g, env, j, partial, rest, lo, hi, domain, budget) -> bool:
        """`completable`, given the items of the domain not picked yet (`rest`, in domain order)."""
        need = max(lo - len(partial), 0)
        room = min(hi - len(partial), len(rest))
        if need > room:
            return False
        final = self.final
        last = j == len(self.subsets) - 1
        if last and final is None:
            return True
        if self.one_value is not None:
            answer = self._one_value_completes(partial, rest, need, room)
            if answer is not None:
                return answer
        if self.summed is not None:
            answer = self._sum_completes(g, partial, rest, need, room, domain, budget)
            if answer is not None:
                return answer
        name = self.subsets[j].name
        picked = None
        if partial:
            whole = False
            try:
                picked = set(partial)
            except TypeError:   # items that cannot be hashed: the same error, raised below as before
                pass
        else:
            # nothing picked yet, and no item twice: a combination of the domain is the pick itself, in its order
            try:
                whole = len(set(domain)) == len(domain)
            except TypeError:   # items that cannot be told apart by hashing: the pick made as below
                whole = False
        for size in range(need, room + 1):
            for extra in combinations(rest, size):
                budget[0] -= 1
                if budget[0] < 0:
                    return True
                if whole:
                    env[name] = list(extra)
                else:
                    chosen = picked.union(extra) if picked is not None else set(partial) | set(extra)
                    env[name] = [x for x in domain if x in chosen]
                if last:
                    if final(g, env, None):
                        return True
                elif self.completable(g, env, j + 1, [], budget):
                    return True
        return False

    def _one_value_completes(self, partial, rest, need, room):
        """`_completes` where the final condition is that the picked cards all show one value of an attribute
        (`one_value`): there is a completion when `need` (at least one in all, unless an empty pick is fine)
        of the cards left show the value of those picked, or, with none picked, any one value. The answer
        of trying every completion, found by counting; None where an item is not a card (the search tells
        what is wrong with it, as before)."""
        table, empty_fine = self.one_value
        if not _cards_only(partial, rest):
            return None
        if partial:
            value = table[partial[0]]
            for x in partial:
                if table[x] != value:
                    return False   # two values picked already: no completion
            if need == 0:
                return True   # the pick as it is
            left = 0
            for x in rest:
                if table[x] == value:
                    left += 1
                    if left >= need:
                        return True
            return False
        if need == 0:
            return empty_fine or room >= 1   # none, or any one card
        counts: dict = {}
        for x in rest:
            v = table[x]
            k = counts[v] = counts.get(v, 0) + 1
            if k >= need:
                return True
        return False

    def _one_value_fits(self, partial, rest, lo, hi):
        """The values an item to pick next may show so that the pick can still be completed, where the final
        condition is that the picked cards show one value (`one_value`) and no item is twice in the domain: what
        `_one_value_completes` answers item by item after it (`_completes_after`), found for every item at once
        from the cards left of each value. None where an item is not a card (each asked as before)."""
        table, _ = self.one_value
        if not _cards_only(partial, rest):
            return None
        after = len(partial) + 1
        need = max(lo - after, 0)
        if need > min(hi - after, len(rest) - 1):
            return frozenset()   # too few items left or too many picked already, whichever is picked
        counts: dict = {}
        for x in rest:
            v = table[x]
            counts[v] = counts.get(v, 0) + 1
        if partial:
            shown = table[partial[0]]
            for x in partial:
                if table[x] != shown:
                    return frozenset()   # two values picked already
            values = (shown,) if shown in counts else ()
        else:
            values = counts
        # after the item, `need` more of its value among the cards left without it
        return frozenset(v for v in values if counts[v] - 1 >= need)

    def _sum_completes(self, g, partial, rest, need, room, domain, budget):
        """`_completes` where the final condition is `sum(cards.a) == target` (`summed`) and one or two cards are
        left to pick, no more and no fewer (`count: 2`): the card, or the pair, that makes up the rest is looked
        for among the values left, stopping at the first found as the search does. The answer of trying every
        completion; None where that is not sure to be so (an item that is not a card, a value or target that is
        not a whole number, sums that could pass the cap of numbers: the search tells what it tells) and for
        other sizes (the search: counting every sum the cards left can make measured slower, x1.46 on the picks
        pattern, most searches ending at one of their first tries). Only where no item is twice in the domain
        (a pick holds every copy of an item picked, which the search adds up), and where there is none the
        answer is yes past `budget` tries, as the search gives up so (MAX_COMPLETION_CHECKS)."""
        if not need == room <= 2 or len(set(domain)) != len(domain):
            return None
        table, (how, target) = self.summed
        if how == "param":
            target = g.params.get(target)
        if type(target) is not int or not _cards_only(partial, rest):
            return None
        start = 0
        for x in partial:
            v = table[x]
            if type(v) is not int:
                return None
            start += v
        values = [table[x] for x in rest]
        if not _ONLY_INTS.issuperset(map(type, values)):
            return None
        if (max(map(abs, values), default=0) + abs(start) + abs(target)) * 3 > MAX_NUMBER:
            return None   # a sum might pass the cap: the search says so where it does
        goal = target - start
        if room == 0:
            found = goal == 0
        elif room == 1:
            found = goal in values
        else:
            found = False
            seen = set()
            for v in values:
                if goal - v in seen:
                    found = True
                    break
                seen.add(v)
        # with none found, the search would have tried every way and, past its limit, said yes
        return found or comb(len(values), room) > budget[0]

    def pick_options(self, g, env, j, partial, bounds=None) -> list:
        """The items that may be picked next for subset j (each leaves a legal completion), in domain
        order, then 'done' (-2) when the subset may stop here (`bounds`: its least and most counts in this
        environment, where the caller has them already)."""
        sub = self.subsets[j]
        lo, hi = bounds or sub.bounds(g, env)
        out = []
        domain = None
        if len(partial) < hi:
            alike, seen = sub.alike, []
            domain = list(sub.domain(g, env, None))
            # The domain and the bounds are the same for every item (choices draw nothing: random is refused
            # there), so `completable` is given them. The last subset with no final condition: an item may
            # be picked when enough items are left to reach the least count after it, worked out here.
            simple = j == len(self.subsets) - 1 and self.final is None
            known = None if simple else (lo, hi, domain)
            rest = [x for x in domain if x not in partial] if partial else domain
            # with no item twice in the domain, the items left after picking the k-th of `rest` are `rest`
            # without it, cut from the one list
            try:
                unique = len(set(domain)) == len(domain)
            except TypeError:
                unique = False
            answered = False
            if simple:
                after = len(partial) + 1
                need = max(lo - after, 0)
                if unique and alike is None:
                    # each item leaves the same number of items to pick after it: all of them or none
                    if need <= min(hi - after, len(rest) - 1):
                        out = [(0, (x,)) for x in rest]
                    answered = True
            # one value (one_value): every item answered at once, by its value
            fits = self._one_value_fits(partial, rest, lo, hi) \
                if not simple and unique and self.one_value is not None and j == len(self.subsets) - 1 else None
            shows = self.one_value[0] if fits is not None else None
            # items of the same values, for a final condition that reads only those: the same answer
            answers = {} if not simple and self.by_values is not None and j == len(self.subsets) - 1 else None
            k = -1
            for x in () if answered else domain:
                if x in partial:
                    continue
                k += 1
                if alike is not None:
                    same = alike(g, env, x)
                    if same in seen:
                        continue   # an item alike to one offered already
                if simple:
                    ok = need <= min(hi - after, len(rest) - rest.count(x))
                elif fits is not None:
                    ok = shows[x] in fits
                elif answers is not None and type(x) is Card:
                    try:
                        key = tuple([t[x] for t in self.by_values])
                        ok = answers.get(key)
                    except TypeError:   # a value that cannot be a key: asked for this item itself
                        key = ok = None
                    if ok is None:
                        ok = self._completes_after(g, env, j, partial, x, rest, k, unique, known)
                        if key is not None:
                            answers[key] = ok
                else:
                    ok = self._completes_after(g, env, j, partial, x, rest, k, unique, known)
                if ok:
                    out.append((0, (x,)))
                    if alike is not None:
                        seen.append(same)
        if len(partial) >= lo and self.closed(g, env, j, partial, domain):
            out.append((-2, ()))
        return out

    def _completes_after(self, g, env, j, partial, x, rest, k, unique, known) -> bool:
        """Whether picking x, the k-th item of `rest` (the items not picked yet), leaves a legal completion."""
        if not unique:
            return self.completable(g, env, j, partial + [x], None, known)
        lo, hi, domain = known
        return self._completes(g, env, j, partial + [x], rest[:k] + rest[k + 1:], lo, hi, domain,
                               [MAX_COMPLETION_CHECKS])

    def closed(self, g, env, j, partial, domain=None) -> bool:
        """Whether subset j may stop at `partial`: the final condition holds, or later subsets can follow
        (`domain`: subset j's, where the caller has it already)."""
        last = j == len(self.subsets) - 1
        if last and self.final is None:
            return True
        if domain is None:
            domain = list(self.subsets[j].domain(g, env, None))
        env[self.subsets[j].name] = [x for x in domain if x in partial]
        if last:
            return bool(self.final(g, env, None))
        return self.completable(g, env, j + 1, [])

    def label(self, vm, g, player, args, outer=None):
        """The readable label of one option (`outer`: the names around a `choose`, which its label may use)."""
        return joined(self.pieces(vm, g, player, args, outer), vm.format)

    def pieces(self, vm, g, player, args, outer=None) -> tuple:
        """The label of one option as pieces (literal texts and (value, kind) pairs, see `joined`): what a
        log records of it, to be put in words when someone reads the log.

        Subsets not picked yet show as how many are to be picked ('pass 3 cards to P2')."""
        env = {} if outer is None else dict(outer)
        env["me"] = player
        env.update(zip(self.all_names, args))
        waiting = self.subsets[max(len(args) - len(self.arg_names), 0):]
        pending = {s.name: s.size_text(g, env) for s in waiting}
        if self.label_template is not None:
            counts = {s.name: s.count_text(g, env) for s in waiting}
            return self.label_template.pieces(vm, g, env, pending, counts)
        out = [self.name]
        for v, k in zip(args, self.kinds):
            out += [" ", (v, k)]   # a list is never changed in place (a zone's neither): kept as it is
        for text in pending.values():
            out += [" ", text]
        return tuple(out)

    def needs_picks(self, args) -> bool:
        return len(args) < len(self.all_names)


class Action(Choice):
    """A named action: a choice whose `when` is checked first and whose effects run when it is taken."""

    direct = None   # generated code: the segment that runs the whole block, when no effect of it asks a decision
    # argument index -> the values of its domain, where that is a list known at load (codegen/turns.py,
    # known_arguments): a saved option must hold one of them (engine/saves.py)
    fixed_domains = None
    # the indexes of the arguments chosen from groups(xs, attr) (known_arguments too): a saved option's value
    # there must be a group, a non-empty list with no item missing (engine/saves.py)
    grouped = ()

    def __init__(self, name, arg_names, domains, cond, label, when, block, text, subsets=(), final=None):
        super().__init__(name, arg_names, domains, cond, label, subsets, final)
        self.when, self.block, self.text = when, block, text

    def options(self, g, player, env=None):
        """The action's options for `player` (its generated listing checks `when` first)."""
        if not self.subsets:   # the common case, without a call more
            return self.listed(g, EMPTY if env is None else env, player)
        return Choice.options(self, g, EMPTY if env is None else env, player)


class Template:
    """A text with `{expression}` holes, compiled once; values are formatted for people.

    A label, prompt or log line is made outside the VM too (a decision's labels are made when someone
    looks), so a problem in one is located here, at the text, and a line longer than MAX_TEXT is cut."""

    def __init__(self, parts, loc=None, text: str = ""):
        self.parts = parts  # [str | (Compiled)]
        self.loc, self.text = loc, text

    def __call__(self, vm, g, env, pending=None) -> str:
        """The text; a hole that reads a name of `pending` shows that name's stand-in text instead."""
        return joined(self.pieces(vm, g, env, pending), vm.format)

    def pieces(self, vm, g, env, pending=None, counts=None, it=None) -> tuple:
        """The text as pieces: its literal parts, and the values of its holes with their kinds (the words
        are made by `joined`, now or when the log is read). A hole that reads a subset not picked yet
        shows its stand-in (`pending`: '1 to 3 cards'), or, when it is `count(subset)`, how many it will
        hold (`counts`: '1 to 3')."""
        out = []
        try:
            for part in self.parts:
                if isinstance(part, str):
                    out.append(part)
                elif pending and part.locals_used & pending.keys():
                    counted = _counted(part)
                    if counts and counts.get(counted) is not None:
                        out.append(counts[counted])
                    else:
                        out.append(" ".join(pending[n] for n in pending if n in part.locals_used))
                else:
                    value = part(g, env, it)
                    if type(value) is list:
                        spend(g, len(value))   # kept as it is: a zone's list is replaced by a move, never changed
                    out.append((value, part.kind))
        except GameError as exc:
            if exc.located or self.loc is None:
                raise
            raise placed(self.loc, f"{in_function(exc)}{exc}", exc.code) from None
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError, RecursionError) as exc:
            raise placed(self.loc or "?", f"ruleset error in the text '{self.text}': {in_function(exc)}{translate(exc)}",
                         "runtime") from None
        return tuple(out)


def _counted(part):
    """The name in a hole written `count(name)`, else None."""
    tree = getattr(part, "tree", None)
    if getattr(tree, "data", None) != "call" or str(tree.children[0]) != "count" or len(tree.children) != 2:
        return None
    arg = tree.children[1]
    return str(arg.children[0]) if getattr(arg, "data", None) == "name" else None


def joined(pieces, format) -> str:
    """A text from its pieces: literal texts as they are, (value, kind) pairs formatted by `format` (cards
    by label, players as P2, ...); a text longer than MAX_TEXT is cut."""
    text = "".join(p if type(p) is str else format(p[0], p[1]) for p in pieces)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 3] + "..."
