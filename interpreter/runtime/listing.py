"""Option lists made on demand: a step's options whose arguments are independent are not written out.

A step's listing (codegen/options.py) is its actions' options in order, each an (action index, arguments)
pair. Where an action's arguments are independent of one another and no condition filters them (a group
of the hand, a row, a side of it), its options are the product of the domains, in the order of
nested loops over them, and the i-th can be worked out from i alone. A uniform random agent or a playout
reads one option of dozens: `Listing` keeps such a part as its domains and makes an option when it is
read; parts with conditions are lists made as before.

A listing is read-only once the listing function returns it; it reads as the list it stands for: len,
truth, [i] (negative too), slices, iteration, and equality with any sequence of the same options. Game
states and their clones share it as they share option lists, so it never changes: its domains are kept as
they are, since no list is changed in place. A domain may be a zone's list of the state that listed it: a
move, or an undo that deals cards again, replaces that list in the state and leaves the listing's as it was
(runtime/effects.py; tests/test_listing.py has each case). Its items are shared, as an option list shares
them.
"""
from __future__ import annotations

import itertools


_new = object.__new__
SMALL = 12   # a product of at most this many options is listed whole (measured: 8 made on demand cost more)


class Product:
    """The options of one action with independent arguments: (tag, combination) for every combination of
    the domains, the last domain varying fastest."""
    __slots__ = ("tag", "domains", "size")

    def __init__(self, tag: int, domains: tuple, size: int):
        self.tag, self.domains, self.size = tag, domains, size

    def at(self, i: int):
        """The i-th option (0 <= i < size)."""
        domains = self.domains
        k = len(domains)
        if k == 1:
            return self.tag, (domains[0][i],)
        if k == 2:
            a, b = domains
            i, r = divmod(i, len(b))
            return self.tag, (a[i], b[r])
        if k == 3:
            a, b, c = domains
            i, r3 = divmod(i, len(c))
            i, r2 = divmod(i, len(b))
            return self.tag, (a[i], b[r2], c[r3])
        args = []
        for d in reversed(domains):
            i, r = divmod(i, len(d))
            args.append(d[r])
        args.reverse()
        return self.tag, tuple(args)

    def __iter__(self):
        tag = self.tag
        return ((tag, args) for args in itertools.product(*self.domains))


class Listing:
    """A step's options, some parts made on demand (see the module's docstring): `parts` holds lists of
    options and Products, in order; `single` is the Product while it is the only part (read the shortest
    way: the common case)."""
    __slots__ = ("parts", "size", "single")

    def __init__(self, parts: list, size: int, single=None):
        self.parts, self.size, self.single = parts, size, single

    # made by the listing function ---------------------------------------------------------------------
    def append(self, option) -> None:
        last = self.parts[-1]
        if type(last) is list:
            last.append(option)
        else:
            self.parts.append([option])
        self.size += 1
        self.single = None

    def __iadd__(self, options):
        options = list(options)
        if options:
            self.parts.append(options)
            self.size += len(options)
            self.single = None
        return self

    # read like the list it stands for -----------------------------------------------------------------
    def __len__(self) -> int:
        return self.size

    def __bool__(self) -> bool:
        return self.size > 0

    def __getitem__(self, i):
        single = self.single
        if single is not None and type(i) is int and 0 <= i < self.size:
            return single.at(i)
        if type(i) is not int:
            if isinstance(i, slice):
                return list(self)[i]
            i = i.__index__()
        if i < 0:
            i += self.size
            if i < 0:
                raise IndexError("option index out of range")
        for part in self.parts:
            n = len(part) if type(part) is list else part.size
            if i < n:
                return part[i] if type(part) is list else part.at(i)
            i -= n
        raise IndexError("option index out of range")

    def __iter__(self):
        single = self.single
        return iter(single) if single is not None else itertools.chain.from_iterable(self.parts)

    def __eq__(self, other):
        if isinstance(other, (Listing, list, tuple)):
            return len(other) == self.size and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Listing({list(self)!r})"

    def __reduce__(self):
        return list, (list(self),)   # a copy (pickled, deep-copied) is the plain list it stands for


def lazy(out, tag: int, domains: tuple, size: int):
    """`out` (the options listed so far: a list or a Listing) followed by the options of an action whose
    arguments are the independent `domains` (lists, already walked and paid for, that nothing will change:
    see the module's docstring; `size`, the product of their lengths, more than SMALL: generated code lists
    fewer as a list), made on demand."""
    part = _new(Product)   # made without calling __init__: a step's listing makes one per decision
    part.tag, part.domains, part.size = tag, domains, size
    if not out:
        listing = _new(Listing)
        listing.parts, listing.size, listing.single = [part], size, part
        return listing
    if type(out) is list:
        return Listing([out, part], len(out) + size)
    out.parts.append(part)
    out.size += size
    out.single = None
    return out


def argument_rows(options):
    """Rows of argument values (tuples or lists) that together hold every argument of every option, each
    value at least once: an option's arguments, or a product's domain whole (its few values, not its many
    combinations).
    For questions about what options name (engine/lookahead.py: whether any names a card its chooser
    cannot see)."""
    if type(options) is not Listing:
        return (args for _, args in options)
    return itertools.chain.from_iterable(
        (args for _, args in part) if type(part) is list else part.domains for part in options.parts)
