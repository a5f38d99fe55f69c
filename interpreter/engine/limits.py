"""The VM's own limit: a step that runs more than MAX_STEP_NODES effects -> a GameError told at the loop
that ran them.

The work budget itself (items walked, values capped) is the runtime's (runtime/budget.py); what only
the VM knows is which loop was running when a budget ran out: the innermost loop on its stack (a
while, until or for_each whose body waits for decisions, the turns, the rounds), or the loop of
generated code an error was raised in (which is not on the stack). A node says which kind of loop it
is by its `loop` attribute: None for any other node.
"""
from __future__ import annotations

from ..errors import GameError, placed
from ..runtime.budget import MAX_STEP_NODES


def running_loop(vm, stack):
    """The innermost loop running now (a while, until or for_each, or the turns or rounds), or None."""
    nodes = vm.rs.nodes
    return next((nodes[f[3]] for f in reversed(stack) if f[3] >= 0 and nodes[f[3]].loop is not None), None)


def _loop_words(loop) -> str:
    if loop.loop != "effects":
        return f"the {loop.loop} here follow one another and nobody is asked to choose"
    return f"in this '{loop.text}' loop"


def over_nodes(vm, stack, loop=None) -> GameError:
    """The error for a step past MAX_STEP_NODES, at the innermost loop that is running (`loop`: a loop of
    generated code, which is not on the VM's stack)."""
    loop = loop or running_loop(vm, stack)
    what = f"more than {MAX_STEP_NODES:,} effects ran in one step, without a decision"
    if loop is None or loop.loc is None:
        return GameError(what, "budget")
    sep = ", " if loop.loop == "effects" else ": "
    return placed(loop.loc, f"{what}{sep}{_loop_words(loop)} (see Limits in the language reference)", "budget")


def in_loop(vm, stack, exc: GameError, where, loop=None) -> GameError:
    """A budget error raised inside an effect at `where`, told with the loop that runs it (if any; `loop`:
    a loop of generated code, which is not on the VM's stack)."""
    loop = loop or running_loop(vm, stack)
    text = str(exc)
    if loop is not None and loop.loc is not None and loop.loop == "effects":
        text = text.replace(" (see Limits", f", in the '{loop.text}' loop at {loop.loc} (see Limits")
    return placed(where, text, exc.code)


def loop_pass(vm, n: int, loop) -> None:
    """A pass of a loop inside generated code: its `n` effects count as the VM would count them."""
    steps = vm.steps - n
    vm.steps = steps
    if steps < 0:
        raise over_nodes(vm, vm.state.stack, loop)
