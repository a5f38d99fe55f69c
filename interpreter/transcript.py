"""A finished game -> its transcript text: header, every choice and log line, scores, the choice list."""
from __future__ import annotations

from .present.log import entries, log_text


def format_transcript(rules, game, seed: int, agents) -> str:
    """The golden-transcript format: stable, line-based, diffable."""
    g = game.state
    lines = [f"# {rules.name}, {g.n} players, seed {seed}, agents {','.join(agents)}"]
    lines += [log_text(entry) for entry in entries(game)]
    result = game.result
    if result is not None:
        lines.append("scores: " + "; ".join(
            f"P{i + 1} " + ", ".join(f"{k} {v}" for k, v in row.items()) for i, row in enumerate(result["scores"])))
    labels = rules.card_labels
    for zone in rules.zones.values():
        for slot, owner, key in g.layout.slots(zone):
            name = zone.name + ("" if key is None else f"[{key}]") + ("" if owner is None else f" P{owner + 1}")
            lines.append(f"final {name}: " + " ".join(labels[c] for c in g.zones[slot]))
    lines.append("choices: " + " ".join(str(c) for c in g.history))
    return "\n".join(lines) + "\n"
