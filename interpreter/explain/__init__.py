"""Explain a ruleset: the rulebook people learn the game from (book.py, `rulebook explain`), as Markdown or as an
HTML page (page.py), and the reference with every expression as written (detail.py, `--detail`)."""
from __future__ import annotations

from .book import rulebook_markdown
from .detail import RENDER, bullets, explain_markdown
from .page import markdown_page

__all__ = ["RENDER", "bullets", "explain_markdown", "markdown_page", "rulebook_markdown"]
