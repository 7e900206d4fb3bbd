"""How a Grep call is shown: the pattern and where it looks."""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.tool import ToolPresentation


def label(inp: dict[str, Any]) -> str:
    where = inp.get("path")
    return f"grep {inp.get('pattern', '')!s}" + (f" in {where}" if where else "")


PRESENTATION = ToolPresentation(kind="search", label=label)
