"""Grep: search file contents with ripgrep (see prompt.md for what the model is told)."""

from claude_harness.tools.grep.tool import TOOL, GrepInput

__all__ = ["TOOL", "GrepInput"]
