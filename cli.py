"""The `rulebook` command line: list, validate, play, simulate and compare rulesets (click commands over the interpreter)."""
from __future__ import annotations

import json
import re
import os
import signal
import sys
import textwrap

from contextlib import contextmanager
from pathlib import Path

import click

from interpreter import GameError, RulebookError, RulesetError
from interpreter.bundled import bundled, resolve, schema_path

# The compiler, the engine and the rest are imported by the commands that use them: `list` and
# `validate` answer from the cache (interpreter/cache.py) without them, and start in a fraction of
# the time.

# interpreter.analysis.runner.BACKENDS (a test keeps them equal); importing it would load the engine
BACKENDS = ("local", "ray")


def _params(values) -> dict:
    """`--param name=value` options -> a dict; values are read as YAML scalars (7, true, deck)."""
    import yaml
    out = {}
    for item in values:
        if "=" not in item:
            raise click.BadParameter(f"'{item}' is not name=value", param_hint="'--param'")
        name, _, raw = item.partition("=")
        try:
            out[name.strip()] = yaml.safe_load(raw)
        except yaml.YAMLError:
            raise click.BadParameter(f"cannot read the value of '{item}'", param_hint="'--param'")
    return out


def _overrides(rules, values) -> dict:
    """`--param` options checked against the ruleset as a variant's parameters are: a usage error if wrong."""
    from interpreter.parameters import override_problem
    out = _params(values)
    for name, value in out.items():
        problem = override_problem(name, value, rules.params, rules.param_choices)
        if problem is not None:
            message, hint = problem
            raise click.BadParameter(message + (f"; {hint}" if hint else ""), param_hint="'--param'")
    return out


def _agents(text: str | None, rules=None) -> list[str]:
    """`--agents a,b:key=value` -> agent specs, each one an agent that exists with settings it takes (and,
    given the ruleset, one that can play it)."""
    from interpreter.agents import AgentSpecError, agent_problem, parse_spec
    names = [a.strip() for a in text.split(",") if a.strip()] if text else []
    for name in names:
        try:
            spec = parse_spec(name)
            if spec.user:
                spec.make(0)   # the module imports, the class exists and takes these settings
        except AgentSpecError as exc:
            raise click.BadParameter(str(exc), param_hint="'--agents'")
        problem = agent_problem(spec, rules) if rules is not None else None
        if problem:
            raise click.BadParameter(problem, param_hint="'--agents'")
    return names


AGENTS_HELP = ("Agents by seat, comma-separated: random, first, greedy "
               "(one step ahead, scored by the ruleset's 'agents: evaluate', else by its score parts: own "
               "total minus the best other), mcts (tree search over worlds dealt from what the player sees), "
               "human, or module:ClassName (your own Python agent; see docs/agents.md). Settings follow a "
               "name: mcts:iterations=400:time=1 (see 'rulebook agents').")


def _players(rules, players: int | None) -> int:
    """The number of players: the ruleset's minimum unless given; outside its range, a usage error."""
    n = players if players is not None else rules.min_players
    if not rules.min_players <= n <= rules.max_players:
        raise click.BadParameter(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}",
                                 param_hint="'--players'")
    return n


def _run_options(command):
    """--jobs, --backend and --ray-address: where the games of a command are played."""
    command = click.option("--ray-address", metavar="ADDRESS",
                           help="With --backend ray: the cluster to use (as `ray start` prints it, e.g. "
                                "10.0.0.5:6379); default: $RAY_ADDRESS, else a new local Ray.")(command)
    command = click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
                           help="Play on local processes, or as Ray tasks (needs pip install 'rulebook[ray]').")(command)
    command = click.option("--jobs", "-j", type=click.IntRange(0, 4096), default=None,
                           help="Games played at once: local processes, or the CPUs of a new local Ray "
                                "(0: one per CPU). Default: 1 locally, every CPU with Ray. The results "
                                "do not depend on it.")(command)
    return command


def _runner(jobs, backend, address):
    from interpreter.analysis.runner import Runner
    if address and backend != "ray":
        raise click.BadParameter("only with --backend ray", param_hint="'--ray-address'")
    if backend == "ray":
        try:
            import ray  # noqa: F401  (fail before any game is played)
        except ImportError:
            raise RulebookError("--backend ray needs Ray: pip install 'rulebook[ray]'") from None
    return Runner(jobs if jobs is not None else (0 if backend == "ray" else 1), backend, address)


@contextmanager
def _progress(total: int, label: str, show: bool):
    """A progress bar with an ETA on stderr when it is a terminal (and `show`); else nothing."""
    if not (show and sys.stderr.isatty()):
        yield None
        return
    from interpreter.analysis.progress import ProgressBar
    bar = ProgressBar(total, label, sys.stderr)
    try:
        yield bar.update
    finally:
        bar.close()


def _check_out(ctx, param, value):
    from interpreter.analysis.records import record_format
    if value is not None and record_format(value) is None:
        raise click.BadParameter(f"'{value}' should end in .jsonl or .csv")
    return value


_out_option = click.option("--out", "-o", metavar="FILE", callback=_check_out,
                           help="Write one row per game to FILE: JSON lines (.jsonl) or CSV (.csv); "
                                "columns in docs/simulation.md.")
_course_option = click.option("--course", "course", is_flag=True,
                              help="Also measure the course of each game: lead changes, drama, comebacks, when the "
                                   "outcome settled, uncertainty, branching factor, forced decisions (docs/simulation.md; "
                                   "scores every turn, so random play runs slower).")
_course_out_option = click.option("--course-out", metavar="FILE", callback=_check_out,
                                  help="Write one row per decision to FILE (.jsonl or .csv): who decided, how many "
                                       "options, every score part, a searching bot's estimate. Implies --course.")
_plots_option = click.option("--plots", metavar="DIR",
                             help="Write PNG charts to DIR (created if missing; needs pip install 'rulebook[plots]').")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option("0.1.0", prog_name="rulebook")
def cli():
    """rulebook: card games described as YAML rulesets, run by one interpreter.

    RULESET is the name of a bundled ruleset (see `rulebook list`) or a path to a YAML file.

    \b
    Examples:
      rulebook list
      rulebook play NAME --players 3 --agents human,random
      rulebook simulate NAME --games 1000 --players 4
      rulebook compare NAME my-variant.yaml --games 2000
      rulebook validate my-game.yaml
    """


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def list_cmd(as_json):
    """List the bundled rulesets with their player range and a one-line description."""
    rows = [_list_row(name, path) for name, path in bundled().items()]
    if as_json:
        echo(json.dumps(rows, indent=2))
        return
    width = max(len(r["name"]) for r in rows) if rows else 10
    echo(f"{'name':<{width}}  players  description")
    for r in rows:
        players = f"{r['players'][0]}-{r['players'][1]}" if r["players"] else "?"
        variant = f" (variant of {r['extends']})" if r.get("extends") else ""
        echo(f"{r['name']:<{width}}  {players:<7}  {r['text']}{variant}")


def _list_row(name, path) -> dict:
    """One row of `list`: from the cache while the ruleset's files and the interpreter are unchanged."""
    from interpreter import cache
    found = cache.lookup("list", str(path))
    if found is not None:
        return found
    from interpreter import load
    try:
        rules = load(str(path))
        base = Path(rules.chain[-2]).stem if len(rules.chain) > 1 else None
        row = {"name": name, "title": rules.title, "players": [rules.min_players, rules.max_players],
               "text": _first_sentence(rules.text), "extends": base, "path": str(path)}
        cache.store("list", str(path), rules.chain, row)
        return row
    except RulebookError as exc:
        return {"name": name, "title": "(invalid)", "players": None, "text": str(exc).splitlines()[0],
                "path": str(path)}


def _first_sentence(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    end = text.find(". ")
    if 0 < end < limit:
        return text[:end + 1]
    return text if len(text) <= limit else text[:limit - 3].rsplit(" ", 1)[0] + "..."


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="RULESET...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Diagnostics as text or as JSON data.")
@click.option("--strict", is_flag=True, help="Treat warnings (design lint) as errors.")
@click.option("--simulate", "games", type=click.IntRange(0, 100_000), default=0,
              help="Also play N seeded games per player count with the ruleset's bots and report "
                   "actions never taken and games that stall.")
@_run_options
def validate(files, fmt, strict, games, jobs, backend, ray_address):
    """Check rulesets (files or bundled names); print every problem as file:line:col with the line and a caret.

    Errors stop a ruleset from loading; warnings point at likely design mistakes (a declared card
    total that disagrees with the cards, a parameter or zone never used, an action never offered,
    a deck dealt from before it is shuffled, a score part that cannot change, a parameter a variant
    sets that nothing reads). Exit status: 0 when every file is valid, 1 otherwise (warnings count
    with --strict).

    \b
    Examples:
      rulebook validate my-game.yaml my-variant.yaml
      rulebook validate NAME
      rulebook validate my-game.yaml --simulate 200 --jobs 2
    """
    runner = _runner(jobs, backend, ray_address) if games else None
    report, failed = [], False
    for f in files:
        diags = _diagnostics(f, games, runner, fmt == "text")
        errors = sum(d.severity == "error" for d in diags)
        warnings = len(diags) - errors
        bad = errors > 0 or (strict and warnings > 0)
        failed = failed or bad
        report.append({"file": f, "valid": not bad, "errors": errors, "warnings": warnings,
                       "diagnostics": [d.to_json() for d in diags]})
        if fmt == "text":
            for d in diags:
                echo(d.render())
            if diags:
                counts = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((errors, "error"), (warnings, "warning")) if n]
                echo(f"{f}: " + ", ".join(counts))
            else:
                echo(f"{f}: ok")
    if fmt == "json":
        echo(json.dumps(report, indent=2))
    sys.exit(1 if failed else 0)


def _diagnostics(f: str, games: int, runner, show_progress: bool) -> list:
    """What `validate` finds in one file: from the cache while the files and the interpreter are unchanged
    (not with --simulate, which plays games)."""
    from interpreter import cache
    if not games:
        found = cache.lookup("validate", f)
        if found is not None:
            return [cache.diagnostic_of(d) for d in found]
    from interpreter import load_source
    from interpreter.extends import load_merged
    from interpreter.probe import probe, probe_games
    try:
        source = load_merged(resolve(f))
    except RulesetError as exc:
        return exc.diagnostics
    chain = getattr(source, "chain", [source.file])
    try:
        rules = load_source(source)
        diags = list(rules.warnings)
        if games:
            with _progress(probe_games(rules, games), f"playing {f}", show_progress) as update:
                return diags + probe(rules, source, games, runner=runner, progress=update)
    except RulesetError as exc:
        diags = exc.diagnostics
    cache.store("validate", f, chain, [cache.diagnostic_data(d) for d in diags])
    return diags


@cli.command()
@click.argument("ruleset", required=False)
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a", help=AGENTS_HELP + " Seats after the list repeat its bots (never human). "
              "Default: you, then the ruleset's default bot.")
@click.option("--seed", "-s", type=int, default=None, help="Random seed (default: a fresh one, printed).")
@click.option("--param", "params", multiple=True, help="Override a parameter: --param hand_size=7.")
@click.option("--names", help="Names of the seats, comma-separated: --names Ada,Bea.")
@click.option("--plain", is_flag=True, help="Plain text without colour (the default when the output is not a terminal).")
@click.option("--resume", "resume", type=click.Path(dir_okay=False), default=None,
              help="Go on with a game saved by 'quit' (RULESET may then be left out).")
@click.option("--quiet", "-q", is_flag=True, help="With bots only: print the result, not every move.")
def play(ruleset, players, agents, seed, params, names, plain, resume, quiet):
    """Play a game in the terminal against bots, with friends at one terminal, or watch bots play.

    The screen shows what your seat may see: the board, every player's zones and score, what just
    happened, and your options. A long list of options is chosen in steps (first the cards, then
    where); typing part of an option narrows the list. Type 'help' for the rules and every option,
    'quit' to leave (and save), 'undo' to take back your last move against bots. Several 'human'
    seats play at one terminal, with a hand-over screen between them.

    \b
    Examples:
      rulebook play NAME
      rulebook play NAME --players 4 --agents human,random,random,first --seed 7
      rulebook play NAME --players 3 --agents human,human --names Ada,Bea
      rulebook play my-game.yaml --agents random --seed 1
      rulebook play --resume rulebook-save.json
    """
    from interpreter import Game, GameError, load
    from interpreter.present.screen import Screen
    from interpreter.present.terminal import Session, read_saved, seat_agents as play_seats
    saved = read_saved(resume, agents_given=bool(agents)) if resume else None
    if saved is None and ruleset is None:
        raise click.UsageError("name a RULESET, or --resume a saved game")
    rules = load(ruleset or saved["ruleset"])
    if saved is not None:
        game = Game.from_json(rules, saved["game"])
        if game.state.n != saved["players"]:
            raise GameError(f"{resume} is damaged: its game has {game.state.n} players, not {saved['players']}",
                            "saved-game")
        n, seed, overrides = game.state.n, saved["seed"], saved.get("params") or {}
        seats = play_seats(_agents(agents, rules), n, rules.default_agent or "random") if agents else saved["agents"]
        seat_names = _names(names, n) if names else saved.get("names") or []
    else:
        n = _players(rules, players)
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        overrides = _overrides(rules, params)
        seats = play_seats(_agents(agents, rules), n, rules.default_agent or "random")
        seat_names = _names(names, n)
        game = Game.new(rules, n, seed=seed, params=overrides)
    plain = plain or not sys.stdout.isatty()
    screen = Screen(plain, echo=click.echo if plain else None)
    echo(f"{rules.title}: {n} players, seed {seed}; seats: "
               + ", ".join(f"P{i + 1} {a}" + (f" ({seat_names[i]})" if i < len(seat_names) and seat_names[i] else "")
                           for i, a in enumerate(seats)))
    session = Session(rules, game, seats, seed, overrides, seat_names, screen, _ask(plain), quiet,
                      source=ruleset or saved["ruleset"])
    if saved is not None:
        session.chosen_by = list(saved.get("chosen_by") or [])
    try:
        code = session.run()
    except KeyboardInterrupt:
        echo(f"\nleft the game at turn {session.game.state.turn} (Ctrl-C); it was not saved")
        sys.exit(1)
    sys.exit(code)


def _ask(plain: bool):
    """A function that reads one line from the person at the terminal."""
    def ask(text: str) -> str:
        echo(text, nl=False)
        line = sys.stdin.readline()
        if not line:
            raise EOFError()
        return line.rstrip("\n")
    return ask


def _names(text: str | None, n: int) -> list[str]:
    names = [x.strip() for x in text.split(",")] if text else []
    if len(names) > n:
        raise click.BadParameter(f"{len(names)} names for {n} players", param_hint="'--names'")
    return names


@cli.command()
@click.argument("ruleset", required=False)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: other machines on your network too).")
@click.option("--db", "db", type=click.Path(dir_okay=False),
              help="The SQLite file that keeps the games (default: rulebook/games.sqlite3 in $XDG_DATA_HOME, "
                   "else in ~/.local/share).")
def serve(ruleset, port, host, db):
    """Play in the browser: a local web app to start a game, take seats (bots in the others) and play.

    Open the printed address, choose the game and who sits where, and give each person the link of
    their seat: whoever holds a seat's link plays that seat, and each browser is sent only what its
    seat may see. Games are stored as they are played and continue after a restart. RULESET (a
    bundled name or a file) comes first in the list of games. Needs the web extra: pip install
    'rulebook[web]'. See docs/serve.md.

    \b
    Examples:
      rulebook serve
      rulebook serve NAME --port 8080
      rulebook serve my-game.yaml --db games.sqlite3
    """
    try:
        import uvicorn
        from interpreter.serve.app import create_app
        from interpreter.serve.store import default_path
    except ImportError as exc:
        raise click.ClickException(f"serve needs the web extra ({exc.name} is missing): "
                                   "pip install 'rulebook[web]'")
    import sqlite3
    path = db or default_path()
    try:
        app = create_app(ruleset, db=path)
    except sqlite3.Error as exc:
        raise click.ClickException(f"{path}: cannot keep games there: {exc}")
    except OSError as exc:   # its folder cannot be made (a file in the way, no permission)
        raise click.ClickException(f"{path}: cannot keep games there: {exc.strerror or exc}"
                                   + (f" ({exc.filename})" if exc.filename else ""))
    echo(f"rulebook: games are kept in {path}")
    for _, problem in app.state.problems:
        echo(f"rulebook: {problem}", err=True)
    echo(f"rulebook: open http://{host if host != '0.0.0.0' else 'localhost'}:{port}/ in a browser "
               "(Ctrl-C stops the server)")
    # a page sends choices of a few dozen bytes: a larger frame closes its socket
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=64 * 1024)


@cli.command("simulate")
@click.argument("ruleset")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="Number of games.")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a", help=AGENTS_HELP + " The list repeats to fill the seats. Default: the ruleset's default bot (random if it "
              "names none).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--param", "params", multiple=True, help="Override a parameter: --param hand_size=7.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON (and no progress bar).")
@_out_option
@_course_option
@_course_out_option
@_plots_option
@_run_options
def simulate_cmd(ruleset, games, players, agents, seed, params, as_json, out, course, course_out, plots, jobs,
                 backend, ray_address):
    """Play many seeded games between bots and report who wins, how games end and how long they last.

    Win rates come with 95% intervals (Wilson), the first seat's advantage with its interval, game
    length and scores with their spread (sd, median, 5th and 95th percentile), and the counters the
    ruleset declares. Game i uses seed S+i, so a run can be repeated exactly, with any --jobs.

    \b
    Examples:
      rulebook simulate NAME --games 1000 --players 3
      rulebook simulate my-game.yaml --games 500 --agents random,first --json
      rulebook simulate NAME --games 5000 --jobs 2 --out games.csv --plots charts/
      rulebook simulate NAME --games 200 --agents greedy --course-out decisions.jsonl
    """
    from interpreter import load
    from interpreter.analysis.course import METRICS, column_names
    from interpreter.analysis.plots import pyplot, simulation_plots
    from interpreter.analysis.records import columns
    from interpreter.analysis.report import simulation_text
    from interpreter.analysis.simulation import counter_names, run_simulation, score_parts
    if out and course_out and Path(out).resolve() == Path(course_out).resolve():
        raise click.BadParameter("--course-out must be another file than --out", param_hint="'--course-out'")
    level = 2 if course_out else 1 if course else 0
    rules = load(ruleset)
    n = _players(rules, players)
    names = _bots(_agents(agents, rules) or [rules.default_agent or "random"], "simulate")
    overrides = _overrides(rules, params)
    if plots:
        pyplot()   # a missing extra is reported before the games are played
    runner = _runner(jobs, backend, ray_address)
    with _records(out, columns(score_parts(rules), n, counter_names(rules), metrics=METRICS if level else ())) as writer, \
            _records(course_out, column_names(score_parts(rules), n)) as course_writer, \
            _progress(games, "simulating", not as_json) as update:
        run = run_simulation(rules, games, n, names, seed, overrides, runner, update,
                             on_row=writer.write if writer else None, course=level,
                             on_course=course_writer.write if course_writer else None)
    summary = run.summary
    if out:
        summary["records"] = out
    if course_out:
        summary["course_records"] = course_out
    if plots:
        summary["plots"] = simulation_plots(summary, run.tally, plots)
    if as_json:
        echo(json.dumps(summary, indent=2))
        return
    echo(simulation_text(summary))
    _print_files(summary)


def _bots(names: list[str], command: str, what: str = "plays bots only") -> list[str]:
    from interpreter.agents import parse_spec
    if any(parse_spec(n).name == "human" for n in names):
        raise click.BadParameter(f"{command} {what}; use 'rulebook play' to play", param_hint="'--agents'")
    return names


@contextmanager
def _records(out: str | None, names: list[str]):
    """The record file's writer (None without --out): put in place when the run succeeds, else dropped."""
    if not out:
        yield None
        return
    from interpreter.analysis.records import RecordWriter
    writer = RecordWriter(out, names)
    try:
        yield writer
    except BaseException:
        writer.close(keep=False)
        raise
    writer.close()


def _print_files(summary: dict) -> None:
    if summary.get("records"):
        echo(f"records: {summary['records']}")
    if summary.get("course_records"):
        echo(f"decisions: {summary['course_records']}")
    if summary.get("plots"):
        echo("plots: " + ", ".join(summary["plots"]))


@cli.command("compare")
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=500, show_default=True,
              help="Games on each side (the same seeds on both).")
@click.option("--players", "-p", type=int, help="Number of players (default: the smallest both allow).")
@click.option("--agents", "-a", help=AGENTS_HELP + " The same agents sit at both sides (the list repeats to fill). "
              "Default: each ruleset's default bot (random if it names none).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--param", "params", multiple=True, help="Override a parameter on both sides: --param hand_size=7.")
@click.option("--param-a", "params_a", multiple=True, help="Override a parameter of A only.")
@click.option("--param-b", "params_b", multiple=True, help="Override a parameter of B only.")
@click.option("--json", "as_json", is_flag=True, help="Print both sides and the differences as JSON.")
@_out_option
@click.option("--course", "course", is_flag=True,
              help="Also compare the course of the games (lead changes, drama, comebacks, when the outcome settled, "
                   "uncertainty, branching, forced decisions), as exploratory statistics.")
@_plots_option
@_run_options
def compare_cmd(ruleset_a, ruleset_b, games, players, agents, seed, params, params_a, params_b, as_json, out,
                course, plots, jobs, backend, ray_address):
    """Compare two rulesets, or one ruleset with two parameter sets, on the same seeds.

    Game i of A and game i of B start from the same seed (the same shuffle where the cards are
    the same), so differences show with fewer games; the report says when the seeds did not pair
    the games. Every statistic is shown for A and B with the difference B - A, its 95% interval
    and p-value. Only the headline statistics (win rate by seat, first-seat advantage, game
    length, winning margin) are flagged, after Holm's correction across them; the rest are
    exploratory. Then a verdict in plain words for each: what changed, and what this many games
    cannot tell apart.

    \b
    Examples:
      rulebook compare NAME my-variant.yaml --games 2000 --players 3
      rulebook compare NAME NAME --param-b hand_size=7 --jobs 2
      rulebook compare NAME my-variant.yaml --json --out games.csv --plots charts/
    """
    from interpreter import load
    from interpreter.analysis.compare import compare
    from interpreter.analysis.plots import comparison_plots, pyplot
    from interpreter.analysis.course import METRICS
    from interpreter.analysis.records import columns
    from interpreter.analysis.report import comparison_text
    from interpreter.analysis.simulation import Table, counter_names, score_parts
    from interpreter.simulate import seat_agents
    rules_a, rules_b = load(ruleset_a), load(ruleset_b)
    if players is None:
        players = max(rules_a.min_players, rules_b.min_players)
    players = _players(rules_b, _players(rules_a, players))
    names = _bots(_agents(agents, rules_a) and _agents(agents, rules_b), "compare")
    tables = [Table(r, players, seat_agents(names or [r.default_agent or "random"], players),
                    _overrides(r, params + extra), 1 if course else 0)
              for r, extra in ((rules_a, params_a), (rules_b, params_b))]
    if plots:
        pyplot()
    runner = _runner(jobs, backend, ray_address)
    parts = list(dict.fromkeys(score_parts(rules_a) + score_parts(rules_b)))
    counters = list(dict.fromkeys(counter_names(rules_a) + counter_names(rules_b)))
    with _records(out, columns(parts, players, counters, ["side", "label"], METRICS if course else ())) as writer, \
            _progress(2 * games, "comparing", not as_json) as update:
        result = compare(*tables, games, seed, runner, update, on_row=writer.write if writer else None)
    summary = result.summary
    if out:
        summary["records"] = out
    if plots:
        summary["plots"] = comparison_plots(summary, result.tallies, plots)
    if as_json:
        echo(json.dumps(summary, indent=2))
        return
    echo(comparison_text(summary))
    _print_files(summary)


@cli.command("tournament")
@click.argument("ruleset")
@click.option("--agents", "-a",
              help="The agents that play, comma-separated specs as in simulate (mcts:iterations=400, greedy, "
                   "module:ClassName ...). With fewer agents than seats the list repeats to fill the table; a "
                   "spec named twice is one agent in two seats. With --ladder: the rungs, weakest first.")
@click.option("--ladder", is_flag=True,
              help="A skill ladder: each rung against the one below (--games games each): random, greedy, "
                   "mcts at 25, 50, 100, 200 and 400 iterations, unless --agents names the rungs.")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="Number of games (rounded up to whole cycles of the seatings).")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seed of the first cycle; cycle c (every seating once) uses seed+c.")
@click.option("--param", "params", multiple=True, help="Override a parameter: --param hand_size=7.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (and no progress bar).")
@_run_options
def tournament_cmd(ruleset, agents, ladder, games, players, seed, params, as_json, jobs, backend, ray_address):
    """Play agents against each other with every agent in every seat equally often; report win rates with
    95% intervals per agent, per seat and per agent in each seat, pairwise results and decision times.

    A win counts 1, a win shared by k players 1/k, a game nobody won 1/n for each seat. Pairwise, an
    agent finished ahead of another when it won and the other did not, else when its score total was
    higher.

    \b
    Examples:
      rulebook tournament NAME --agents mcts,greedy,random --games 300
      rulebook tournament NAME --players 4 --agents mcts,greedy --games 200 --jobs 2 --json
      rulebook tournament NAME --agents mcts:iterations=100,mcts:iterations=400 --games 100
      rulebook tournament NAME --ladder --games 100
    """
    from interpreter import load
    from interpreter.tournament import report_text, schedule, tournament
    rules = load(ruleset)
    n = _players(rules, players)
    if ladder:
        _ladder(rules, n, agents, games, seed, params, as_json, jobs, backend, ray_address)
        return
    if agents is None:
        raise click.UsageError("Missing option '--agents' (or give --ladder)")
    names = _agents(agents, rules)
    if not names:
        raise click.BadParameter("name at least one agent", param_hint="'--agents'")
    _bots(names, "a tournament")
    overrides = _overrides(rules, params)
    runner = _runner(jobs, backend, ray_address)
    total = len(schedule(names, n, games, seed)[0])
    with _progress(total, "playing", not as_json) as update:
        summary = tournament(rules, names, n, games, seed, overrides, runner, update)
    echo(json.dumps(summary, indent=2) if as_json else report_text(summary))


def _ladder(rules, n, agents, games, seed, params, as_json, jobs, backend, ray_address):
    """tournament --ladder: the rungs given (weakest first) or the default ones, each against the one below."""
    from interpreter.tournament import ladder, ladder_games, ladder_rungs, ladder_text
    rungs = _agents(agents, rules) if agents is not None else ladder_rungs(rules)
    if len(rungs) < 2:
        raise click.BadParameter("a ladder needs at least two rungs", param_hint="'--agents'")
    _bots(rungs, "a ladder")
    overrides = _overrides(rules, params)
    runner = _runner(jobs, backend, ray_address)
    with _progress(ladder_games(rungs, n, games, seed), "climbing", not as_json) as update:
        summary = ladder(rules, n, rungs, games, seed, overrides, runner, update)
    echo(json.dumps(summary, indent=2) if as_json else ladder_text(summary))


@cli.command("analyze")
@click.argument("ruleset")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a",
              help="The agents, comma-separated specs as in simulate, weakest first. The first plays every seat "
                   "for the balance and the course of the games; with several, each plays the one before it "
                   "(the skill ladder). Default: the ruleset's default bot.")
@click.option("--games", "-n", type=click.IntRange(2, 10_000_000), default=200, show_default=True,
              help="Games for the balance by seat, the length and the course of the games.")
@click.option("--ladder-games", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="Games for each step of the skill ladder (rounded up to whole cycles of the seatings).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--param", "params", multiple=True, help="Override a parameter: --param hand_size=7.")
@click.option("--report", "report", metavar="FILE.html",
              help="Where to write the HTML page (default: RULESET-analysis.html here).")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON instead (no page unless --report).")
@_run_options
def analyze_cmd(ruleset, players, agents, games, ladder_games, seed, params, report, as_json, jobs, backend,
                ray_address):
    """One report for a designer: a verdict in words, then balance by seat, the skill ladder of the agents
    given, game length and its spread, the course of the games (lead changes, drama, when the outcome
    settled...), end reasons, stalls and the actions never or always taken, as a self-contained HTML page.

    \b
    Examples:
      rulebook analyze my-game.yaml --players 3
      rulebook analyze my-game.yaml --players 2 --agents random,greedy --ladder-games 60
      rulebook analyze my-game.yaml --games 500 --jobs 2 --report my-game.html
    """
    from interpreter import load
    from interpreter.analysis.page import page
    from interpreter.analyze import analysis_games, analyze
    if report is not None and not report.lower().endswith((".html", ".htm")):
        raise click.BadParameter(f"'{report}' should end in .html", param_hint="'--report'")
    rules = load(ruleset)
    n = _players(rules, players)
    names = _bots(_agents(agents, rules) or [rules.default_agent or "random"], "analyze")
    overrides = _overrides(rules, params)
    runner = _runner(jobs, backend, ray_address)
    with _progress(analysis_games(names, n, games, ladder_games), "analysing", not as_json) as update:
        result = analyze(rules, n, names, games, seed, overrides, runner, update, ladder_games)
    path = report or (None if as_json else f"{Path(rules.name).name}-analysis.html")
    if path:
        try:
            Path(path).write_text(page(result), encoding="utf-8")
        except OSError as exc:
            raise RulebookError(f"cannot write {path}: {exc.strerror or exc}") from None
        result["report"] = path
    if as_json:
        echo(json.dumps(result, indent=2))
        return
    echo(textwrap.fill(result["verdict"], width=100))
    echo(f"report: {path}")


@cli.command("tune")
@click.argument("ruleset")
@click.option("--vary", "varies", multiple=True, required=True, metavar="NAME=LO..HI",
              help="A parameter to search: NAME=LO..HI (whole numbers), NAME=a,b,c, or NAME alone for one with "
                   "choices. Repeat for several.")
@click.option("--target", "targets", multiple=True, required=True, metavar="METRIC=VALUE",
              help="What to aim at: METRIC=VALUE or METRIC=LO..HI, with METRIC one of first_seat (points), turns, "
                   "rounds, margin, stalls (%), shared (%), lead_changes, drama, comeback (%), settled (%), "
                   "uncertainty (%), forced (%), skill (% of meetings the second agent finishes ahead of the "
                   "first). Repeat for several (their distances add up).")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a", help=AGENTS_HELP + " The list repeats to fill the seats. Default: the ruleset's "
              "default bot.")
@click.option("--trials", type=click.IntRange(1, 100_000), default=30, show_default=True,
              help="Settings tried (each one a simulation of --games games on seeds of its own).")
@click.option("--games", "-n", type=click.IntRange(2, 10_000_000), default=100, show_default=True,
              help="Games per trial.")
@click.option("--confirm-games", type=click.IntRange(2, 10_000_000), default=400, show_default=True,
              help="Games on which the three settings that did best in their trials, and the ruleset's own, "
                   "are played again at the end (fresh seeds, the same for all); the best of them is the answer.")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seed of the search and of the first trial's games.")
@click.option("--param", "params", multiple=True, help="Hold a parameter at a value: --param hand_size=7.")
@click.option("--variant", metavar="FILE.yaml",
              help="Where to write the best values as a variant (default: RULESET-tuned.yaml here).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (the variant is written too).")
@_run_options
def tune_cmd(ruleset, varies, targets, players, agents, trials, games, confirm_games, seed, params, variant,
             as_json, jobs, backend, ray_address):
    """Search parameter values by simulation toward targets (the first seat's advantage 0, a length in a
    range, a margin...) with NTBEA, check the best values against the ruleset's own on fresh games, and
    write them as a variant file that extends the ruleset.

    \b
    Examples:
      rulebook tune my-game.yaml --vary hand_size=4..10 --target first_seat=0 --target turns=30..40
      rulebook tune my-game.yaml --vary goal=5..12 --vary mode --target lead_changes=2..4 --trials 60
    """
    from interpreter import load
    from interpreter.bundled import bundled
    from interpreter.tune import parse_target, parse_vary, tune, tune_games, tune_text, variant_text
    rules = load(ruleset)
    n = _players(rules, players)
    names = _bots(_agents(agents, rules) or [rules.default_agent or "random"], "tune")
    try:
        varied = [parse_vary(v, rules) for v in varies]
        aims = [parse_target(t) for t in targets]
    except RulebookError as exc:
        raise click.BadParameter(str(exc)) from None
    held = _overrides(rules, params)
    if len({name for name, _ in varied}) != len(varied) or any(name in held for name, _ in varied):
        raise click.BadParameter("a parameter is varied once, and is not also held with --param",
                                 param_hint="'--vary'")
    runner = _runner(jobs, backend, ray_address)
    path = Path(variant or f"{Path(rules.name).name}-tuned.yaml")
    if path.suffix not in (".yaml", ".yml"):
        raise click.BadParameter(f"'{path}' should end in .yaml", param_hint="'--variant'")
    if not path.resolve().parent.is_dir():
        raise click.BadParameter(f"no folder {path.parent} to write {path.name} in", param_hint="'--variant'")
    if any(t.metric == "skill" for t in aims) and len(names) < 2:
        raise click.BadParameter("a skill target needs two agents, the weaker first (--agents random,greedy)",
                                 param_hint="'--agents'")
    with _progress(tune_games(names, n, aims, trials, games, confirm_games), "tuning", not as_json) as update:
        result = tune(rules, n, names, varied, aims, trials, games, confirm_games, seed, held, runner, update)
    source = Path(rules.path) if getattr(rules, "path", "") else None
    if ruleset in bundled() or source is None:
        base = rules.name
    else:
        base = os.path.relpath(source.resolve(), path.resolve().parent)
    try:
        path.write_text(variant_text(result, base, f"{rules.name}-tuned"), encoding="utf-8")
    except OSError as exc:
        raise RulebookError(f"cannot write {path}: {exc.strerror or exc}") from None
    load(str(path))   # what was written loads (a mistake here is the project's, and is told as one)
    result["variant"] = str(path)
    if as_json:
        echo(json.dumps(result, indent=2))
        return
    echo(tune_text(result))
    echo(f"variant: {path} (try it: rulebook simulate {path})")


@cli.command("agents")
def agents_cmd():
    """List the agents and the settings each takes (NAME:key=value in --agents).

    \b
    Examples:
      rulebook agents
      rulebook simulate NAME --agents mcts:iterations=400:c=1.0,greedy
    """
    from interpreter.agents import AGENTS
    for name, cls in AGENTS.items():
        doc = " ".join((cls.__doc__ or "").split())
        echo(f"{name}: {doc}")
        for key, option in cls.OPTIONS.items():
            echo(f"    {key}={option.describe()}")
    echo("module:ClassName[:key=value...]: your own agent, a class with choose(view, options) -> index "
               "(see docs/agents.md); settings are passed to the class as keyword arguments.")


@cli.command("test")
@click.argument("scenarios", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True,
              help="Print the results as JSON: each scenario, its failures (message, step, file, line, column), "
                   "and the counts passed and failed.")
@click.option("--junit", "junit", type=click.Path(dir_okay=False), default=None,
              help="Also write the results to this file as JUnit XML, the test report CI services read.")
def test_cmd(scenarios, as_json, junit):
    """Run scenario files (see docs/scenarios.md): one line per scenario, details for failures, and a
    last line 'N passed, M failed'.

    A folder runs the .yaml files directly inside it. Exit status: 0 when every scenario passed,
    1 otherwise.

    \b
    Examples:
      rulebook test tests/scenarios/
      rulebook test my-game/first-turn.yaml
      rulebook test tests/scenarios/ --json
      rulebook test tests/scenarios/ --junit scenarios.xml
    """
    from interpreter.scenario import format_results, junit_xml, results_json, run_scenarios
    results, code = run_scenarios(list(scenarios))
    echo(json.dumps(results_json(results), indent=2, ensure_ascii=False) if as_json else format_results(results))
    if junit:
        try:
            Path(junit).write_text(junit_xml(results), encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write {junit}: {exc.strerror or exc}")
    sys.exit(code)


@cli.group()
def new():
    """Write starting files for authors."""


@new.command("variant")
@click.argument("base")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def new_variant(base, file, force):
    """Write FILE: a commented variant of BASE (its extends line and every parameter it could turn).

    \b
    Example:
      rulebook new variant NAME my-variant.yaml
    """
    from interpreter import load
    from interpreter.authoring import variant_template
    rules = load(base)
    target = Path(file)
    if target.exists() and not force:
        raise click.UsageError(f"{file} exists; use --force to overwrite it")
    name = target.stem.replace(" ", "-")
    # a bundled base is named by its name; a file by its path relative to the new file
    base_ref = base if not Path(base).suffix else os.path.relpath(Path(base).resolve(), target.resolve().parent)
    try:
        schema_ref, copied = _schema_ref(target)
        target.write_text(variant_template(rules, base_ref, name, schema_ref), encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {file}: {exc.strerror}")
    echo(f"wrote {file}: a variant of {rules.title}; check it with 'rulebook validate {file}'")
    if copied:
        echo(f"wrote {copied}: the ruleset schema, so that editors check {target.name} as you type")


def _schema_ref(target: Path) -> tuple[str, Path | None]:
    """The schema as `target`'s first line names it, and the file written for it (None: none written).

    Inside the project that holds the schema (a checkout of rulebook), its path relative to `target`'s
    folder; elsewhere, a copy beside the new file (`ruleset.schema.json`, kept if it is already there),
    named by its file name: a path into where rulebook is installed would break when it moves, and
    differ from one machine to the next."""
    schema, folder = schema_path().resolve(), target.resolve().parent
    try:
        shared = Path(os.path.commonpath([schema, folder]))
    except ValueError:   # on another drive
        shared = None
    if shared is not None and shared != Path(shared.anchor) and (shared / "pyproject.toml").is_file():
        return Path(os.path.relpath(schema, folder)).as_posix(), None
    copy = folder / schema.name
    if copy.is_file():
        return schema.name, None
    copy.write_text(schema.read_text(encoding="utf-8"), encoding="utf-8")
    return schema.name, target.parent / schema.name


@cli.command()
@click.option("--path", "show_path", is_flag=True, help="Print where the schema file is instead of the schema.")
def schema(show_path):
    """Print the JSON Schema of ruleset files, for editors that check YAML as you type.

    The schema accepts a complete ruleset and, in a file with 'extends:', a variant (every section
    partial, null to remove). An editor with the YAML language server uses it when the file's first
    line names it; 'rulebook new variant' writes that line with the path of the installed schema:

    \b
      # yaml-language-server: $schema=PATH

    \b
    Examples:
      rulebook schema --path
      rulebook schema > ruleset.schema.json
    """
    if show_path:
        echo(str(schema_path().resolve()))
        return
    echo(schema_path().read_text(encoding="utf-8"), nl=False)


@cli.command()
@click.argument("ruleset")
@click.option("--detail", is_flag=True,
              help="The reference instead of the rulebook: every zone, parameter, step and effect with its "
                   "expressions as written.")
@click.option("--html", "as_html", is_flag=True, help="A self-contained HTML page instead of Markdown.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="Write it to this file instead of printing it.")
@click.option("--resolved", is_flag=True, help="Print the ruleset with the bases it extends merged in, as YAML.")
@click.option("--python", "as_python", is_flag=True,
              help="Print the Python code generated for the ruleset (for contributors; see docs/compile.md).")
def explain(ruleset, detail, as_html, out_path, resolved, as_python):
    """Write a ruleset's rulebook, generated from the ruleset: a document a person can learn the game from.

    Its sections: overview and goal, components with their counts, setup by player count, a turn,
    each action in plain sentences, the end and scoring, and an example of play taken from a seeded
    game. With --detail, the reference instead: zones, parameters, the flow, every action and effect
    with its expressions as written, bots and what players see. Markdown, or an HTML page with --html.
    (--resolved: the merged YAML; --python: the Python code the interpreter generates for it.)

    \b
    Examples:
      rulebook explain NAME > rules.md
      rulebook explain NAME --html --out rules.html
      rulebook explain NAME --detail
      rulebook explain my-variant.yaml --resolved
      rulebook explain NAME --python
    """
    import yaml
    from interpreter import load_source
    from interpreter.explain import explain_markdown, markdown_page, rulebook_markdown
    from interpreter.extends import load_merged
    path = resolve(ruleset)
    source = load_merged(path)
    rules = load_source(source)   # report errors before printing anything
    if as_python:
        from interpreter.codegen import python_source
        text = python_source(rules)
    elif resolved:
        chain = getattr(source, "chain", [source.file])
        text = f"# {source.data.get('name')}: merged from " + " <- ".join(chain) + "\n" + \
            yaml.safe_dump(source.data, sort_keys=False, allow_unicode=True, width=100)
    else:
        text = explain_markdown(rules) if detail else rulebook_markdown(rules)
        if as_html:
            text = markdown_page(text, f"{rules.title}: " + ("reference" if detail else "rules"))
    if out_path:
        try:
            Path(out_path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise RulebookError(f"cannot write {out_path}: {exc.strerror or exc}") from None
        return
    echo(text, nl=False)


@cli.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a", help=AGENTS_HELP + " The list repeats to fill the seats. Default: the ruleset's default bot, else random.")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
def transcript(ruleset, players, agents, seed):
    """Print the full transcript of one seeded bot game (the format of the golden transcripts)."""
    from interpreter import load
    from interpreter.simulate import play_one, seat_agents
    from interpreter.transcript import format_transcript
    rules = load(ruleset)
    n = _players(rules, players)
    names = _agents(agents, rules) or [rules.default_agent or "random"]
    _bots(names, "a transcript", "is of bots only")
    game = play_one(rules, n, seed, seat_agents(names, n), record=True)
    echo(format_transcript(rules, game, seed, names), nl=False)


_MAIN = [None]   # the process that installed _interrupted (main)


def _interrupted(signum, frame):
    if os.getpid() != _MAIN[0]:
        # a worker process of --jobs, forked before its initializer set its own handler (analysis/runner.py):
        # stopped by the run, it ends as SIGTERM ends a process, without a traceback
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    raise KeyboardInterrupt


def echo(text="", **kwargs) -> None:
    """click.echo, the text cleaned of what would steer a terminal (present/text.py): labels, log lines,
    names and source lines come from rulesets and players."""
    from interpreter.present.text import clean
    click.echo(clean(str(text)), **kwargs)


def _fill_examples(command: click.Command, name: str) -> None:
    """The --help examples (lines that start with `rulebook `) name a bundled ruleset where they say NAME,
    so that each one runs as pasted; cli.py itself names no game."""
    if command.help:
        command.help = "\n".join(re.sub(r"\bNAME\b(?![=:])", name, line) if line.lstrip().startswith("rulebook ")
                                 else line for line in command.help.splitlines())
    for sub in getattr(command, "commands", {}).values():
        _fill_examples(sub, name)


def _examples_ruleset() -> str | None:
    from interpreter.bundled import bundled
    return next(iter(bundled()), None)


if _examples_ruleset():
    _fill_examples(cli, _examples_ruleset())


def main():
    """Entry point: run the commands; errors a user can cause print a message and exit 1, never a traceback."""
    # `kill` ends a run like Ctrl-C does: worker processes stopped, a half-written record file removed
    _MAIN[0] = os.getpid()
    before = signal.signal(signal.SIGTERM, _interrupted)
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        echo("aborted", err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except RulesetError as exc:
        echo(exc.render(), err=True)
        sys.exit(1)
    except RulebookError as exc:
        # an error of the ruleset's own text shows its line and a caret under the message
        echo(f"error: {exc.render() if isinstance(exc, GameError) else exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        echo("interrupted", err=True)
        sys.exit(1)
    finally:
        signal.signal(signal.SIGTERM, before)   # main() may be called again in one process (tests, tools)


if __name__ == "__main__":
    main()
