"""How an Agent call is shown: the task it hands to the sub-agent."""

from __future__ import annotations

from claude_harness.protocol.tool import ToolPresentation

PRESENTATION = ToolPresentation(
    kind="think", label=lambda inp: str(inp.get("description") or "Sub-agent"))
