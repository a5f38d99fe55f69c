"""Generate Python for a compiled ruleset: option lists, runs of effects, the turn's transition and position
values as source.

The route is Jinja's: the checked ruleset is written out as Python source once, while it compiles
(options.py, effects.py, turns.py and scoring.py write its parts; module.py assembles, compiles and
installs it), and the engine calls the functions it defines. See docs/compile.md.
"""


def python_source(ruleset) -> str:
    """The generated module of a ruleset, as people read it."""
    from .module import python_source as source
    return source(ruleset)
