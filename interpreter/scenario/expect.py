"""Expectations: an `expect:` mapping + the game now -> a failure line for every mismatch (the game is not changed)."""
from __future__ import annotations

import re
from collections import Counter

from ..present.log import log_for, log_text
from ..errors import GameError
from ..expr.compiler import ExprError
from .arrange import STAGED
from .words import (ScenarioError, differs, expand, mapping, players_prefix, same, seat, show, spoken)

MATCHERS = ("sorted", "count", "includes", "excludes")
PLAYER_KEY = re.compile(r"(options|view) (P\d+)$")
LOG_KEYS = ("log contains", "log lacks")
# what a view shows of a zone whose cards a player cannot see ("backs": the public card variables on them)
SEEN = ("count", "top", "hidden", "known", "backs")
# (known: [[position, card], ...], the cards of it the player was shown by a reveal)


def expect(run, spec, path: tuple) -> None:
    """Check each expectation; a mismatch is a failure, and the steps go on."""
    game = run.game
    result = game.result or {}
    for key, want in mapping(spec, path, None, "expect").items():
        where = path + (key,)
        m = PLAYER_KEY.match(str(key))
        if key in ("decision", "options") or (m and m.group(1) == "options"):
            try:
                game.decisions()
            except GameError as exc:   # a label of the ruleset that cannot be made
                run.fail(f"the options of the decision cannot be shown: {exc}", where)
                continue
        if key == "decision":
            decision(run, want, where)
        elif key in ("options", "over"):
            compare(run, key, want, list(game.legal_options()) if key == "options" else game.is_over, where)
        elif m and m.group(1) == "options":
            player_options(run, m.group(2), want, where)
        elif m:
            view(run, seat(m.group(2), game.state.n, where), want, where)
        elif key in LOG_KEYS:
            log(run, key, want, run.log_lines(), where)
        elif key in ("winners", "reason") and not game.is_over:
            run.fail(f"expected {key} = {show(want)}, but the game is not over", where)
        elif key in ("winners", "reason"):
            found = result["reason"] if key == "reason" else [f"P{w + 1}" for w in result["winners"]]
            compare(run, key, want, found, where)
        elif key == "scores":
            scores(run, want, where)
        elif run.table.is_staging(key):
            compare(run, key, want, run.table.labels(STAGED), where)
        else:
            compare(run, key, want, evaluate(run, str(key), where), where)


def decision(run, want, path: tuple) -> None:
    """`decision: {player, prompt, choosers}`: the pending decision, and everyone still to choose in it."""
    waiting = run.game.decisions()
    d = waiting[0] if waiting else None
    found = {"player": None if d is None else f"P{d.player + 1}", "prompt": None if d is None else d.prompt,
             "choosers": [f"P{w.player + 1}" for w in waiting]}
    for part, value in mapping(want, path, tuple(found), "decision").items():
        compare(run, f"decision.{part}", value, found[part], path + (part,))


def player_options(run, who: str, want, path: tuple) -> None:
    """`options P2: [...]`: the options of P2, who may be asked now or later in the same simultaneous decision."""
    p = seat(who, run.game.state.n, path)
    waiting = run.game.decisions()
    mine = next((d for d in waiting if d.player == p), None)
    if mine is None:
        asked = ", ".join(f"P{d.player + 1}" for d in waiting) or "nobody: the game is over"
        run.fail(f"expected options {who} = {show(want)}, but {who} has no decision now (asked: {asked})", path)
        return
    compare(run, f"options {who}", want, list(mine.options), path)


def scores(run, want, path: tuple) -> None:
    """`scores: {P1: 6, P2: {birds: 1}}`: totals or score parts, at the end or as they would be now."""
    game = run.game
    if game.is_over:
        table = game.result["scores"]
    else:
        try:
            table = game.rs.scoring.score(game, game.state)
        except (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
            raise ScenarioError(f"the scores cannot be computed now: {exc}", path) from None
    for who, parts in mapping(want, path, [f"P{i + 1}" for i in game.state.players], "scores").items():
        row = table[seat(who, game.state.n)]
        for part, value in (parts if isinstance(parts, dict) else {"total": parts}).items():
            if part not in row:
                raise ScenarioError(f"no score part '{part}': the parts are {', '.join(row)}", path + (who, part),
                                    key=True)
            compare(run, f"scores.{who}.{part}", value, row[part], path + (who,))


def view(run, p: int, want, path: tuple) -> None:
    """`view P2: {...}`: what P2 may see of zones and variables (Game.view), and the log lines P2 may read."""
    game = run.game
    seen = game.view(p)
    who = f"P{p + 1}"
    for key, value in mapping(want, path, None, f"view {who}").items():
        where = path + (key,)
        if key in LOG_KEYS:
            log(run, key, value, readable(run, p), where, f" that {who} may read")
            continue
        found, ordered = seen_of(run, seen, str(key), where)
        what = f"view {who} of {key}"
        if isinstance(value, dict) and set(value) <= set(SEEN) and value:
            if "count" in value and not value.keys() <= {"count", "top", "known", "backs"}:
                raise ScenarioError("in a view, {count: n} means that only the number is seen; it does not go "
                                    "with hidden", where)
            want_seen = {k: expand(v, where + (k,)) if k == "top" else v for k, v in value.items()}
            if isinstance(found, dict) and "backs" not in want_seen:
                found = {k: v for k, v in found.items() if k != "backs"}   # the tokens on the backs: unchecked
            if not isinstance(found, dict) or found.keys() != want_seen.keys() \
                    or not all(fits(found[k], want_seen[k]) for k in found):
                run.fail(differs(what, want_seen, found), where)
        elif isinstance(found, dict) and (isinstance(value, list) or isinstance(value, dict)):
            run.fail(differs(what, value, found), where)
        elif isinstance(value, list) and not ordered:
            compare(run, what, {"sorted": value}, found, where)
        else:
            compare(run, what, value, found, where)


def seen_of(run, seen: dict, key: str, path: tuple):
    """What a view holds for a zone key, a variable ('took', 'P1.score') or current, round, turn; and whether
    the order of its cards is part of it."""
    game = run.game
    g = game.state
    if key in ("current", "round", "turn", "player"):
        return seen[key], True
    text, _ = players_prefix(key, g.n, path)
    if key in g.vars:
        return seen["vars"].get(key, {"hidden": True}), True
    m = re.match(r"players\[(\d+)\]\.(\w+)$", text)
    if m and m.group(2) in g.pvars:
        return seen["player_vars"].get(m.group(2), {}).get(f"P{int(m.group(1)) + 1}", {"hidden": True}), True
    slot = run.table.slot(key, run.me, path)
    if slot == STAGED:
        raise ScenarioError("the staging zone is the scenario's own: no player sees it", path, key=True)
    name, place = run.table.places[slot]
    zone = game.rs.zones[name]
    found = seen["zones"][name]
    for part in place:
        found = found[part]
    return found, zone.ordered


def readable(run, p: int) -> list:
    """The log lines player p may read (everyone's, and those for p), as lines."""
    return [log_text(e) for e in run.log_entries() if log_for(e, p) is not None]


def log(run, key: str, want, lines: list, path: tuple, whose: str = "") -> None:
    """`log contains: text` (or a list): each text is part of some line; `log lacks:` part of none."""
    run.log_read = True
    texts = want if isinstance(want, list) else [want]
    if not texts or not all(isinstance(t, (str, int, float)) and not isinstance(t, bool) for t in texts):
        raise ScenarioError(f"{key}: give a text, or a list of texts", path)
    for text in map(str, texts):
        hits = [line for line in lines if text in line]
        if key == "log contains" and not hits:
            run.fail(f"expected a log line{whose} containing '{text}', found "
                     + (show(lines) if lines else "no lines") + " since the log was last checked", path)
        elif key == "log lacks" and hits:
            run.fail(f"expected no log line{whose} containing '{text}', found {show(hits)}", path)


def evaluate(run, key: str, path: tuple):
    """An expression of the ruleset language ('P1.' may start it) in the author's words; `me` is the chooser."""
    text, shift = players_prefix(key, run.game.state.n, path)
    try:
        fn = run.rules.expression(text)
    except ExprError as exc:
        raise ScenarioError(f"bad expression '{key}': {exc.message}" + (f"; {exc.hint}" if exc.hint else ""),
                            path, max(exc.offset - shift, 0), key=True) from None
    try:
        return spoken(run.game, fn(run.game.state, {"me": run.me}, None), fn.kind)
    except (GameError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as exc:
        raise ScenarioError(f"'{key}' cannot be evaluated: {exc}", path, key=True) from None


def carded(found) -> bool:
    """A view's list of cards that carry card variables: each is a map {card: label, variable: value...}."""
    return isinstance(found, list) and any(isinstance(f, dict) and "card" in f for f in found)


def fits(found, want) -> bool:
    """`same`, where a card of a view that carries card variables ({card: red 3, mark: 2}) is written by its
    label alone (its variables unchecked) or as a map of its label and some of its variables."""
    if isinstance(found, list) and isinstance(want, list):
        return len(found) == len(want) and all(map(fits, found, want))
    if isinstance(found, dict) and "card" in found:
        if isinstance(want, dict):
            return "card" in want and all(k in found and same(found[k], v) for k, v in want.items())
        return same(found["card"], want)
    return same(found, want)


def unmatched(found: list, wants: list) -> list:
    """The wanted cards left over when each found card answers at most one of them, matched so that as many
    as possible are answered (a matching by augmenting paths: a want written by label alone must not take
    the one card a more precise want needed)."""
    owner = [None] * len(found)          # found card -> the want it answers

    def place(w, seen):
        for i, f in enumerate(found):
            if i not in seen and fits(f, wants[w]):
                seen.add(i)
                if owner[i] is None or place(owner[i], seen):
                    owner[i] = w
                    return True
        return False

    return [wants[w] for w in range(len(wants)) if not place(w, set())]


def card_maps(run, wants, path) -> None:
    """A card written as a map names its label (`card`) and only card variables of the ruleset."""
    names = set(run.game.rs.card_vars)
    for w in wants:
        if isinstance(w, dict):
            bad = [k for k in w if k != "card" and k not in names]
            if "card" not in w or bad:
                raise ScenarioError("a card with its variables is written {card: label, variable: value...}"
                                    + (f"; the ruleset has no card variable '{bad[0]}'" if bad else "")
                                    + (f" (it has {', '.join(sorted(names))})" if bad and names else ""), path)


def compare(run, what: str, want, found, path: tuple) -> None:
    """One expectation: a value, or any of {sorted: [...], count: n, includes: [...], excludes: [...]}."""
    if not isinstance(want, dict):
        want = expand(want) if isinstance(want, list) else want
        if isinstance(want, list):
            card_maps(run, want, path)
        if not fits(found, want):
            run.fail(differs(what, want, found), path)
        return
    if not isinstance(found, list):
        raise ScenarioError(f"{what} is {show(found)}, not a list: {', '.join(MATCHERS)} do not apply", path)
    for how, value in mapping(want, path, MATCHERS, what).items():
        if how == "count":
            if len(found) != value:
                run.fail(f"expected {what} to hold {show(value)}, found {len(found)}: {show(found)}", path)
            continue
        value = expand(value, path + (how,))
        if carded(found):
            # cards that carry card variables: written by label, or as maps of some of their variables
            card_maps(run, value, path + (how,))
            missing = unmatched(found, value)
            present = [w for w in value if any(fits(f, w) for f in found)]
            alike = not missing and len(found) == len(value)
        else:
            words = Counter(map(show, found))
            missing = list((Counter(map(show, value)) - words).elements())
            present = [v for v in value if show(v) in words]
            alike = same(sorted(found, key=show), sorted(value, key=show))
        if how == "sorted" and not alike:
            run.fail(f"expected {what} in any order = {show(sorted(value, key=show))}, "
                     f"found {show(sorted(found, key=show))}", path)
        elif how == "includes" and missing:
            run.fail(f"expected {what} to include {show(missing)}, found {show(found)}", path)
        elif how == "excludes" and present:
            run.fail(f"expected {what} not to include {show(present)}, found {show(found)}", path)
