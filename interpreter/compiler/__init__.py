"""Compile plain ruleset data into a Ruleset (see ruleset.py); effects and expressions have modules of their own."""
from .ruleset import compile_ruleset

__all__ = ["compile_ruleset"]
