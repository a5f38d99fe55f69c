"""A run's or a comparison's statistics and per-game data -> PNG charts (matplotlib, the optional extra `plots`)."""
from __future__ import annotations

from pathlib import Path

from ..errors import RulebookError

MISSING = "--plots needs matplotlib: pip install 'rulebook[plots]'"
SIZE = (6.4, 4.0)
DPI = 100
COLOURS = ("#4c72b0", "#dd8452")


def pyplot():
    """matplotlib's pyplot drawing to files only (no window), or a one-line error when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        raise RulebookError(MISSING) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _folder(directory: str) -> Path:
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RulebookError(f"cannot create the folder {directory}: {exc.strerror}") from None
    return folder


def _save(plt, fig, folder: Path, name: str, written: list) -> None:
    path = folder / name
    try:
        fig.savefig(path, dpi=DPI)
    except OSError as exc:
        raise RulebookError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
    written.append(str(path))


def _what(s: dict) -> str:
    return f"{s['ruleset']}, {s['players']} players, {s['games']} games"


def _error_bars(seats) -> list:
    """Distances from each win rate down and up to its interval, in percent."""
    rates = [100 * x["win_rate"] for x in seats]
    return [[r - 100 * x["win_rate_95"][0] for r, x in zip(rates, seats)],
            [100 * x["win_rate_95"][1] - r for r, x in zip(rates, seats)]]


def simulation_plots(summary: dict, tally, directory: str) -> list[str]:
    """Win rate by seat, game length, final scores by seat and winning margins -> PNG files; their paths."""
    plt = pyplot()
    folder, written = _folder(directory), []
    seats = summary["seats"]
    names = [f"{x['seat']}\n{x['agent']}" for x in seats]

    fig, ax = plt.subplots(figsize=SIZE)
    ax.bar(names, [100 * x["win_rate"] for x in seats], yerr=_error_bars(seats), capsize=6, color=COLOURS[0])
    if summary["first_seat"]:
        ax.axhline(100 * summary["first_seat"]["even_share"], color="grey", linestyle="--",
                   label="even share (every seat the same)")
        ax.legend(loc="lower right")
    ax.set_title(f"Who wins? Win rate by seat\n{_what(summary)}")
    ax.set_ylabel("games won (%)\nbars: 95% interval")
    ax.set_xlabel("seat and agent (P1 plays first)")
    fig.tight_layout()
    _save(plt, fig, folder, "win-rate-by-seat.png", written)

    fig, ax = plt.subplots(figsize=SIZE)
    _length_histogram(ax, [(list(tally.turns), None, COLOURS[0])])
    ax.set_title(f"How long are games?\n{_what(summary)}")
    fig.tight_layout()
    _save(plt, fig, folder, "game-length.png", written)

    fig, ax = plt.subplots(figsize=SIZE)
    ax.boxplot([list(t) for t in tally.totals], tick_labels=names, showmeans=True)
    ax.set_title(f"Final scores by seat\n{_what(summary)}")
    ax.set_ylabel("final score (total)\nbox: middle half of games; triangle: mean")
    fig.tight_layout()
    _save(plt, fig, folder, "scores.png", written)

    if summary["margin"]:
        fig, ax = plt.subplots(figsize=SIZE)
        _histogram(ax, [(list(tally.margins), None, COLOURS[0])])
        ax.set_title(f"How close are games? Winner's lead over the runner-up\n{_what(summary)}")
        ax.set_xlabel("winning margin (first score minus second)")
        ax.set_ylabel("games")
        fig.tight_layout()
        _save(plt, fig, folder, "margin.png", written)
    return written


def comparison_plots(comparison: dict, tallies, directory: str) -> list[str]:
    """Win rate by seat, game length and scores for A and B together, and the differences -> PNG files."""
    plt = pyplot()
    folder, written = _folder(directory), []
    a, b = comparison["a"], comparison["b"]
    what = f"{comparison['players']} players, {comparison['games']} games on the same seeds"
    labels = (f"A: {a['label']}", f"B: {b['label']}")

    fig, ax = plt.subplots(figsize=SIZE)
    xs = list(range(len(a["seats"])))
    for k, (side, colour) in enumerate(((a, COLOURS[0]), (b, COLOURS[1]))):
        ax.bar([x - 0.2 + 0.4 * k for x in xs], [100 * x["win_rate"] for x in side["seats"]], width=0.4,
               yerr=_error_bars(side["seats"]), capsize=5, color=colour, label=labels[k])
    ax.set_xticks(xs, [x["seat"] for x in a["seats"]])
    if a["first_seat"]:
        ax.axhline(100 * a["first_seat"]["even_share"], color="grey", linestyle="--", label="even share in A")
    ax.set_title(f"Who wins? Win rate by seat, A and B\n{what}")
    ax.set_ylabel("games won (%)\nbars: 95% interval")
    ax.set_xlabel("seat (P1 plays first)")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    _save(plt, fig, folder, "win-rate-by-seat.png", written)

    fig, ax = plt.subplots(figsize=SIZE)
    _length_histogram(ax, [(list(tallies[0].turns), labels[0], COLOURS[0]),
                           (list(tallies[1].turns), labels[1], COLOURS[1])])
    ax.set_title(f"How long are games? A and B\n{what}")
    fig.tight_layout()
    _save(plt, fig, folder, "game-length.png", written)

    fig, ax = plt.subplots(figsize=SIZE)
    n = len(a["seats"])
    for k, (tally, colour) in enumerate(zip(tallies, COLOURS)):
        parts = ax.boxplot([list(t) for t in tally.totals], positions=[x - 0.2 + 0.4 * k for x in range(n)],
                           widths=0.35, patch_artist=True, showmeans=True)
        for box in parts["boxes"]:
            box.set_facecolor(colour)
    ax.set_xticks(list(range(n)), [x["seat"] for x in a["seats"]])
    ax.set_title(f"Final scores by seat, A (left) and B (right)\n{what}")
    ax.set_ylabel("final score (total)\nbox: middle half of games; triangle: mean")
    ax.legend([plt.Rectangle((0, 0), 1, 1, color=c) for c in COLOURS], labels, fontsize="small")
    fig.tight_layout()
    _save(plt, fig, folder, "scores.png", written)

    _differences(plt, comparison, folder, written, what)
    return written


def _differences(plt, comparison, folder, written, what) -> None:
    """What changed from A to B: each difference with its 95% interval; rates in points, the rest in %."""
    points = [d for d in comparison["differences"] if d["kind"] == "proportion" and d["interval"]]
    relative = [d for d in comparison["differences"] if d["kind"] != "proportion" and d["relative_interval"]]
    panels = [(points, "B - A (percentage points)", lambda d: d["difference"], lambda d: d["interval"]),
              (relative, "B compared with A (%)", lambda d: d["relative"], lambda d: d["relative_interval"])]
    panels = [p for p in panels if p[0]]
    if not panels:
        return
    fig, axes = plt.subplots(1, len(panels), figsize=(10, 4.5), squeeze=False)
    for ax, (rows, xlabel, value, interval) in zip(axes[0], panels):
        ys = list(range(len(rows)))[::-1]
        for y, d in zip(ys, rows):
            lo, hi = interval(d)
            # a flagged headline difference in orange, the rest grey; exploratory statistics dashed
            colour = COLOURS[1] if d.get("flagged") else "grey"
            ax.plot([100 * lo, 100 * hi], [y, y], color=colour, linewidth=2,
                    linestyle="-" if d.get("headline") else "--")
            ax.plot([100 * value(d)], [y], "o", color=colour)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(ys, [d["label"] + ("" if d.get("headline") else " (e)") for d in rows], fontsize="small")
        ax.set_xlabel(xlabel)
    fig.suptitle(f"What changed from A to B? Differences with 95% intervals (orange: flagged after Holm's correction; dashed, (e): exploratory)\n{what}",
                 fontsize="medium")
    fig.tight_layout()
    _save(plt, fig, folder, "differences.png", written)


def _bins(values_lists):
    """Whole-number bins when the values are few enough, else 30 equal bins over the common range."""
    low = min(min(v) for v in values_lists if v)
    high = max(max(v) for v in values_lists if v)
    if high - low <= 60:
        return [x - 0.5 for x in range(int(low), int(high) + 2)]
    step = (high - low) / 30
    return [low + step * i for i in range(31)]


def _histogram(ax, series) -> None:
    bins = _bins([values for values, _, _ in series])
    for values, label, colour in series:
        ax.hist(values, bins=bins, histtype="stepfilled" if len(series) == 1 else "step", linewidth=1.5,
                color=colour, label=label, alpha=0.8 if len(series) == 1 else 1.0)


def _length_histogram(ax, series) -> None:
    _histogram(ax, series)
    for values, label, colour in series:
        mean = sum(values) / len(values)
        ax.axvline(mean, color=colour, linestyle="--", linewidth=1.2)
    ax.set_xlabel("game length (turns); dashed line: mean")
    ax.set_ylabel("games")
    if len(series) > 1:
        ax.legend(fontsize="small")
