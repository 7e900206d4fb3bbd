"""Glob: find files by path pattern (see prompt.md for what the model is told)."""

from claude_harness.tools.glob.tool import TOOL, GlobInput

__all__ = ["TOOL", "GlobInput"]
