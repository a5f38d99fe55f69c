"""Any ruleset as a reinforcement-learning environment: a ruleset name or file -> a PettingZoo AEC environment
(`rulebook_env`) or a Gymnasium one for one learner against rulebook's bots (`rulebook_gym`); docs/rl.md.

They need the optional extra `rl` (numpy, gymnasium, pettingzoo): `pip install 'rulebook[rl]'`. Without
it, either function raises MissingExtra (an ImportError and a RulebookError) saying so in one line.
"""
from __future__ import annotations

from ..errors import RulebookError

MISSING = "the reinforcement-learning environments need the rl extra: pip install 'rulebook[rl]'"
EXTRA = ("numpy", "gymnasium", "pettingzoo")

__all__ = ["rulebook_env", "rulebook_gym", "MissingExtra"]


class MissingExtra(RulebookError, ImportError):
    """A feature's optional dependencies are not installed."""


def _module(name: str):
    import importlib
    try:
        return importlib.import_module(name, __name__)
    except ImportError as exc:
        if (exc.name or "").split(".")[0] in EXTRA:
            raise MissingExtra(MISSING) from None
        raise


def _rules(ruleset):
    from .. import load
    from ..ruleset import Ruleset
    return ruleset if isinstance(ruleset, Ruleset) else load(ruleset)


def rulebook_env(ruleset, players: int | None = None, params: dict | None = None, **options):
    """A PettingZoo AEC environment of `ruleset` (a bundled name, a file, or a loaded Ruleset) for `players`
    seats (default: the fewest it allows). Options: reward ("win" or "margin"), illegal ("raise" or
    "penalty"), illegal_reward, max_steps, labels (each legal action's label in `info`), render_mode."""
    module = _module(".aec")
    rules = _rules(ruleset)
    return module.RulebookEnv(rules, rules.min_players if players is None else players, params, **options)


def rulebook_gym(ruleset, players: int | None = None, params: dict | None = None, **options):
    """A Gymnasium environment of one seat of `ruleset` against rulebook's bots (`opponents`, default
    "greedy"; `seat`, default "random"); other options as rulebook_env."""
    module = _module(".single")
    rules = _rules(ruleset)
    return module.RulebookGymEnv(rules, rules.min_players if players is None else players, params=params, **options)
