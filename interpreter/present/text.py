"""Texts about to reach a terminal -> the same texts without the characters that would steer it.

A ruleset's labels, log lines and names, a player's names and a saved game's fields are texts someone
else wrote: an escape sequence among them could clear the screen, retitle the window or hide what
follows. Every text the command line prints goes through `clean` (cli.py's `echo`, present/screen.py's
lines): control characters go (a line break and a tab stay), and so do the marks that turn the order
in which text is shown (right-to-left overrides), which can make a line read other than it is.
"""
from __future__ import annotations

import re

# C0 controls but tab and line feed, DEL, C1 controls; the bidirectional overrides and isolates
STEERING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """`text` without the characters that steer a terminal."""
    return STEERING.sub("", text) if STEERING.search(text) else text
