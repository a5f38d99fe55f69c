"""Choices: named arguments drawn from domains, a legality condition, and a label; actions add effects."""
from __future__ import annotations

from itertools import product


class Choice:
    """What a player picks: argument names, a domain expression for each, an `if` condition, a label."""

    def __init__(self, name, arg_names, domains, cond, label):
        self.name = name
        self.arg_names = tuple(arg_names)
        self.domains = tuple(domains)
        self.cond = cond
        self.label_template = label  # a Template, or None for "name arg arg"
        self.kinds = ()  # static kinds of the arguments, for labels
        # When no domain reads an earlier argument, options are a plain cartesian product.
        self.independent = not any(getattr(d, "locals_used", set()) & set(self.arg_names) for d in self.domains)

    def options(self, g, env, player):
        """Every legal binding of the arguments, as tuples, in domain order."""
        env = dict(env)
        env["me"] = player
        out = []
        names, domains, cond = self.arg_names, self.domains, self.cond
        if not names:
            if cond is None or cond(g, env, None):
                out.append(())
            return out
        if len(names) == 1:
            name = names[0]
            for v in domains[0](g, env, None):
                env[name] = v
                if cond is None or cond(g, env, None):
                    out.append((v,))
            return out
        if self.independent:
            combos = product(*[list(d(g, env, None)) for d in domains])
            if cond is None:
                return list(combos)
            for combo in combos:
                env.update(zip(names, combo))
                if cond(g, env, None):
                    out.append(combo)
            return out
        last = len(names) - 1

        def walk(i, prefix):
            name = names[i]
            for v in domains[i](g, env, None):
                env[name] = v
                if i == last:
                    if cond is None or cond(g, env, None):
                        out.append(prefix + (v,))
                else:
                    walk(i + 1, prefix + (v,))
        walk(0, ())
        return out

    def label(self, vm, g, player, args, outer=None):
        """The readable label of one option (`outer`: the names around a `choose`, which its label may use)."""
        env = {} if outer is None else dict(outer)
        env["me"] = player
        env.update(zip(self.arg_names, args))
        if self.label_template is not None:
            return self.label_template(vm, g, env)
        parts = [self.name] + [vm.format(v, k) for v, k in zip(args, self.kinds)]
        return " ".join(parts)


class Action(Choice):
    """A named action: a choice whose `when` is checked first and whose effects run when it is taken."""

    def __init__(self, name, arg_names, domains, cond, label, when, block, text):
        super().__init__(name, arg_names, domains, cond, label)
        self.when, self.block, self.text = when, block, text

    def options(self, g, player, env=None):
        if self.when is not None:
            check = {"me": player} if env is None else dict(env, me=player)
            if not self.when(g, check, None):
                return []
        return Choice.options(self, g, {} if env is None else env, player)


class Template:
    """A text with `{expression}` holes, compiled once; values are formatted for people."""

    def __init__(self, parts):
        self.parts = parts  # [str | (Compiled)]

    def __call__(self, vm, g, env):
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
            else:
                out.append(vm.format(part(g, env, None), part.kind))
        return "".join(out)
