"""How a Bash call is shown: the exact command (and what the model says it does)."""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.tool import ToolPresentation


def approval_lines(inp: dict[str, Any]) -> list[str]:
    lines = str(inp.get("command", "")).splitlines() or [""]
    if inp.get("description"):
        lines.append(f"({inp['description']})")
    return lines


def label(inp: dict[str, Any]) -> str:
    command = str(inp.get("command") or "")
    return f"`{command.splitlines()[0] if command else ''}`"


PRESENTATION = ToolPresentation(title="Bash command", kind="execute", label=label,
                                approval_lines=approval_lines)
