"""The `rulebook` command line: list, validate, play, simulate and compare rulesets (click commands over the interpreter)."""
from __future__ import annotations

import json
import os
import signal
import sys

from contextlib import contextmanager
from pathlib import Path

import click
import yaml

from interpreter import Game, RulebookError, RulesetError, load, load_source
from interpreter.engine.game import log_for, log_text
from interpreter.agents import HumanAgent, Request, make_agent
from interpreter.bundled import bundled, resolve
from interpreter.errors import Diagnostic
from interpreter.simulate import play_one, seat_agents
from interpreter.analysis.compare import compare
from interpreter.analysis.plots import comparison_plots, pyplot, simulation_plots
from interpreter.analysis.progress import ProgressBar
from interpreter.analysis.records import RecordWriter, columns, record_format
from interpreter.analysis.report import comparison_text, simulation_text
from interpreter.analysis.runner import BACKENDS, Runner
from interpreter.analysis.simulation import Table, counter_names, run_simulation, score_parts
from interpreter.transcript import format_transcript
from interpreter.extends import load_merged
from interpreter.authoring import variant_template
from interpreter.explain import explain_markdown
from interpreter.probe import probe, probe_games
from interpreter.scenario import format_results, run_scenarios


def _params(values) -> dict:
    """`--param name=value` options -> a dict; values are read as YAML scalars (7, true, deck)."""
    out = {}
    for item in values:
        if "=" not in item:
            raise click.BadParameter(f"'{item}' is not name=value", param_hint="--param")
        name, _, raw = item.partition("=")
        try:
            out[name.strip()] = yaml.safe_load(raw)
        except yaml.YAMLError:
            raise click.BadParameter(f"cannot read the value of '{item}'", param_hint="--param")
    return out


def _agents(text: str | None) -> list[str]:
    return [a.strip() for a in text.split(",") if a.strip()] if text else []


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


def _runner(jobs, backend, address) -> Runner:
    if address and backend != "ray":
        raise click.BadParameter("only with --backend ray", param_hint="--ray-address")
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
    bar = ProgressBar(total, label, sys.stderr)
    try:
        yield bar.update
    finally:
        bar.close()


def _check_out(ctx, param, value):
    if value is not None and record_format(value) is None:
        raise click.BadParameter(f"'{value}' should end in .jsonl or .csv")
    return value


_out_option = click.option("--out", "-o", metavar="FILE", callback=_check_out,
                           help="Write one row per game to FILE: JSON lines (.jsonl) or CSV (.csv); "
                                "columns in docs/simulation.md.")
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
    rows = []
    for name, path in bundled().items():
        try:
            rules = load(str(path))
            base = Path(rules.chain[-2]).stem if len(rules.chain) > 1 else None
            rows.append({"name": name, "title": rules.title, "players": [rules.min_players, rules.max_players],
                         "text": _first_sentence(rules.text), "extends": base, "path": str(path)})
        except RulebookError as exc:
            rows.append({"name": name, "title": "(invalid)", "players": None, "text": str(exc).splitlines()[0],
                         "path": str(path)})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(r["name"]) for r in rows) if rows else 10
    click.echo(f"{'name':<{width}}  players  description")
    for r in rows:
        players = f"{r['players'][0]}-{r['players'][1]}" if r["players"] else "?"
        variant = f" (variant of {r['extends']})" if r.get("extends") else ""
        click.echo(f"{r['name']:<{width}}  {players:<7}  {r['text']}{variant}")


def _first_sentence(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    end = text.find(". ")
    if 0 < end < limit:
        return text[:end + 1]
    return text if len(text) <= limit else text[:limit - 3].rsplit(" ", 1)[0] + "..."


@cli.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Diagnostics as text or as JSON data.")
@click.option("--strict", is_flag=True, help="Treat warnings (design lint) as errors.")
@click.option("--simulate", "games", type=click.IntRange(0, 100_000), default=0,
              help="Also play N seeded games per player count with the ruleset's bots and report "
                   "actions never taken and games that stall.")
@_run_options
def validate(files, fmt, strict, games, jobs, backend, ray_address):
    """Check ruleset files; print every problem as file:line:col with the line and a caret.

    Errors stop a ruleset from loading; warnings point at likely design mistakes (a declared card
    total that disagrees with the cards, a parameter or zone never used, an action never offered).
    Exit status: 0 when every file is valid, 1 otherwise (warnings count with --strict).

    \b
    Examples:
      rulebook validate my-game.yaml my-variant.yaml
      rulebook validate my-game.yaml --simulate 200 --jobs 2
    """
    runner = _runner(jobs, backend, ray_address) if games else None
    report, failed = [], False
    for f in files:
        diags: list[Diagnostic] = []
        try:
            source = load_merged(f)
            rules = load_source(source)
            diags = list(rules.warnings)
            if games:
                with _progress(probe_games(rules, games), f"playing {f}", fmt == "text") as update:
                    diags += probe(rules, source, games, runner=runner, progress=update)
        except RulesetError as exc:
            diags = exc.diagnostics
        errors = sum(d.severity == "error" for d in diags)
        warnings = len(diags) - errors
        bad = errors > 0 or (strict and warnings > 0)
        failed = failed or bad
        report.append({"file": f, "valid": not bad, "errors": errors, "warnings": warnings,
                       "diagnostics": [d.to_json() for d in diags]})
        if fmt == "text":
            for d in diags:
                click.echo(d.render())
            if diags:
                counts = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((errors, "error"), (warnings, "warning")) if n]
                click.echo(f"{f}: " + ", ".join(counts))
            else:
                click.echo(f"{f}: ok")
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    sys.exit(1 if failed else 0)


def _resolve_players(rules, players):
    return players if players is not None else rules.min_players


@cli.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a", help="Agents by seat, comma-separated: human, random, first, greedy (repeats to "
              "fill). Default: human, then the ruleset's default bot (random if it names none).")
@click.option("--seed", "-s", type=int, default=None, help="Random seed (default: a fresh one, printed).")
@click.option("--param", "params", multiple=True, help="Override a parameter: --param hand_size=7.")
@click.option("--quiet", "-q", is_flag=True, help="Do not print the bots' moves.")
def play(ruleset, players, agents, seed, params, quiet):
    """Play a game in the terminal against bots (or watch bots play).

    \b
    Examples:
      rulebook play NAME
      rulebook play NAME --players 4 --agents human,random,random,first --seed 7
      rulebook play my-game.yaml --agents random --seed 1
    """
    rules = load(ruleset)
    n = _resolve_players(rules, players)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    bot = rules.default_agent or "random"
    names = seat_agents(_agents(agents), n) if agents else ["human"] + [bot] * (n - 1)
    game = Game.new(rules, n, seed=seed, params=_params(params))
    seats = [make_agent(name, seed=seed * 1000 + i) for i, name in enumerate(names)]
    click.echo(f"{rules.title}: {n} players, seed {seed}; seats: "
               + ", ".join(f"P{i + 1} {a}" for i, a in enumerate(names)))
    humans = [i for i, a in enumerate(seats) if isinstance(a, HumanAgent)]
    shown = 0
    while not game.is_over:
        p = game.current_player
        agent = seats[p]
        choice = agent.choose(Request(game, p))
        game.apply(choice)
        if not quiet or isinstance(agent, HumanAgent):
            for entry in game.state.log[shown:]:
                # a line for some players' eyes only is shown when it is for the one human at the
                # table (or, with bots only, to the onlooker, marked with who may read it)
                if not humans:
                    click.echo(log_text(entry))
                elif len(humans) == 1:
                    line = log_for(entry, humans[0])
                    if line is not None:
                        click.echo(line)
                elif type(entry) is str:
                    click.echo(entry)
        shown = len(game.state.log)
    if quiet:
        click.echo(log_text(game.state.log[-1]))
    _print_result(rules, game)


def _print_result(rules, game):
    result = game.result
    click.echo("")
    rounds = f"{result['rounds']} round{'s' if result['rounds'] != 1 else ''}"
    click.echo(f"Game over after {result['turns']} turns ({rounds}): {result['reason']}.")
    winners = ", ".join(f"P{w + 1}" for w in result["winners"]) or "nobody (a draw)"
    click.echo(f"Winner{'s' if len(result['winners']) > 1 else ''}: {winners}")
    parts = [name for name, _ in rules.scoring.parts]
    if parts:
        header = "player  " + "  ".join(f"{p:>10}" for p in parts) + (f"  {'total':>8}" if len(parts) > 1 else "")
        click.echo(header)
        for i, row in enumerate(result["scores"]):
            line = f"P{i + 1:<6} " + "  ".join(f"{row[p]!s:>10}" for p in parts)
            if len(parts) > 1:
                line += f"  {row['total']!s:>8}"
            click.echo(line)
    if result["tie_break_used"]:
        click.echo("(a tie-breaker decided)")


@cli.command("simulate")
@click.argument("ruleset")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="Number of games.")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a", help="Agents by seat, comma-separated: random, first, greedy (repeats to fill). "
              "Default: the ruleset's default bot (random if it names none).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--param", "params", multiple=True, help="Override a parameter: --param hand_size=7.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON (and no progress bar).")
@_out_option
@_plots_option
@_run_options
def simulate_cmd(ruleset, games, players, agents, seed, params, as_json, out, plots, jobs, backend, ray_address):
    """Play many seeded games between bots and report who wins, how games end and how long they last.

    Win rates come with 95% intervals (Wilson), the first seat's advantage with its interval, game
    length and scores with their spread (sd, median, 5th and 95th percentile), and the counters the
    ruleset declares. Game i uses seed S+i, so a run can be repeated exactly, with any --jobs.

    \b
    Examples:
      rulebook simulate NAME --games 1000 --players 3
      rulebook simulate my-game.yaml --games 500 --agents random,first --json
      rulebook simulate NAME --games 5000 --jobs 2 --out games.csv --plots charts/
    """
    rules = load(ruleset)
    n = _resolve_players(rules, players)
    names = _bots(_agents(agents) or [rules.default_agent or "random"], "simulate")
    overrides = _params(params)
    if plots:
        pyplot()   # a missing extra is reported before the games are played
    runner = _runner(jobs, backend, ray_address)
    with _records(out, columns(score_parts(rules), n, counter_names(rules))) as writer, \
            _progress(games, "simulating", not as_json) as update:
        run = run_simulation(rules, games, n, names, seed, overrides, runner, update,
                             on_row=writer.write if writer else None)
    summary = run.summary
    if out:
        summary["records"] = out
    if plots:
        summary["plots"] = simulation_plots(summary, run.tally, plots)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(simulation_text(summary))
    _print_files(summary)


def _bots(names: list[str], command: str) -> list[str]:
    if "human" in names:
        raise click.BadParameter(f"{command} plays bots only; use 'rulebook play' to play", param_hint="--agents")
    return names


@contextmanager
def _records(out: str | None, names: list[str]):
    """The record file's writer (None without --out): put in place when the run succeeds, else dropped."""
    if not out:
        yield None
        return
    writer = RecordWriter(out, names)
    try:
        yield writer
    except BaseException:
        writer.close(keep=False)
        raise
    writer.close()


def _print_files(summary: dict) -> None:
    if summary.get("records"):
        click.echo(f"records: {summary['records']}")
    if summary.get("plots"):
        click.echo("plots: " + ", ".join(summary["plots"]))


@cli.command("compare")
@click.argument("ruleset_a")
@click.argument("ruleset_b")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), default=500, show_default=True,
              help="Games on each side (the same seeds on both).")
@click.option("--players", "-p", type=int, help="Number of players (default: the smallest both allow).")
@click.option("--agents", "-a", help="Agents by seat on both sides, comma-separated (repeats to fill). "
              "Default: each ruleset's default bot (random if it names none).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--param", "params", multiple=True, help="Override a parameter on both sides: --param hand_size=7.")
@click.option("--param-a", "params_a", multiple=True, help="Override a parameter of A only.")
@click.option("--param-b", "params_b", multiple=True, help="Override a parameter of B only.")
@click.option("--json", "as_json", is_flag=True, help="Print both sides and the differences as JSON.")
@_out_option
@_plots_option
@_run_options
def compare_cmd(ruleset_a, ruleset_b, games, players, agents, seed, params, params_a, params_b, as_json, out,
                plots, jobs, backend, ray_address):
    """Compare two rulesets, or one ruleset with two parameter sets, on the same seeds.

    Game i of A and game i of B start from the same seed (the same shuffle where the cards are
    the same), so differences show with fewer games. Every statistic is shown for A and B with
    the difference B - A and its 95% interval from the paired games, then a verdict in plain
    words for each: what changed, and what this many games cannot tell apart.

    \b
    Examples:
      rulebook compare NAME my-variant.yaml --games 2000 --players 3
      rulebook compare NAME NAME --param-b hand_size=7 --jobs 2
      rulebook compare NAME my-variant.yaml --json --out games.csv --plots charts/
    """
    rules_a, rules_b = load(ruleset_a), load(ruleset_b)
    if players is None:
        players = max(rules_a.min_players, rules_b.min_players)
    names = _bots(_agents(agents), "compare")
    both = _params(params)
    tables = [Table(r, players, seat_agents(names or [r.default_agent or "random"], players), {**both, **_params(extra)})
              for r, extra in ((rules_a, params_a), (rules_b, params_b))]
    if plots:
        pyplot()
    runner = _runner(jobs, backend, ray_address)
    parts = list(dict.fromkeys(score_parts(rules_a) + score_parts(rules_b)))
    counters = list(dict.fromkeys(counter_names(rules_a) + counter_names(rules_b)))
    with _records(out, columns(parts, players, counters, ["side", "label"])) as writer, \
            _progress(2 * games, "comparing", not as_json) as update:
        result = compare(*tables, games, seed, runner, update, on_row=writer.write if writer else None)
    summary = result.summary
    if out:
        summary["records"] = out
    if plots:
        summary["plots"] = comparison_plots(summary, result.tallies, plots)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(comparison_text(summary))
    _print_files(summary)


@cli.command("test")
@click.argument("scenarios", nargs=-1, required=True)
def test_cmd(scenarios):
    """Run scenario files (see docs/scenarios.md): one line per scenario, details for failures.

    A folder runs the .yaml files directly inside it. Exit status: 0 when every scenario passed,
    1 otherwise.

    \b
    Examples:
      rulebook test tests/scenarios/
      rulebook test my-game/owl-surrounds.yaml
    """
    results, code = run_scenarios(list(scenarios))
    click.echo(format_results(results))
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
    rules = load(base)
    target = Path(file)
    if target.exists() and not force:
        raise click.UsageError(f"{file} exists; use --force to overwrite it")
    name = target.stem.replace(" ", "-")
    # a bundled base is named by its name; a file by its path relative to the new file
    base_ref = base if not Path(base).suffix else os.path.relpath(Path(base).resolve(), target.resolve().parent)
    try:
        target.write_text(variant_template(rules, base_ref, name), encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot write {file}: {exc.strerror}")
    click.echo(f"wrote {file}: a variant of {rules.title}; check it with 'rulebook validate {file}'")


@cli.command()
@click.argument("ruleset")
@click.option("--resolved", is_flag=True, help="Print the ruleset with the bases it extends merged in, as YAML.")
def explain(ruleset, resolved):
    """Write a ruleset's rules as a Markdown document (or, with --resolved, its merged YAML).

    The document is generated from the ruleset: components, zones, parameters, setup by player
    count, the flow of a round and a turn, each action, the end of the game, scoring and bots.

    \b
    Examples:
      rulebook explain NAME > rules.md
      rulebook explain my-variant.yaml --resolved
    """
    path = resolve(ruleset)
    source = load_merged(path)
    rules = load_source(source)   # report errors before printing anything
    if not resolved:
        click.echo(explain_markdown(rules), nl=False)
        return
    chain = getattr(source, "chain", [source.file])
    click.echo(f"# {source.data.get('name')}: merged from " + " <- ".join(chain))
    click.echo(yaml.safe_dump(source.data, sort_keys=False, allow_unicode=True, width=100), nl=False)


@cli.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, help="Number of players (default: the ruleset's minimum).")
@click.option("--agents", "-a", help="Agents by seat (default: the ruleset's default bot, else random).")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
def transcript(ruleset, players, agents, seed):
    """Print the full transcript of one seeded bot game (the format of the golden transcripts)."""
    rules = load(ruleset)
    n = _resolve_players(rules, players)
    names = _agents(agents) or [rules.default_agent or "random"]
    game = play_one(rules, n, seed, seat_agents(names, n), record=True)
    click.echo(format_transcript(rules, game, seed, names), nl=False)


def _interrupted(signum, frame):
    raise KeyboardInterrupt


def main():
    """Entry point: run the commands; errors a user can cause print a message and exit 1, never a traceback."""
    # `kill` ends a run like Ctrl-C does: worker processes stopped, a half-written record file removed
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except RulesetError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(1)
    except RulebookError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
