"""Games played so far -> one line on a terminal: a bar, games done of the total, and the time left."""
from __future__ import annotations

import time


class ProgressBar:
    """Redrawn in place (at most ten times a second); the time left is the pace so far applied to the
    games still to play, shown from the first finished game on."""

    WIDTH = 30

    def __init__(self, total: int, label: str, stream):
        self.total, self.label, self.stream = total, label, stream
        self.done = 0
        self.start = self.drawn = time.monotonic()
        self.draw()

    def update(self, games: int) -> None:
        self.done += games
        now = time.monotonic()
        if now - self.drawn >= 0.1 or self.done >= self.total:
            self.draw(now)

    def draw(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.drawn = now
        share = self.done / self.total if self.total else 1.0
        filled = int(self.WIDTH * share)
        line = f"\r{self.label} [{'#' * filled}{'-' * (self.WIDTH - filled)}] {self.done}/{self.total} {100 * share:3.0f}%"
        if self.done >= self.total:
            line += f"  done in {clock(now - self.start)}"
        elif self.done:
            line += f"  about {clock((now - self.start) * (self.total - self.done) / self.done)} left"
        self.stream.write(line + "\x1b[K")   # erase what a longer line left behind
        self.stream.flush()

    def close(self) -> None:
        self.draw()
        self.stream.write("\n")
        self.stream.flush()


def clock(seconds: float) -> str:
    """0:07, 12:30, 1:02:03."""
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
