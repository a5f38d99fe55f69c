"""Generate Python for a compiled ruleset: expressions, option lists, end checks and runs of effects as source.

The route is Jinja's: the checked ruleset is written out as Python source once (emit.py writes it
safely, options.py and effects.py write its parts, module.py assembles, compiles and installs it),
and the engine calls the functions it defines. See docs/compile.md.
"""


def prepare(ruleset) -> None:
    """Generate, compile and install a ruleset's code (once)."""
    from .module import prepare as run
    run(ruleset)


def python_source(ruleset) -> str:
    """The generated module of a ruleset, as people read it."""
    from .module import python_source as source
    return source(ruleset)
