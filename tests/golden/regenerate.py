"""Regenerate the golden transcripts: python tests/golden/regenerate.py (then review the diff with git)."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from interpreter import load  # noqa: E402
from interpreter.simulate import play_one, seat_agents  # noqa: E402
from interpreter.transcript import format_transcript  # noqa: E402

# (ruleset, players, seed, agents): a few seeded games per shipped ruleset.
GAMES = [
    ("cubirds", 2, 1, ["random"]),
    ("cubirds", 3, 2, ["random", "first"]),
    ("cubirds", 5, 3, ["random"]),
    ("piepmatz", 2, 1, ["random"]),
    ("piepmatz", 4, 2, ["random", "first"]),
    ("cubirds-pairs", 3, 1, ["random"]),
    ("piepmatz-songbirds", 3, 1, ["random"]),
    ("cubirds-bga-setup", 2, 4, ["random"]),
    ("piepmatz-three-perches", 2, 5, ["random"]),
    ("pit", 3, 1, ["greedy"], {"target": 200}),
    ("pit", 5, 2, ["greedy", "random"], {"target": 100}),
    ("pit-bull-bear", 4, 1, ["greedy"], {"target": 100}),
    ("pit-classic", 3, 2, ["greedy"], {"target": 100}),
    ("pit-tutorial", 8, 2, ["greedy"], {"target": 50}),
    ("forehead-poker", 3, 2, ["random"]),
    ("forehead-poker", 5, 1, ["greedy", "random"]),
    ("souk", 3, 1, ["random"]),
    ("souk", 2, 3, ["greedy", "random"]),
    ("lanterns", 3, 1, ["greedy", "random"]),
    ("harbour-lights", 2, 1, ["greedy", "random"]),
]


def transcript_name(ruleset, players, seed, agents, params=None) -> str:
    extra = "".join(f"-{k}{v}" for k, v in (params or {}).items())
    return f"{ruleset}-{players}p-seed{seed}-{'-'.join(agents)}{extra}.txt"


def render(ruleset, players, seed, agents, params=None) -> str:
    rules = load(ruleset)
    game = play_one(rules, players, seed, seat_agents(agents, players), params, record=True)
    return format_transcript(rules, game, seed, agents)


def main():
    for case in GAMES:
        path = HERE / transcript_name(*case)
        path.write_text(render(*case), encoding="utf-8")
        print(f"wrote {path.relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    main()
